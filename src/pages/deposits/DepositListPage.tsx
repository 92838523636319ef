/**
 * 充值记录: members' USDT deposits. Filters in the URL; 确认到账 credits the member (once, whatever
 * the number of clicks or managers) and 驳回 asks for a reason; both behind a confirmation and shown
 * only with deposit:audit. The totals line sums the filtered amounts.
 */
import { useMemo } from 'react';
import Button from '@mui/material/Button';
import TextField from '@mui/material/TextField';
import type { Column } from '../../components/table/columnTypes';
import { Chains, DepositActions, DepositStatus } from '../../../domain/deposits';
import {
  actionsColumn,
  actionsWidth,
  copyColumn,
  fileLinkColumn,
  memberColumn,
  moneyColumn,
  statusColumn,
  timeColumn,
} from '../../components/columns';
import { DateRangeFilter } from '../../components/DateRangeFilter';
import { IdFilter } from '../../components/IdFilter';
import { ListPage } from '../../components/ListPage';
import { usePermissions } from '../../components/useCan';
import useAction from '../../components/useAction';
import { useDetailRow } from '../../components/useDetailRow';
import { useListParams } from '../../components/useListParams';
import EnumSelect from '../../components/EnumSelect';
import type { ListDepositsApiArg, ListDepositsApiResponse } from '../../services/generated/deposit';
import { useDepositOptMutation, useListDepositsQuery } from '../../services/deposits';
import DepositDrawer from './DepositDrawer';
import { Can } from '../../components/Can';
import { ExportButton, exportFilters } from '../../components/ExportButton';

export type Deposit = ListDepositsApiResponse['list'][number];

const FILTERS = { id: '', keyword: '', txHash: '', chain: '', status: '', start: '', end: '' };
const NUMERIC = ['id', 'status'] as const;

export default function DepositListPage() {
  const params = useListParams({ filters: FILTERS, numeric: NUMERIC });
  const { data, isFetching, refetch } = useListDepositsQuery(params.queryArgs as ListDepositsApiArg);
  const { can } = usePermissions();
  const canAudit = can('deposit:audit');
  const [run, actionDialog] = useAction();
  const [opt] = useDepositOptMutation();

  const act = (row: Deposit, action: 'confirm' | 'reject') => {
    const what = `充值 #${row.id}（${row.amount} USDT，会员 ${row.uid}）`;
    return run({
      confirm:
        action === 'reject'
          ? { content: `确认驳回该${what}？`, danger: true, remark: {} }
          : { content: `确认该${what}已到账？确认后金额计入会员可用余额。` },
      call: (remark) => opt({ body: { id: row.id, action, remark } }).unwrap(),
      success: action === 'confirm' ? '确认到账成功' : '驳回成功',
    });
  };

  /** The buttons a deposit's status allows: in the 操作 column and in the detail drawer. */
  const rowActions = (row: Deposit) =>
    canAudit
      ? DepositActions.actionsIn(row.status).map((a) => (
          <Button key={a} size="small" color={a === 'reject' ? 'error' : 'primary'} onClick={() => act(row, a)}>
            {DepositActions[a].label}
          </Button>
        ))
      : null;
  const detail = useDetailRow<Deposit>(data?.list, isFetching);

  const columns = useMemo<Column<Deposit>[]>(
    () => [
      { field: 'id', headerName: 'ID', width: 80, sortable: true },
      memberColumn({ width: 150 }),
      { field: 'chain', headerName: '链', width: 80 },
      moneyColumn('amount', '金额', 'USDT', { sortable: true, width: 140 }),
      copyColumn('fromAddress', '付款地址'),
      copyColumn('toAddress', '收款地址'),
      copyColumn('txHash', '交易哈希'),
      fileLinkColumn('proofUrl', '凭证'),
      statusColumn('status', '状态', DepositStatus.map),
      { field: 'remark', headerName: '备注', width: 150 },
      { field: 'auditorName', headerName: '审核人', width: 100 },
      timeColumn('auditedAt', '审核时间', { sortable: true }),
      timeColumn('createdAt', '提交时间', { sortable: true }),
      actionsColumn<Deposit>(
        (row) => (
          <>
            <Button size="small" onClick={() => detail.open(row)}>
              详情
            </Button>
            {rowActions(row)}
          </>
        ),
        { width: actionsWidth(3) }, // 详情, 确认, 驳回
      ),
    ],
    // act closes over stable hooks and the row only.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [canAudit],
  );

  return (
    <>
      <ListPage
        params={params}
        columns={columns}
        data={data}
        isFetching={isFetching}
        onRefresh={refetch}
        label="充值记录"
        totals={(sum) => [{ label: '合计金额', amount: sum.amount, asset: 'USDT' }]}
        toolbar={
          <Can code="deposit:export">
            <ExportButton
              path="/v1/admin/deposit/export"
              params={exportFilters(params.queryArgs)}
              formats={['xlsx', 'csv']}
              fallbackName="充值记录.xlsx"
            />
          </Can>
        }
      >
        <IdFilter params={params} />
        <TextField label="会员" placeholder="UID或手机号" size="small" {...params.field('keyword')} />
        <TextField label="交易哈希" size="small" {...params.field('txHash')} />
        <EnumSelect filter label="链" {...params.field('chain')} options={Chains} />
        <EnumSelect filter label="状态" {...params.field('status')} options={DepositStatus} />
        <DateRangeFilter params={params} />
      </ListPage>
      <DepositDrawer
        row={detail.row}
        onClose={detail.close}
        actions={
          detail.row && canAudit && DepositActions.actionsIn(detail.row.status).length
            ? rowActions(detail.row)
            : undefined
        }
      />
      {actionDialog}
    </>
  );
}
