import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import MatchListPage from '../../../../src/pages/matches/MatchListPage';
import type { ListMatchesApiResponse } from '../../../../src/services/generated/match';
import { envelope, mockFetch } from '../../mockFetch';
import { makeStore, renderAt } from '../../shellHarness';

jest.setTimeout(60_000);
configure({ asyncUtilTimeout: 8000 });

type Match = ListMatchesApiResponse['list'][number];
interface Call {
  path: string;
  query: Record<string, string>;
  body: any;
}

const PATH = '/layout/matchLayout';
const T0 = Date.UTC(2026, 10, 20, 2, 30, 0);
const PROOF = '/uploads/demo/match-proof-1.png';

function match(id: number, status: 1 | 2 | 3 | 4 | 5, over: Partial<Match> = {}): Match {
  return {
    id,
    sellerId: 100 + id,
    sellerUid: String(10000000 + id),
    sellerPhone: '13800000001',
    sellerNickname: `卖家${id}`,
    buyerId: 200 + id,
    buyerUid: String(20000000 + id),
    buyerPhone: '13900000001',
    buyerNickname: `买家${id}`,
    quantity: '100',
    unitPrice: '0.5',
    total: '50',
    payment: { type: 2, name: '王芳', account: '13812345678', bank: '', qrUrl: '/uploads/demo/qr.png' },
    proofUrl: status === 1 ? '' : PROOF,
    status,
    appealReason: status === 5 ? '卖家迟迟不确认收款' : '',
    appealBy: status === 5 ? 2 : 0,
    remark: '',
    expiresAt: T0 + 30 * 60_000,
    paidAt: status === 1 ? null : T0 + 60_000,
    finishedAt: null,
    arbiterName: null,
    createdAt: T0,
    updatedAt: T0,
    ...over,
  };
}

function setup(opts: { codes?: string[]; conflict?: boolean } = {}, path = PATH) {
  const calls: Call[] = [];
  const rows = [match(1, 1), match(2, 2), match(3, 3), match(4, 4), match(5, 5)];
  mockFetch(async (request) => {
    const url = new URL(request.url);
    const p = url.pathname.replace('/v1/admin/', '');
    const query = Object.fromEntries(url.searchParams.entries());
    const body = request.method === 'POST' ? await request.json() : null;
    calls.push({ path: p, query, body });
    if (p === 'user/permissions') return envelope({ codes: opts.codes ?? ['match:view', 'match:opt'], tree: [] });
    if (p === 'match/list') {
      const list = query.status ? rows.filter((r) => r.status === Number(query.status)) : rows;
      return envelope({
        list,
        total: list.length,
        page: 1,
        size: 20,
        next: null,
        prev: null,
        sum: { quantity: String(list.length * 100), total: String(list.length * 50), count: list.length },
      });
    }
    if (p === 'match/opt') {
      if (opts.conflict) return envelope(null, 409, '该撮合已处理');
      const m = rows.find((r) => r.id === body.id)!;
      m.status = body.action === 'complete' ? 3 : 4;
      m.remark = body.remark ?? '';
      m.arbiterName = 'admin';
      return envelope({ id: m.id, status: m.status });
    }
    return envelope(null, 404, '接口不存在');
  });
  const view = renderAt(<MatchListPage />, path, makeStore());
  return { ...view, calls, of: (p: string) => calls.filter((c) => c.path === p) };
}

const rowOf = (id: number) => document.querySelector(`tr[data-id="${id}"]`) as HTMLElement;
const dialog = () => screen.getByRole('dialog');
const toasts = (store: ReturnType<typeof makeStore>) => store.getState().toast.items.map((t) => t.msg);
const buttons = (id: number) =>
  within(rowOf(id))
    .queryAllByRole('button')
    .map((b) => b.textContent);

