import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import PaymentListPage, { actionsFor } from '../../../../src/pages/payments/PaymentListPage';
import { envelope } from '../../mockFetch';
import { makeStore, renderAt } from '../../shellHarness';
import { fakeLedgerApi, T0 } from './fakeLedgerApi';

jest.setTimeout(60_000);
configure({ asyncUtilTimeout: 8000 });

const PATH = '/layout/memberLayout/paymentListLayout';
const row = (over: Record<string, unknown>) => ({
  id: 1,
  memberId: 7,
  uid: '10000007',
  phone: '13800000007',
  nickname: '张三',
  type: 1,
  holder: '张三',
  account: '6222021234567890',
  bank: '工商银行',
  branch: '北京分行',
  qrUrl: '',
  status: 0,
  remark: '',
  auditorName: null,
  auditedAt: null,
  createdAt: T0,
  ...over,
});
const ROWS = [
  row({}),
  row({ id: 2, type: 4, account: 'TXYZ', bank: '', branch: '', status: 1 }),
  row({ id: 3, type: 2, account: 'a@b.c', status: 3, qrUrl: '/q.png' }),
];
const ALL = ['payment:view', 'payment:opt', 'payment:export'];

function setup(codes = ALL, path = PATH) {
  const api = fakeLedgerApi({
    codes,
    answer: (c) => {
      if (c.path === 'payment/list') return envelope({ list: ROWS, total: 3, page: 1, size: 20 });
      if (c.path === 'payment/opt') return envelope({ id: c.body.id, status: 1 });
      if (c.path === 'payment/export')
        return new Response('\ufeffID\r\n', {
          headers: {
            'content-type': 'text/csv; charset=utf-8',
            'content-disposition': `attachment; filename="export_20261120.csv"; filename*=UTF-8''${encodeURIComponent('收款方式_20261120.csv')}`,
          },
        });
      return undefined;
    },
  });
  return { ...api, ...renderAt(<PaymentListPage />, path, makeStore()) };
}
const rowOf = (id: number) => screen.getByRole('cell', { name: String(id) }).closest('tr') as HTMLElement;

describe('PaymentListPage', () => {
  it('offers the actions of each state', () => {
    expect(actionsFor(0)).toEqual(['approve', 'reject']);
    expect(actionsFor(1)).toEqual(['disable']);
    expect(actionsFor(2)).toEqual([]);
    expect(actionsFor(3)).toEqual(['enable']);
  });

  it('lists methods with type and status labels, and sends the URL filters', async () => {
    const { of } = setup(ALL, `${PATH}?status=0&type=1&keyword=1380`);
    expect(await screen.findByRole('cell', { name: '6222021234567890（工商银行 北京分行）' })).toBeInTheDocument();
    expect(of('payment/list')[0].query).toMatchObject({ status: '0', type: '1', keyword: '1380', page: '1' });
    expect(within(rowOf(1)).getByText('待审核')).toBeInTheDocument();
    expect(within(rowOf(2)).getByText('USDT-TRC20')).toBeInTheDocument();
    expect(within(rowOf(3)).getByText('已禁用')).toBeInTheDocument();
    expect(within(rowOf(1)).getByRole('button', { name: '通过' })).toBeInTheDocument();
    expect(within(rowOf(2)).getByRole('button', { name: '禁用' })).toBeInTheDocument();
    expect(within(rowOf(3)).getByRole('button', { name: '启用' })).toBeInTheDocument();
  });

  it('asks for a reason before rejecting, then refreshes the list', async () => {
    const u = userEvent.setup();
    const { of, store } = setup();
    await screen.findByRole('cell', { name: '6222021234567890（工商银行 北京分行）' });
    await u.click(within(rowOf(1)).getByRole('button', { name: '驳回' }));
    const dialog = await screen.findByRole('dialog');
    await u.click(within(dialog).getByRole('button', { name: '确定' }));
    expect(of('payment/opt')).toHaveLength(0);
    await u.type(within(dialog).getByRole('textbox'), '姓名不符');
    await u.click(within(dialog).getByRole('button', { name: '确定' }));
    await waitFor(() => expect(of('payment/opt')).toHaveLength(1));
    expect(of('payment/opt')[0].body).toEqual({ id: 1, action: 'reject', remark: '姓名不符' });
    await waitFor(() => expect(of('payment/list')).toHaveLength(2));
    expect(store.getState().toast.items.map((t) => t.msg)).toContain('驳回成功');
  });

  it('confirms approval and sends no remark', async () => {
    const u = userEvent.setup();
    const { of } = setup();
    await screen.findByRole('cell', { name: '6222021234567890（工商银行 北京分行）' });
    await u.click(within(rowOf(1)).getByRole('button', { name: '通过' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('确认通过会员 10000007 的银行卡收款方式（6222021234567890）？');
    await u.click(within(dialog).getByRole('button', { name: '确定' }));
    await waitFor(() => expect(of('payment/opt')).toHaveLength(1));
    expect(of('payment/opt')[0].body).toEqual({ id: 1, action: 'approve' });
  });

  it('exports the current filters as CSV without paging', async () => {
    const u = userEvent.setup();
    URL.createObjectURL = jest.fn(() => 'blob:x');
    URL.revokeObjectURL = jest.fn();
    const { of, store } = setup(ALL, `${PATH}?status=1&page=2`);
    await screen.findByRole('cell', { name: '6222021234567890（工商银行 北京分行）' });
    await u.click(screen.getByRole('button', { name: '导出' }));
    await u.click(await screen.findByRole('menuitem', { name: '导出 CSV' }));
    await waitFor(() => expect(of('payment/export')).toHaveLength(1));
    expect(of('payment/export')[0].query).toEqual({ status: '1', format: 'csv' });
    await waitFor(() => expect(store.getState().toast.items.map((t) => t.msg)).toContain('导出成功'));
  });

  it('hides actions and export without their codes', async () => {
    setup(['payment:view']);
    await screen.findByRole('cell', { name: '6222021234567890（工商银行 北京分行）' });
    await waitFor(() => expect(screen.queryByRole('button', { name: '通过' })).not.toBeInTheDocument());
    expect(screen.queryByRole('button', { name: '导出' })).not.toBeInTheDocument();
  });
});
