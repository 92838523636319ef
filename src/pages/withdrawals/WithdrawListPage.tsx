/**
 * 提现审核 (type 1, USDT) and 提取审核 (type 2, LZ): one page, the type from the route's props.
 * Filters, page and sort live in the URL; approve / paid (with the transaction hash) / reject (with a
 * remark) per row behind a confirmation, shown only to managers holding the type's audit or pay code;
 * the same actions on a selection, answered per record in a summary.
 */
import { useMemo, useState } from 'react';
import Button from '@mui/material/Button';
import TextField from '@mui/material/TextField';
import type { Column } from '../../components/table/columnTypes';
import {
  WithdrawActions,
  WithdrawAsset,
  WithdrawCodes,
  WithdrawStatus,
  WithdrawType,
  type WithdrawAction,
  type WithdrawType as WType,
} from '../../../domain/withdrawals';
import {
  actionsColumn,
  actionsWidth,
  copyColumn,
  memberColumn,
  moneyColumn,
  statusColumn,
  timeColumn,
} from '../../components/columns';
import { DateRangeFilter } from '../../components/DateRangeFilter';
import { IdFilter } from '../../components/IdFilter';
import { ListPage } from '../../components/ListPage';
import StatusChips from '../../components/StatusChips';
import { usePermissions } from '../../components/useCan';
import useAction from '../../components/useAction';
import { useDetailRow } from '../../components/useDetailRow';
import { useListParams } from '../../components/useListParams';
import { useRowSelection } from '../../components/useRowSelection';
import EnumSelect from '../../components/EnumSelect';
import type { ListWithdrawalsApiArg, ListWithdrawalsApiResponse } from '../../services/generated/withdraw';
import { useListWithdrawalsQuery, useWithdrawBatchMutation, useWithdrawOptMutation } from '../../services/withdrawals';
import { useAppDispatch } from '../../store/hooks';
import { toastShown } from '../../store/toastSlice';
import { Can } from '../../components/Can';
import { ExportButton, exportFilters } from '../../components/ExportButton';
import BatchResultDialog, { type BatchResult } from '../../components/BatchResultDialog';
import TxHashDialog from './TxHashDialog';
import WithdrawDrawer from './WithdrawDrawer';

export type Withdraw = ListWithdrawalsApiResponse['list'][number];
type Action = WithdrawAction;

const FILTERS = { id: '', keyword: '', status: '', address: '', txHash: '', start: '', end: '' };
const NUMERIC = ['id', 'status'] as const;

export interface WithdrawListPageProps {
  /** 1 提现 (USDT), 2 提取 (LZ). */
  type?: WType;
}

