/**
 * 会员管理 / 资产查询 (DOMAIN.md §3 Members): `query/list`, one row per member and asset with
 * available, frozen and total; filters keyword, asset and minimum total in the URL; the totals of
 * every filtered row per asset under the table.
 */
import { useMemo } from 'react';
import TextField from '@mui/material/TextField';
import type { Column } from '../../components/table/columnTypes';
import { Assets, type Asset } from '../../../domain/assets';
import { moneyColumn, timeColumn } from '../../components/columns';
import ListPage from '../../components/ListPage';
import { useListParams } from '../../components/useListParams';
import EnumSelect from '../../components/EnumSelect';
import type { ListAssetsApiArg, ListAssetsApiResponse } from '../../services/generated/query';
import { useListAssetsQuery } from '../../services/members';

type Row = ListAssetsApiResponse['list'][number];
type Sum = ListAssetsApiResponse['sum'];
const FILTERS = { keyword: '', asset: '', minTotal: '' };
const assetOf = (row: Row): Asset => row.asset;

export default function AssetQueryPage() {
  const params = useListParams({ filters: FILTERS });
  const { data, isFetching, refetch } = useListAssetsQuery(params.queryArgs as ListAssetsApiArg);
  const columns = useMemo<Column<Row>[]>(
    () => [
      { field: 'uid', headerName: 'UID', width: 100 },
      { field: 'phone', headerName: '手机号', width: 130 },
      { field: 'nickname', headerName: '昵称', width: 120 },
      { field: 'asset', headerName: '币种', width: 90 },
      moneyColumn<Row>('available', '可用', assetOf, { sortable: true, width: 160 }),
      moneyColumn<Row>('frozen', '冻结', assetOf, { sortable: true, width: 160 }),
      moneyColumn<Row>('total', '总额', assetOf, { sortable: true, width: 160 }),
      timeColumn('updatedAt', '更新时间'),
    ],
    [],
  );
  const totals = (sum: Sum) =>
    sum.flatMap((s) => [
      { label: `${s.asset}可用`, amount: s.available, asset: s.asset },
      { label: `${s.asset}冻结`, amount: s.frozen, asset: s.asset },
    ]);

  return (
    <ListPage
      params={params}
      columns={columns}
      data={data}
      isFetching={isFetching}
      onRefresh={refetch}
      label="资产列表"
      getRowId={(row) => `${row.memberId}-${row.asset}`}
      totals={totals}
    >
      <TextField
        label="关键字"
        placeholder="UID/手机号/昵称"
        size="small"
        sx={{ width: 180 }}
        {...params.field('keyword')}
      />
      <EnumSelect filter label="币种" {...params.field('asset')} options={Assets} />
      <TextField
        label="最低总额"
        size="small"
        sx={{ width: 130 }}
        {...params.field('minTotal')}
        slotProps={{ htmlInput: { inputMode: 'decimal' } }}
      />
    </ListPage>
  );
}
