/**
 * 订单管理: orders with filters in the URL (order number, member, product, status chips, time), the
 * count and totals per pay asset of every matching order, a detail drawer, and the actions the state
 * allows (order:opt): 发货 with the express company and tracking number, 完成, 取消 with a reason —
 * which refunds the payment and puts the stock back — each behind a confirmation. Two managers racing:
 * the second gets the server's 409 as a toast. 导出 writes every matching order (order:export).
 */
import { lazy, Suspense, useMemo, useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { Column } from '../../components/table/columnTypes';
import type { Asset } from '../../../domain/assets';
import { OrderActions, OrderStatus, type OrderAction } from '../../../domain/mall';
import { thumbOf } from '../../../domain/formats';
import Can from '../../components/Can';
import {
  actionsColumn,
  actionsWidth,
  memberColumn,
  moneyColumn,
  statusColumn,
  timeColumn,
} from '../../components/columns';
import { DateRangeFilter } from '../../components/DateRangeFilter';
import { ExportButton } from '../../components/ExportButton';
import { ListPage } from '../../components/ListPage';
import StatusChips from '../../components/StatusChips';
import useAction from '../../components/useAction';
import { usePermissions } from '../../components/useCan';
import { useListParams } from '../../components/useListParams';
import type { ListOrdersApiArg } from '../../services/generated/order';
import { useListOrdersQuery, useOrderOptMutation } from '../../services/orders';
import type { Order } from './OrderDrawer';

// Loaded when first opened: not needed to show the list.
const OrderDrawer = lazy(() => import('./OrderDrawer'));
const ShipDialog = lazy(() => import('./ShipDialog'));

// memberId: one member's orders exactly (a link from a bill); no field of its own.
const FILTERS = { orderNo: '', keyword: '', memberId: '', productId: '', status: '', start: '', end: '' };
const NUMERIC = ['status', 'memberId', 'productId'] as const;

export default function OrderListPage() {
  const params = useListParams({ filters: FILTERS, numeric: NUMERIC });
  const { data, isFetching, refetch } = useListOrdersQuery(params.queryArgs as ListOrdersApiArg);
  const { can } = usePermissions();
  const canOpt = can('order:opt');
  const [run, actionDialog] = useAction();
  const [opt] = useOrderOptMutation();
  const [openId, setOpenId] = useState<number | null>(null);
  const [shipping, setShipping] = useState<Order | null>(null);
  const opened = openId === null ? null : (data?.list.find((o) => o.id === openId) ?? null);

  const act = (row: Order, action: Exclude<OrderAction, 'ship'>) => {
    const what = `订单 ${row.orderNo}（${row.productName} × ${row.quantity}，${row.total} ${row.asset}）`;
    return run({
      confirm:
        action === 'cancel'
          ? {
              content: `确认取消该${what}？取消后货款原路退回会员余额，库存退回。`,
              danger: true,
              remark: { placeholder: '请输入取消原因' },
            }
          : { content: `确认该${what}已完成？` },
      call: (remark) => opt({ body: { id: row.id, action, ...(remark ? { remark } : {}) } }).unwrap(),
      success: action === 'cancel' ? '订单已取消，货款已退回' : '订单已完成',
    });
  };

  const buttons = (row: Order) =>
    canOpt
      ? OrderActions.actionsIn(row.status).map((a) => (
          <Button
            key={a}
            size="small"
            color={a === 'cancel' ? 'error' : 'primary'}
            onClick={() => (a === 'ship' ? setShipping(row) : act(row, a))}
          >
            {OrderActions[a].label}
          </Button>
        ))
      : [];

  const columns = useMemo<Column<Order>[]>(
    () => [
      { field: 'orderNo', headerName: '订单号', width: 190 },
      memberColumn({ width: 130 }),
      {
        field: 'productName',
        headerName: '商品',
        flex: 1,
        minWidth: 220,
        renderCell: ({ row }) => (
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center', height: '100%' }}>
            {row.image ? (
              <Box
                component="img"
                src={thumbOf(row.image)}
                alt=""
                loading="lazy"
                sx={{ width: 40, height: 40, objectFit: 'cover', borderRadius: 0.5 }}
              />
            ) : null}
            <Stack sx={{ lineHeight: 1.3, minWidth: 0 }}>
              <span>{row.productName}</span>
              <Typography variant="caption" color="text.secondary" noWrap>
                {row.spec || '默认规格'} × {row.quantity}
              </Typography>
            </Stack>
          </Stack>
        ),
      },
      moneyColumn('total', '实付金额', (row) => row.asset as Asset, { width: 140, showAsset: true }),
      {
        field: 'receiverName',
        headerName: '收货人',
        width: 120,
        renderCell: ({ row }) => (
          <Stack sx={{ lineHeight: 1.3, justifyContent: 'center', height: '100%' }}>
            <span>{row.receiverName || '-'}</span>
            <Typography variant="caption" color="text.secondary">
              {row.receiverPhone}
            </Typography>
          </Stack>
        ),
      },
      statusColumn('status', '状态', OrderStatus.map, { width: 100 }),
      { field: 'trackingNo', headerName: '快递单号', width: 150, valueFormatter: (v: string) => v || '-' },
      timeColumn('createdAt', '下单时间'),
      actionsColumn<Order>(
        (row) => (
          <>
            <Button size="small" onClick={() => setOpenId(row.id)}>
              详情
            </Button>
            {buttons(row)}
          </>
        ),
        { width: actionsWidth(3) }, // 详情, 发货 or 完成, 取消
      ),
    ],
    // act and buttons close over stable hooks, canOpt and the row only.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [canOpt],
  );

  const statusFilter = params.filters.status;
  return (
    <>
      <ListPage
        params={params}
        columns={columns}
        data={data}
        isFetching={isFetching}
        onRefresh={refetch}
        label="订单列表"
        rowHeight={56}
        totals={(sum) => sum.totals.map((s) => ({ label: `合计金额`, amount: s.total, asset: s.asset as Asset }))}
        toolbar={
          <>
            <StatusChips options={OrderStatus} value={statusFilter} onSelect={(status) => params.search({ status })} />
            <Can code="order:export">
              <ExportButton path="/v1/admin/order/export" params={params.queryArgs} formats={['xlsx', 'csv']} />
            </Can>
          </>
        }
      >
        <TextField label="订单号" size="small" {...params.field('orderNo')} />
        <TextField label="会员" placeholder="UID、手机号或昵称" size="small" {...params.field('keyword')} />
        <TextField label="商品ID" size="small" sx={{ width: 110 }} {...params.field('productId')} />
        <DateRangeFilter params={params} />
      </ListPage>
      <Suspense fallback={null}>
        {opened ? (
          <OrderDrawer
            order={opened}
            onClose={() => setOpenId(null)}
            actions={buttons(opened).length ? buttons(opened) : undefined}
          />
        ) : null}
        {shipping ? (
          <ShipDialog
            order={shipping}
            onClose={() => setShipping(null)}
            onSubmit={(v) => opt({ body: { id: shipping.id, action: 'ship', ...v } }).unwrap()}
          />
        ) : null}
      </Suspense>
      {actionDialog}
    </>
  );
}