export default function WithdrawListPage({ type = 1 }: WithdrawListPageProps) {
  const label = WithdrawType.label(type);
  const asset = WithdrawAsset[type];
  const codes = WithdrawCodes[type];
  const dispatch = useAppDispatch();
  const params = useListParams({ filters: FILTERS, numeric: NUMERIC });
  const { data, isFetching, refetch } = useListWithdrawalsQuery({
    ...(params.queryArgs as Omit<ListWithdrawalsApiArg, 'type'>),
    type,
  });
  const { can } = usePermissions();
  const canAudit = can(codes.audit);
  const canPay = can(codes.pay);
  const [run, actionDialog] = useAction();
  const selection = useRowSelection<number>();
  const [opt] = useWithdrawOptMutation();
  const [batch, batchState] = useWithdrawBatchMutation();
  // What is being paid stays set while the dialog closes (its text must not change as it fades).
  const [paying, setPaying] = useState<{ open: boolean; ids: number[]; chain?: string }>({ open: false, ids: [] });
  const [result, setResult] = useState<(BatchResult & { action: string }) | null>(null);

  const actionText: Record<Action, string> = { approve: '审核通过', paid: '确认打款', reject: '驳回' };

  const act = (row: Withdraw, action: Exclude<Action, 'paid'>) => {
    const what = `${label} #${row.id}（${row.amount} ${asset}，会员 ${row.uid}）`;
    return run({
      confirm:
        action === 'reject'
          ? {
              content: `确认驳回该${what}？驳回后冻结金额退回会员可用余额。`,
              danger: true,
              remark: { placeholder: '请输入驳回原因' },
            }
          : { content: `确认审核通过该${what}？` },
      call: (remark) => opt({ body: { id: row.id, action, remark } }).unwrap(),
      success: `${actionText[action]}成功`,
    });
  };

  const pay = async (txHash: string) => {
    if (paying.ids.length === 1 && paying.chain !== undefined) {
      await opt({ body: { id: paying.ids[0], action: 'paid', txHash } }).unwrap();
      dispatch(toastShown('确认打款成功', 'success'));
    } else {
      const r = await batch({ body: { ids: paying.ids, action: 'paid', txHash: txHash || undefined } }).unwrap();
      selection.clear();
      setResult({ ...r, action: '批量打款' });
    }
  };

  const runBatch = async (action: Exclude<Action, 'paid'>) => {
    const ids = selection.ids;
    if (ids.length === 0) return;
    const done = await run({
      confirm:
        action === 'reject'
          ? {
              content: `确认驳回选中的 ${ids.length} 条${label}？`,
              danger: true,
              remark: { placeholder: '请输入驳回原因' },
            }
          : { content: `确认审核通过选中的 ${ids.length} 条${label}？` },
      call: (remark) => batch({ body: { ids, action, remark } }).unwrap(),
    });
    if (!done) return;
    selection.clear();
    setResult({ ...done.result, action: action === 'approve' ? '批量通过' : '批量驳回' });
  };

  /** The buttons a row's status allows this manager: in the 操作 column and in the detail drawer. */
  const rowActions = (row: Withdraw) => (
    <>
      {canAudit && WithdrawActions.allows('approve', row.status) ? (
        <Button size="small" onClick={() => act(row, 'approve')}>
          {WithdrawActions.approve.label}
        </Button>
      ) : null}
      {canPay && WithdrawActions.allows('paid', row.status) ? (
        <Button size="small" onClick={() => setPaying({ open: true, ids: [row.id], chain: row.chain })}>
          {WithdrawActions.paid.label}
        </Button>
      ) : null}
      {canAudit && WithdrawActions.allows('reject', row.status) ? (
        <Button size="small" color="error" onClick={() => act(row, 'reject')}>
          {WithdrawActions.reject.label}
        </Button>
      ) : null}
    </>
  );
  const detail = useDetailRow<Withdraw>(data?.list, isFetching);

  const columns = useMemo<Column<Withdraw>[]>(
    () => [
      { field: 'id', headerName: 'ID', width: 80, sortable: true },
      memberColumn({ width: 150 }),
      moneyColumn('amount', '金额', asset, { sortable: true, width: 130 }),
      moneyColumn('fee', '手续费', asset, { width: 110 }),
      moneyColumn('actual', '实际到账', asset, { width: 130 }),
      { field: 'chain', headerName: '链', width: 80 },
      copyColumn('address', '地址'),
      statusColumn('status', '状态', WithdrawStatus.map),
      copyColumn('txHash', '交易哈希'),
      { field: 'remark', headerName: '备注', width: 150 },
      { field: 'auditorName', headerName: '审核人', width: 100 },
      timeColumn('createdAt', '申请时间', { sortable: true }),
      timeColumn('auditedAt', '审核时间', { sortable: true }),
      timeColumn('paidAt', '打款时间', { sortable: true }),
      actionsColumn<Withdraw>(
        (row) => (
          <>
            <Button size="small" onClick={() => detail.open(row)}>
              详情
            </Button>
            {rowActions(row)}
          </>
        ),
        { width: actionsWidth(3) }, // 详情 and two of 通过 / 打款 / 驳回
      ),
    ],
    // rowActions (act, setPaying) only close over stable hooks and the row.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [asset, canAudit, canPay, label],
  );

  const chosen = selection.ids.length;
  const busy = batchState.isLoading;
  const statusFilter = params.filters.status;

  return (
    <>
      <ListPage
        params={params}
        columns={columns}
        data={data}
        isFetching={isFetching}
        onRefresh={refetch}
        label={`${label}列表`}
        selection={canAudit || canPay ? selection : undefined}
        totals={(sum) => [
          { label: '合计金额', amount: sum.amount, asset },
          { label: '合计手续费', amount: sum.fee, asset },
        ]}
        toolbar={
          <>
            <Can code={codes.export}>
              <ExportButton
                path="/v1/admin/withdraw/export"
                params={{ ...exportFilters(params.queryArgs), type }}
                formats={['xlsx', 'csv']}
                fallbackName={`${label}记录.xlsx`}
              />
            </Can>
            <StatusChips
              options={WithdrawStatus}
              value={statusFilter}
              onSelect={(status) => params.search({ status })}
            />
            {canAudit ? (
              <>
                <Button variant="outlined" disabled={!chosen || busy} onClick={() => runBatch('approve')}>
                  批量通过{chosen ? `（${chosen}）` : ''}
                </Button>
                <Button variant="outlined" color="error" disabled={!chosen || busy} onClick={() => runBatch('reject')}>
                  批量驳回{chosen ? `（${chosen}）` : ''}
                </Button>
              </>
            ) : null}
            {canPay ? (
              <Button
                variant="outlined"
                disabled={!chosen || busy}
                onClick={() => setPaying({ open: true, ids: selection.ids })}
              >
                批量打款{chosen ? `（${chosen}）` : ''}
              </Button>
            ) : null}
          </>
        }
      >
        <IdFilter params={params} />
        <TextField label="会员" placeholder="UID或手机号" size="small" {...params.field('keyword')} />
        <EnumSelect filter label="状态" sx={{ width: 130 }} {...params.field('status')} options={WithdrawStatus} />
        <TextField label="地址" size="small" {...params.field('address')} />
        <TextField label="交易哈希" size="small" {...params.field('txHash')} />
        <DateRangeFilter params={params} />
      </ListPage>
      <TxHashDialog
        open={paying.open}
        count={paying.ids.length}
        chain={paying.chain}
        onClose={() => setPaying((p) => ({ ...p, open: false }))}
        onSubmit={pay}
      />
      <WithdrawDrawer
        row={detail.row}
        label={label}
        onClose={detail.close}
        actions={detail.row && (canAudit || canPay) ? rowActions(detail.row) : undefined}
      />
      <BatchResultDialog result={result} title={result?.action ?? ''} onClose={() => setResult(null)} />
      {actionDialog}
    </>
  );
}
