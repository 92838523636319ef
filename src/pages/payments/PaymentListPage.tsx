/**
 * 收款方式: members' payment methods (bank card, Alipay, WeChat, USDT-TRC20) waiting for review or
 * in use. 通过 / 驳回 (a reason is required) for pending ones, 禁用 / 启用 afterwards, each behind a
 * confirmation and shown only with payment:opt. 导出 downloads every row of the current filters.
 */
import { useMemo } from 'react';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import type { GridColDef } from '@mui/x-data-grid';
import { PaymentActions, PaymentStatus, PaymentType, type PaymentAction } from '../../../domain/payments';
import { Can } from '../../components/Can';
import { actionsColumn, statusColumn, timeColumn, memberColumn, fileLinkColumn } from '../../components/columns';
import { DateRangeFilter } from '../../components/DateRangeFilter';
import { ExportButton } from '../../components/ExportButton';
import { errorMessage } from '../../components/FormDialog';
import { ListPage } from '../../components/ListPage';
import { usePermissions } from '../../components/useCan';
import { useConfirm } from '../../components/useConfirm';
import { useListParams } from '../../components/useListParams';
import type { ListPaymentMethodsApiArg, ListPaymentMethodsApiResponse } from '../../services/generated/api';
import { useListPaymentMethodsQuery, usePaymentOptMutation } from '../../services/ledger';
import { useAppDispatch } from '../../store/hooks';
import { toastShown } from '../../store/toastSlice';

export type PaymentMethod = ListPaymentMethodsApiResponse['list'][number];

const FILTERS = { keyword: '', type: '', status: '', start: '', end: '' };
const NUMERIC = ['type', 'status'] as const;

/** The actions a row offers in its state. */
export function actionsFor(status: number): PaymentAction[] {
  return (Object.keys(PaymentActions) as PaymentAction[]).filter((a) =>
    (PaymentActions[a].from as readonly number[]).includes(status),
  );
}

function accountText(row: PaymentMethod): string {
  return row.type === 1 ? `${row.account}（${[row.bank, row.branch].filter(Boolean).join(' ')}）` : row.account;
}

export default function PaymentListPage() {
  const dispatch = useAppDispatch();
  const params = useListParams({ filters: FILTERS, numeric: NUMERIC });
  const { data, isFetching } = useListPaymentMethodsQuery(params.queryArgs as ListPaymentMethodsApiArg);
  const { can } = usePermissions();
  const canOpt = can('payment:opt');
  const [confirm, confirmDialog] = useConfirm();
  const [opt] = usePaymentOptMutation();

  const act = async (row: PaymentMethod, action: PaymentAction) => {
    const label = PaymentActions[action].label;
    const what = `会员 ${row.uid} 的${PaymentType.label(row.type)}收款方式（${row.account}）`;
    let remark: string | undefined;
    if (action === 'reject') {
      const text = await confirm({
        content: `确认驳回${what}？`,
        danger: true,
        remark: { label: '驳回原因', placeholder: '请输入驳回原因' },
      });
      if (text === null) return;
      remark = text;
    } else if (!(await confirm({ content: `确认${label}${what}？`, danger: action === 'disable' }))) return;
    try {
      await opt({ body: { id: row.id, action, remark } }).unwrap();
      dispatch(toastShown(`${label}成功`, 'success'));
    } catch (error) {
      dispatch(toastShown(errorMessage(error), 'error'));
    }
  };

  const columns = useMemo<GridColDef<PaymentMethod>[]>(
    () => [
      { field: 'id', headerName: 'ID', width: 80, sortable: true },
      memberColumn(),
      statusColumn('type', '类型', PaymentType.map, { width: 120 }),
      { field: 'holder', headerName: '姓名', width: 100 },
      {
        field: 'account',
        headerName: '账号',
        flex: 1,
        minWidth: 220,
        renderCell: ({ row }) => <span title={accountText(row)}>{accountText(row)}</span>,
      },
      fileLinkColumn('qrUrl', '二维码'),
      statusColumn('status', '状态', PaymentStatus.map),
      { field: 'remark', headerName: '备注', width: 140 },
      { field: 'auditorName', headerName: '审核人', width: 100 },
      timeColumn('createdAt', '添加时间', { sortable: true }),
      actionsColumn<PaymentMethod>(
        (row) =>
          canOpt
            ? actionsFor(row.status).map((a) => (
                <Button
                  key={a}
                  size="small"
                  color={a === 'reject' || a === 'disable' ? 'error' : 'primary'}
                  onClick={() => act(row, a)}
                >
                  {PaymentActions[a].label}
                </Button>
              ))
            : null,
        { width: 140 },
      ),
    ],
    // act closes over stable hooks and the row only.
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
        label="收款方式列表"
        toolbar={
          <Can code="payment:export">
            <ExportButton
              path="/v1/admin/payment/export"
              params={params.queryArgs}
              formats={['xlsx', 'csv']}
              fallbackName="收款方式.xlsx"
            />
          </Can>
        }
      >
        <TextField label="会员" placeholder="UID或手机号" size="small" {...params.field('keyword')} />
        <TextField select label="类型" size="small" sx={{ width: 140 }} {...params.field('type')}>
          <MenuItem value="">全部</MenuItem>
          {PaymentType.values.map((v) => (
            <MenuItem key={v} value={String(v)}>
              {PaymentType.label(v)}
            </MenuItem>
          ))}
        </TextField>
        <TextField select label="状态" size="small" sx={{ width: 120 }} {...params.field('status')}>
          <MenuItem value="">全部</MenuItem>
          {PaymentStatus.values.map((v) => (
            <MenuItem key={v} value={String(v)}>
              {PaymentStatus.label(v)}
            </MenuItem>
          ))}
        </TextField>
        <DateRangeFilter params={params} />
      </ListPage>
      {confirmDialog}
    </>
  );
}
