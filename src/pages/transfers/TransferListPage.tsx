/**
 * 转账记录: transfers between members, read-only. Filters: a member uid (either side), asset and
 * date range; under the table the sums per asset of amount and fee over all filtered rows.
 */
import { useMemo } from 'react';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { Column } from '../../components/table/columnTypes';
import { TransferAssets } from '../../../domain/transfers';
import { moneyColumn, timeColumn } from '../../components/columns';
import { DateRangeFilter } from '../../components/DateRangeFilter';
import { ListPage } from '../../components/ListPage';
import { useListParams } from '../../components/useListParams';
import EnumSelect from '../../components/EnumSelect';
import type { ListTransfersApiArg, ListTransfersApiResponse } from '../../services/generated/transfer';
import { useListTransfersQuery } from '../../services/transfers';

export type Transfer = ListTransfersApiResponse['list'][number];
type Sum = ListTransfersApiResponse['sum'];

const FILTERS = { uid: '', asset: '', start: '', end: '' };

function member(uid: string, nickname: string) {
  return (
    <Stack sx={{ lineHeight: 1.3, justifyContent: 'center', height: '100%' }}>
      <span>{uid}</span>
      <Typography variant="caption" color="text.secondary">
        {nickname}
      </Typography>
    </Stack>
  );
}

export default function TransferListPage() {
  const params = useListParams({ filters: FILTERS });
  const { data, isFetching, refetch } = useListTransfersQuery(params.queryArgs as ListTransfersApiArg);

  const columns = useMemo<Column<Transfer>[]>(
    () => [
      { field: 'id', headerName: 'ID', width: 80, sortable: true },
      {
        field: 'fromUid',
        headerName: '转出会员',
        width: 140,
        renderCell: ({ row }) => member(row.fromUid, row.fromNickname),
      },
      {
        field: 'toUid',
        headerName: '转入会员',
        width: 140,
        renderCell: ({ row }) => member(row.toUid, row.toNickname),
      },
      { field: 'asset', headerName: '资产', width: 90 },
      moneyColumn<Transfer>('amount', '金额', (row) => row.asset, { width: 150 }),
      moneyColumn<Transfer>('fee', '手续费', (row) => row.asset, { width: 130 }),
      timeColumn('createdAt', '转账时间', { sortable: true }),
    ],
    [],
  );

  return (
    <ListPage<Transfer, Sum, typeof FILTERS>
      params={params}
      columns={columns}
      data={data}
      isFetching={isFetching}
      onRefresh={refetch}
      label="转账记录"
      totals={(sum) =>
        sum.byAsset.flatMap((s) => [
          { label: `${s.asset} 合计金额`, amount: s.amount, asset: s.asset },
          { label: `${s.asset} 手续费`, amount: s.fee, asset: s.asset },
        ])
      }
    >
      <TextField
        label="会员UID"
        placeholder="转出或转入"
        size="small"
        slotProps={{ htmlInput: { maxLength: 8, inputMode: 'numeric' } }}
        {...params.field('uid')}
      />
      <EnumSelect filter label="资产" {...params.field('asset')} options={TransferAssets} />
      <DateRangeFilter params={params} />
    </ListPage>
  );
}