describe('MatchListPage', () => {
  it('lists matches with both members, amounts, status chips and the totals line', async () => {
    setup();
    await waitFor(() => expect(rowOf(5)).toBeTruthy());
    for (const h of ['ID', '卖家', '买家', '数量（LZ）', '单价（USDT）', '总额（USDT）', '状态', '创建时间', '操作']) {
      expect(screen.getByRole('columnheader', { name: h })).toBeInTheDocument();
    }
    expect(within(rowOf(1)).getByText('10000001')).toBeInTheDocument();
    expect(within(rowOf(1)).getByText('买家1')).toBeInTheDocument();
    expect(within(rowOf(1)).getByText('100.0000')).toBeInTheDocument();
    expect(within(rowOf(1)).getByText('待付款')).toBeInTheDocument();
    expect(within(rowOf(2)).getByText('待确认收款')).toBeInTheDocument();
    expect(within(rowOf(5)).getByText('申诉中')).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('合计数量：500.0000 LZ，合计总额：250.00 USDT，共 5 条');
  });

  it('offers 完成 and 取消 only in the states that allow them, and only with match:opt', async () => {
    setup();
    await waitFor(() => expect(within(rowOf(2)).getByRole('button', { name: '完成' })).toBeInTheDocument());
    expect(buttons(1)).toEqual(['详情', '取消']);
    expect(buttons(2)).toEqual(['详情', '完成', '取消']);
    expect(buttons(3)).toEqual(['详情']);
    expect(buttons(4)).toEqual(['详情']);
    expect(buttons(5)).toEqual(['详情', '完成', '取消']);
  });

  it('shows no arbitration without match:opt', async () => {
    setup({ codes: ['match:view'] });
    await waitFor(() => expect(rowOf(5)).toBeTruthy());
    await waitFor(() => expect(buttons(5)).toEqual(['详情']));
  });

  it('keeps the filters in the URL and sends them', async () => {
    const { of } = setup({}, `${PATH}?seller=10000002&buyer=13900000001&status=5`);
    await waitFor(() => expect(rowOf(5)).toBeTruthy());
    expect(of('match/list')[0].query).toMatchObject({ seller: '10000002', buyer: '13900000001', status: '5' });
    expect(screen.getByRole('textbox', { name: '卖家' })).toHaveValue('10000002');
    expect(rowOf(1)).toBeNull();
  });

  it('cancels only with a remark, then toasts and refreshes', async () => {
    const u = userEvent.setup();
    const { of, store } = setup();
    await waitFor(() => expect(rowOf(1)).toBeTruthy());
    fireEvent.click(await within(rowOf(1)).findByRole('button', { name: '取消' }));
    expect(within(dialog()).getByText(/确认取消该撮合 #1（100 LZ，卖家 10000001，买家 20000001）/)).toBeInTheDocument();
    fireEvent.click(within(dialog()).getByRole('button', { name: '确定' }));
    expect(await within(dialog()).findByText('请输入取消原因')).toBeInTheDocument();
    expect(of('match/opt')).toHaveLength(0);
    await u.type(within(dialog()).getByRole('textbox', { name: '备注' }), '买家放弃交易');
    fireEvent.click(within(dialog()).getByRole('button', { name: '确定' }));
    await waitFor(() => expect(of('match/opt')).toHaveLength(1));
    expect(of('match/opt')[0].body).toEqual({ id: 1, action: 'cancel', remark: '买家放弃交易' });
    await waitFor(() => expect(toasts(store)).toContain('撮合已取消'));
    await waitFor(() => expect(within(rowOf(1)).getByText('已取消')).toBeInTheDocument());
  });

  it('completes without a remark; a race lost is one error toast', async () => {
    const { of, store } = setup({ conflict: true });
    await waitFor(() => expect(rowOf(5)).toBeTruthy());
    fireEvent.click(await within(rowOf(5)).findByRole('button', { name: '完成' }));
    expect(within(dialog()).getByText(/确认完成该撮合 #5/)).toBeInTheDocument();
    fireEvent.click(within(dialog()).getByRole('button', { name: '确定' }));
    await waitFor(() => expect(of('match/opt')).toHaveLength(1));
    expect(of('match/opt')[0].body).toEqual({ id: 5, action: 'complete' });
    await waitFor(() => expect(toasts(store)).toEqual(['该撮合已处理']));
  });

  it('shows the details: payment snapshot, appeal, and the proof image enlarged on click', async () => {
    setup();
    await waitFor(() => expect(rowOf(5)).toBeTruthy());
    fireEvent.click(within(rowOf(5)).getByRole('button', { name: '详情' }));
    const drawer = await screen.findByRole('region', { name: '撮合详情' });
    const pay = within(drawer).getByRole('region', { name: '卖家收款方式' });
    expect(within(pay).getByText('支付宝')).toBeInTheDocument();
    expect(within(pay).getByText('王芳')).toBeInTheDocument();
    expect(within(pay).getByText('13812345678')).toBeInTheDocument();
    const appeal = within(drawer).getByRole('region', { name: '申诉' });
    expect(within(appeal).getByText('买家')).toBeInTheDocument();
    expect(within(appeal).getByText('卖家迟迟不确认收款')).toBeInTheDocument();
    expect(
      within(within(drawer).getByRole('group', { name: '撮合操作' }))
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['完成', '取消']);
    fireEvent.click(within(drawer).getByRole('button', { name: '查看付款凭证大图' }));
    const big = await screen.findByRole('dialog', { name: '付款凭证' });
    expect(within(big).getByRole('img', { name: '付款凭证大图' })).toHaveAttribute('src', PROOF);
  });
});
