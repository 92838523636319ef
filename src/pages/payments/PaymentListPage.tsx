/**
 * 收款方式: members' payment methods (bank card, Alipay, WeChat, USDT-TRC20) waiting for review or
 * in use. 通过 / 驳回 (a reason is required) for pending ones, 禁用 / 启用 afterwards, each behind a
 * confirmation and shown only with payment:opt. 导出 downloads every row of the current filters.
 */
import { useMemo } from 'react';
import Button from '@mui/material/Button';
import TextField from '@mui/material/TextField';
import type { Column } from '../../components/table/columnTypes';
import { PaymentActions, PaymentStatus, PaymentType, type PaymentAction } from '../../../domain/payments';
import { Can } from '../../components/Can';
import {
  actionsColumn,
  actionsWidth,
  fileLinkColumn,
  memberColumn,
  statusColumn,
  timeColumn,
} from '../../components/columns';
import { DateRangeFilter } from '../../components/DateRangeFilter';
import { ExportButton } from '../../components/ExportButton';
import { ListPage } from '../../components/ListPage';
import { usePermissions } from '../../components/useCan';
import useAction from '../../components/useAction';
import { useListParams } from '../../components/useListParams';
import EnumSelect from '../../components/EnumSelect';
import type { ListPaymentMethodsApiArg, ListPaymentMethodsApiResponse } from '../../services/generated/payment';
import { useListPaymentMethodsQuery, usePaymentOptMutation } from '../../services/payments';

export type PaymentMethod = ListPaymentMethodsApiResponse['list'][number];

const FILTERS = { keyword: '', type: '', status: '', start: '', end: '' };
const NUMERIC = ['type', 'status'] as const;

/** The actions a row offers in its state. */
export function actionsFor(status: number): PaymentAction[] {
  return PaymentActions.actionsIn(status);
}

function accountText(row: PaymentMethod): string {
  return row.type === 1 ? `${row.account}（${[row.bank, row.branch].filter(Boolean).join(' ')}）` : row.account;
}

export default function PaymentListPage() {
  const params = useListParams({ filters: FILTERS, numeric: NUMERIC });
  const { data, isFetching, refetch } = useListPaymentMethodsQuery(params.queryArgs as ListPaymentMethodsApiArg);
  const { can } = usePermissions();
  const canOpt = can('payment:opt');
  const [run, actionDialog] = useAction();
  const [opt] = usePaymentOptMutation();

  const act = (row: PaymentMethod, action: PaymentAction) => {
    const label = PaymentActions[action].label;
    const what = `会员 ${row.uid} 的${PaymentType.label(row.type)}收款方式（${row.account}）`;
    return run({
      confirm:
        action === 'reject'
          ? {
              content: `确认驳回${what}？`,
              danger: true,
              remark: { label: '驳回原因', placeholder: '请输入驳回原因' },
            }
          : { content: `确认${label}${what}？`, danger: action === 'disable' },
      call: (remark) => opt({ body: { id: row.id, action, remark } }).unwrap(),
      success: `${label}成功`,
    });
  };

  const columns = useMemo<Column<PaymentMethod>[]>(
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
        { width: actionsWidth(2) },
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
        onRefresh={refetch}
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
        <EnumSelect filter label="类型" sx={{ width: 140 }} {...params.field('type')} options={PaymentType} />
        <EnumSelect filter label="状态" {...params.field('status')} options={PaymentStatus} />
        <DateRangeFilter params={params} />
      </ListPage>
      {actionDialog}
    </>
  );
}
