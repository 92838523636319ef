/**
 * 撮合管理: matches between members with filters in the URL (seller, buyer, status, time range), the
 * totals of every matching match, a detail drawer (payment snapshot, proof image, appeal), and the
 * arbitration — 完成 (the seller's frozen LZ to the buyer) and 取消 (back to the seller, a remark
 * required) — only in the states domain/matches.ts allows and only with match:opt, each behind a
 * confirmation. Two managers racing: the second gets the server's 409 as a toast.
 */
import { useMemo, useState } from 'react';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { Column } from '../../components/table/columnTypes';
import { MatchActions, MatchStatus, type MatchAction } from '../../../domain/matches';
import { actionsColumn, actionsWidth, moneyColumn, statusColumn, timeColumn } from '../../components/columns';
import { DateRangeFilter } from '../../components/DateRangeFilter';
import EnumSelect from '../../components/EnumSelect';
import { ListPage } from '../../components/ListPage';
import useAction from '../../components/useAction';
import { usePermissions } from '../../components/useCan';
import { useListParams } from '../../components/useListParams';
import type { ListMatchesApiArg } from '../../services/generated/match';
import { useListMatchesQuery, useMatchOptMutation } from '../../services/matches';
import MatchDrawer, { type Match } from './MatchDrawer';

const FILTERS = { seller: '', buyer: '', status: '', start: '', end: '' };
const NUMERIC = ['status'] as const;

function party(uid: string, name: string) {
  return (
    <Stack sx={{ lineHeight: 1.3, justifyContent: 'center', height: '100%' }}>
      <span>{uid}</span>
      <Typography variant="caption" color="text.secondary">
        {name}
      </Typography>
    </Stack>
  );
}

export default function MatchListPage() {
  const params = useListParams({ filters: FILTERS, numeric: NUMERIC });
  const { data, isFetching, refetch } = useListMatchesQuery(params.queryArgs as ListMatchesApiArg);
  const { can } = usePermissions();
  const canOpt = can('match:opt');
  const [run, actionDialog] = useAction();
  const [opt] = useMatchOptMutation();
  const [openId, setOpenId] = useState<number | null>(null);
  const opened = openId === null ? null : (data?.list.find((m) => m.id === openId) ?? null);

  const act = (row: Match, action: MatchAction) => {
    const what = `撮合 #${row.id}（${row.quantity} LZ，卖家 ${row.sellerUid}，买家 ${row.buyerUid}）`;
    return run({
      confirm:
        action === 'cancel'
          ? {
              content: `确认取消该${what}？取消后卖家冻结的LZ退回其可用余额。`,
              danger: true,
              remark: { placeholder: '请输入取消原因' },
            }
          : {
              content: `确认完成该${what}？完成后卖家冻结的LZ转入买家可用余额。`,
              remark: { placeholder: '备注（选填）', required: false },
            },
      call: (remark) => opt({ body: { id: row.id, action, ...(remark ? { remark } : {}) } }).unwrap(),
      success: action === 'complete' ? '撮合已完成' : '撮合已取消',
    });
  };

  const buttons = (row: Match) =>
    canOpt
      ? MatchActions.actionsIn(row.status).map((a) => (
          <Button key={a} size="small" color={a === 'cancel' ? 'error' : 'primary'} onClick={() => act(row, a)}>
            {MatchActions[a].label}
          </Button>
        ))
      : [];

  const columns = useMemo<Column<Match>[]>(
    () => [
      { field: 'id', headerName: 'ID', width: 80, sortable: true },
      {
        field: 'sellerUid',
        headerName: '卖家',
        width: 130,
        renderCell: ({ row }) => party(row.sellerUid, row.sellerNickname || row.sellerPhone),
      },
      {
        field: 'buyerUid',
        headerName: '买家',
        width: 130,
        renderCell: ({ row }) => party(row.buyerUid, row.buyerNickname || row.buyerPhone),
      },
      moneyColumn('quantity', '数量（LZ）', 'LZ', { width: 130 }),
      moneyColumn('unitPrice', '单价（USDT）', 'USDT', { width: 120 }),
      moneyColumn('total', '总额（USDT）', 'USDT', { width: 130 }),
      statusColumn('status', '状态', MatchStatus.map, { width: 120 }),
      timeColumn('createdAt', '创建时间'),
      actionsColumn<Match>(
        (row) => (
          <>
            <Button size="small" onClick={() => setOpenId(row.id)}>
              详情
            </Button>
            {buttons(row)}
          </>
        ),
        { width: actionsWidth(3) }, // 详情, 完成, 取消
      ),
    ],
    // act and buttons close over stable hooks, canOpt and the row only.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [canOpt],
  );

  return (
    <>
      <ListPage
        params={params}
        columns={columns}
        data={data}
        isFetching={isFetching}
        onRefresh={refetch}
        label="撮合列表"
        totals={(sum) => [
          { label: '合计数量', amount: sum.quantity, asset: 'LZ' },
          { label: '合计总额', amount: sum.total, asset: 'USDT' },
        ]}
      >
        <TextField label="卖家" placeholder="UID、手机号或昵称" size="small" {...params.field('seller')} />
        <TextField label="买家" placeholder="UID、手机号或昵称" size="small" {...params.field('buyer')} />
        <EnumSelect filter label="状态" sx={{ width: 140 }} options={MatchStatus} {...params.field('status')} />
        <DateRangeFilter params={params} />
      </ListPage>
      <MatchDrawer
        match={opened}
        onClose={() => setOpenId(null)}
        actions={opened && buttons(opened).length ? buttons(opened) : undefined}
      />
      {actionDialog}
    </>
  );
}
