/**
 * 商品管理: products with their cover, kind, pay asset, price (lowest SKU), stock and sales (sums of
 * the SKUs), status and sort; filters in the URL (name, kind, status, asset). 新增商品 and 编辑 open the
 * editor (product:edit); 上架 / 下架 / 删除 per row or on a selection (product:operate), each behind a
 * confirmation and answered per product (a product without stock cannot go on shelf; one with open
 * orders cannot be deleted). 订单 opens the order list of that product.
 */
import { lazy, Suspense, useMemo, useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { Column } from '../../components/table/columnTypes';
import { Assets } from '../../../domain/assets';
import { ProductKind, ProductOperations, ProductStatus, type ProductOperation } from '../../../domain/mall';
import { pagePaths } from '../../../domain/pagePaths';
import { thumbOf } from '../../../domain/formats';
import { actionsColumn, actionsWidth, moneyColumn, statusColumn, timeColumn } from '../../components/columns';
import EnumSelect from '../../components/EnumSelect';
import { ListPage } from '../../components/ListPage';
import useAction from '../../components/useAction';
import { usePermissions } from '../../components/useCan';
import { useListParams } from '../../components/useListParams';
import { useRowSelection } from '../../components/useRowSelection';
import type { ListProductsApiArg, ListProductsApiResponse } from '../../services/generated/product';
import { useListProductsQuery, useOperateProductsMutation } from '../../services/products';
import type { Asset } from '../../../domain/assets';
import type { BatchResult } from '../../components/BatchResultDialog';

// Loaded when first opened: the editor (uploads, the SKU table, the rich-text editor) and the batch
// result are not needed to show the list.
const ProductEditor = lazy(() => import('./ProductEditor'));
const BatchResultDialog = lazy(() => import('../../components/BatchResultDialog'));

export type Product = ListProductsApiResponse['list'][number];

const FILTERS = { name: '', kind: '', status: '', asset: '' };
const NUMERIC = ['kind', 'status'] as const;
const ORDERS_PATH = `/layout/${pagePaths['order:view']}`;

export default function ProductListPage() {
  const params = useListParams({ filters: FILTERS, numeric: NUMERIC });
  const { data, isFetching, refetch } = useListProductsQuery(params.queryArgs as ListProductsApiArg);
  const { can } = usePermissions();
  const canEdit = can('product:edit');
  const canOperate = can('product:operate');
  const [run, actionDialog] = useAction();
  const [operate, operateState] = useOperateProductsMutation();
  const selection = useRowSelection<number>();
  const [editing, setEditing] = useState<{ id?: number } | null>(null);
  const [result, setResult] = useState<(BatchResult & { action: string }) | null>(null);

  const act = async (ids: number[], action: ProductOperation, name?: string) => {
    const label = ProductOperations[action];
    const what = name ? `商品「${name}」` : `选中的 ${ids.length} 个商品`;
    const done = await run({
      confirm: {
        content: action === 'delete' ? `确认删除${what}？删除后不可恢复，已有订单不受影响。` : `确认${label}${what}？`,
        danger: action !== 'onShelf',
      },
      call: () => operate({ body: { ids, action } }).unwrap(),
      success: (r) => (r.failed.length ? undefined : `${label}成功`),
    });
    if (!done) return;
    if (!name) selection.clear();
    if (done.result.failed.length) setResult({ ...done.result, action: `${name ? '' : '批量'}${label}` });
  };

  const columns = useMemo<Column<Product>[]>(
    () => [
      { field: 'id', headerName: 'ID', width: 80, sortable: true },
      {
        field: 'cover',
        headerName: '封面',
        width: 76,
        sortable: false,
        renderCell: ({ row }) =>
          row.cover ? (
            <Box
              component="img"
              src={thumbOf(row.cover)}
              alt={row.name}
              loading="lazy"
              sx={{ width: 48, height: 48, objectFit: 'cover', borderRadius: 0.5, mt: 0.5 }}
            />
          ) : (
            '-'
          ),
      },
      {
        field: 'name',
        headerName: '商品名称',
        flex: 1,
        minWidth: 200,
        renderCell: ({ row }) => (
          <Stack sx={{ lineHeight: 1.3, justifyContent: 'center', height: '100%' }}>
            <span>{row.name}</span>
            <Typography variant="caption" color="text.secondary">
              {row.kind === ProductKind.is.seed
                ? `种子：${row.seedEnergy} 能量 / ${row.seedDays} 天`
                : `${row.skuCount} 个规格`}
            </Typography>
          </Stack>
        ),
      },
      statusColumn('kind', '类型', ProductKind.map, { width: 90 }),
      { field: 'asset', headerName: '币种', width: 80 },
      moneyColumn('price', '价格', (row) => row.asset as Asset, { width: 120 }),
      { field: 'stock', headerName: '库存', width: 90, align: 'right', headerAlign: 'right' },
      { field: 'sales', headerName: '销量', width: 90, align: 'right', headerAlign: 'right' },
      statusColumn('status', '状态', ProductStatus.map, { width: 90 }),
      { field: 'sort', headerName: '排序', width: 80, sortable: true },
      timeColumn('updatedAt', '更新时间'),
      actionsColumn<Product>(
        (row) => (
          <>
            {canEdit ? (
              <Button size="small" onClick={() => setEditing({ id: row.id })}>
                编辑
              </Button>
            ) : null}
            {canOperate ? (
              row.status === ProductStatus.is.on ? (
                <Button size="small" color="warning" onClick={() => act([row.id], 'offShelf', row.name)}>
                  下架
                </Button>
              ) : (
                <>
                  <Button size="small" onClick={() => act([row.id], 'onShelf', row.name)}>
                    上架
                  </Button>
                  <Button size="small" color="error" onClick={() => act([row.id], 'delete', row.name)}>
                    删除
                  </Button>
                </>
              )
            ) : null}
            <Button size="small" component={RouterLink} to={`${ORDERS_PATH}?productId=${row.id}`}>
              订单
            </Button>
          </>
        ),
        { width: actionsWidth(4) }, // 编辑, 上架 or 下架, 删除, 订单
      ),
    ],
    // act closes over stable hooks and the permissions only.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [canEdit, canOperate],
  );

  const chosen = selection.ids.length;
  const busy = operateState.isLoading;
  return (
    <>
      <ListPage
        params={params}
        columns={columns}
        data={data}
        isFetching={isFetching}
        onRefresh={refetch}
        label="商品列表"
        selection={canOperate ? selection : undefined}
        rowHeight={60}
        toolbar={
          <>
            {canEdit ? (
              <Button variant="contained" onClick={() => setEditing({})}>
                新增商品
              </Button>
            ) : null}
            {canOperate
              ? (['onShelf', 'offShelf', 'delete'] as const).map((a) => (
                  <Button
                    key={a}
                    variant="outlined"
                    color={a === 'delete' ? 'error' : 'primary'}
                    disabled={!chosen || busy}
                    onClick={() => act(selection.ids, a)}
                  >
                    批量{ProductOperations[a]}
                    {chosen ? `（${chosen}）` : ''}
                  </Button>
                ))
              : null}
          </>
        }
      >
        <TextField label="商品名称" size="small" {...params.field('name')} />
        <EnumSelect filter label="类型" options={ProductKind} {...params.field('kind')} />
        <EnumSelect filter label="状态" options={ProductStatus} {...params.field('status')} />
        <EnumSelect filter label="币种" options={Assets} {...params.field('asset')} />
      </ListPage>
      <Suspense fallback={null}>
        {editing ? <ProductEditor open id={editing.id} onClose={() => setEditing(null)} /> : null}
        {result ? <BatchResultDialog result={result} title={result.action} onClose={() => setResult(null)} /> : null}
      </Suspense>
      {actionDialog}
    </>
  );
}
