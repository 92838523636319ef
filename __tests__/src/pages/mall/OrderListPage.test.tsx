import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import OrderListPage from '../../../../src/pages/mall/OrderListPage';
import type { ListOrdersApiResponse } from '../../../../src/services/generated/order';
import { envelope, mockFetch } from '../../mockFetch';
import { makeStore, renderAt } from '../../shellHarness';

jest.setTimeout(60_000);
configure({ asyncUtilTimeout: 8000 });

type Order = ListOrdersApiResponse['list'][number];
const PATH = '/layout/mallLayout/orderLayout';
const T0 = Date.UTC(2026, 10, 20, 2, 30, 0);

function order(id: number, status: 1 | 2 | 3 | 4, over: Partial<Order> = {}): Order {
  return {
    id,
    orderNo: `20261120${String(id).padStart(10, '0')}`,
    memberId: 100 + id,
    uid: String(10000000 + id),
    phone: '13800000001',
    nickname: `会员${id}`,
    productId: 7,
    skuId: 70,
    kind: 1,
    asset: 'USDT',
    productName: '保温杯',
    spec: '颜色:红',
    image: '/uploads/p/cup.webp',
    unitPrice: '12.5',
    quantity: 2,
    total: '25',
    receiverName: '张伟',
    receiverPhone: '13800138000',
    receiverAddress: '上海市浦东新区世纪大道100号',
    status,
    expressCompany: status >= 2 && status !== 4 ? '顺丰速运' : '',
    trackingNo: status >= 2 && status !== 4 ? 'SF1234567890' : '',
    remark: '',
    seedId: null,
    operatorName: null,
    createdAt: T0,
    shippedAt: status >= 2 && status !== 4 ? T0 + 3600_000 : null,
    finishedAt: null,
    updatedAt: T0,
    ...over,
  };
}

function setup(opts: { codes?: string[]; conflict?: boolean } = {}, path = PATH) {
  const calls: Array<{ path: string; query: Record<string, string>; body: any }> = [];
  const rows = [order(1, 1), order(2, 2), order(3, 3), order(4, 4)];
  mockFetch(async (request) => {
    const url = new URL(request.url);
    const p = url.pathname.replace('/v1/admin/', '');
    const query = Object.fromEntries(url.searchParams.entries());
    const body = request.method === 'POST' ? await request.json() : null;
    calls.push({ path: p, query, body });
    if (p === 'user/permissions')
      return envelope({ codes: opts.codes ?? ['order:view', 'order:opt', 'order:export'], tree: [] });
    if (p === 'order/list') {
      const list = query.status ? rows.filter((r) => r.status === Number(query.status)) : rows;
      return envelope({
        list,
        total: list.length,
        page: 1,
        size: 20,
        next: null,
        prev: null,
        sum: { count: list.length, totals: [{ asset: 'USDT', total: String(list.length * 25) }] },
      });
    }
    if (p === 'order/opt') {
      if (opts.conflict) return envelope(null, 409, '该订单已处理');
      const o = rows.find((r) => r.id === body.id)!;
      o.status = ({ ship: 2, complete: 3, cancel: 4 } as const)[body.action as 'ship'];
      if (body.action === 'ship')
        Object.assign(o, { expressCompany: body.expressCompany, trackingNo: body.trackingNo });
      return envelope({ id: o.id, status: o.status });
    }
    return envelope(null, 404, '接口不存在');
  });
  const view = renderAt(<OrderListPage />, path, makeStore());
  return { ...view, calls, of: (p: string) => calls.filter((c) => c.path === p) };
}

const rowOf = (id: number) => document.querySelector(`tr[data-id="${id}"]`) as HTMLElement;
const toasts = (store: ReturnType<typeof makeStore>) => store.getState().toast.items.map((t) => t.msg);
const buttons = (id: number) =>
  within(rowOf(id))
    .queryAllByRole('button')
    .map((b) => b.textContent);

describe('OrderListPage', () => {
  it('lists orders with number, member, product snapshot, amount, receiver, status and the totals line', async () => {
    setup();
    await waitFor(() => expect(rowOf(4)).toBeTruthy());
    for (const h of ['订单号', '会员', '商品', '实付金额', '收货人', '状态', '快递单号', '下单时间', '操作']) {
      expect(screen.getByRole('columnheader', { name: h })).toBeInTheDocument();
    }
    expect(within(rowOf(1)).getByText('202611200000000001')).toBeInTheDocument();
    expect(within(rowOf(1)).getByText('颜色:红 × 2')).toBeInTheDocument();
    expect(within(rowOf(1)).getByText('待发货')).toBeInTheDocument();
    expect(within(rowOf(2)).getByText('SF1234567890')).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('合计金额：100.00 USDT，共 4 条');
  });

  it('offers 发货 / 完成 / 取消 only in the states that allow them, and only with order:opt', async () => {
    setup();
    await waitFor(() => expect(within(rowOf(1)).getByRole('button', { name: '发货' })).toBeInTheDocument());
    expect(buttons(1)).toEqual(['详情', '发货', '取消']);
    expect(buttons(2)).toEqual(['详情', '完成']);
    expect(buttons(3)).toEqual(['详情']);
    expect(buttons(4)).toEqual(['详情']);
  });

  it('shows no actions and no export without the permissions', async () => {
    setup({ codes: ['order:view'] });
    await waitFor(() => expect(rowOf(1)).toBeTruthy());
    await waitFor(() => expect(buttons(1)).toEqual(['详情']));
    expect(screen.queryByRole('button', { name: /导出/ })).toBeNull();
  });

  it('keeps the filters in the URL and sends them (the product link of 商品管理)', async () => {
    const { of } = setup({}, `${PATH}?productId=7&status=1&orderNo=202611200000000001`);
    await waitFor(() => expect(rowOf(1)).toBeTruthy());
    expect(of('order/list')[0].query).toMatchObject({ productId: '7', status: '1', orderNo: '202611200000000001' });
    expect(screen.getByRole('textbox', { name: '商品ID' })).toHaveValue('7');
  });

  it('ships with an express company and a checked tracking number', async () => {
    const u = userEvent.setup();
    const { of, store } = setup();
    await waitFor(() => expect(rowOf(1)).toBeTruthy());
    fireEvent.click(await within(rowOf(1)).findByRole('button', { name: '发货' }));
    const dialog = await screen.findByRole('dialog', { name: /订单发货/ });
    fireEvent.click(within(dialog).getByRole('button', { name: '确定' }));
    expect(await within(dialog).findByText('快递公司不能为空')).toBeInTheDocument();
    fireEvent.mouseDown(within(dialog).getByRole('combobox', { name: /快递公司/ }));
    fireEvent.click(await screen.findByRole('option', { name: '中通快递' }));
    await u.type(within(dialog).getByRole('textbox', { name: /快递单号/ }), 'ZT-1');
    fireEvent.click(within(dialog).getByRole('button', { name: '确定' }));
    expect(await within(dialog).findByText('快递单号为6-30位字母或数字')).toBeInTheDocument();
    await u.clear(within(dialog).getByRole('textbox', { name: /快递单号/ }));
    await u.type(within(dialog).getByRole('textbox', { name: /快递单号/ }), 'ZT20261125001');
    fireEvent.click(within(dialog).getByRole('button', { name: '确定' }));
    await waitFor(() => expect(of('order/opt')).toHaveLength(1));
    expect(of('order/opt')[0].body).toEqual({
      id: 1,
      action: 'ship',
      expressCompany: '中通快递',
      trackingNo: 'ZT20261125001',
    });
    await waitFor(() => expect(toasts(store)).toContain('发货成功'));
    await waitFor(() => expect(within(rowOf(1)).getByText('ZT20261125001')).toBeInTheDocument());
  });

  it('cancels only with a reason, saying the money and stock go back', async () => {
    const u = userEvent.setup();
    const { of, store } = setup();
    await waitFor(() => expect(rowOf(1)).toBeTruthy());
    fireEvent.click(await within(rowOf(1)).findByRole('button', { name: '取消' }));
    const dialog = screen.getByRole('dialog');
    expect(within(dialog).getByText(/取消后货款原路退回会员余额，库存退回/)).toBeInTheDocument();
    await u.type(within(dialog).getByRole('textbox', { name: '备注' }), '缺货');
    fireEvent.click(within(dialog).getByRole('button', { name: '确定' }));
    await waitFor(() => expect(of('order/opt')).toHaveLength(1));
    expect(of('order/opt')[0].body).toEqual({ id: 1, action: 'cancel', remark: '缺货' });
    await waitFor(() => expect(toasts(store)).toContain('订单已取消，货款已退回'));
  });

  it('a race lost is one error toast', async () => {
    const { of, store } = setup({ conflict: true });
    await waitFor(() => expect(rowOf(2)).toBeTruthy());
    fireEvent.click(await within(rowOf(2)).findByRole('button', { name: '完成' }));
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: '确定' }));
    await waitFor(() => expect(of('order/opt')).toHaveLength(1));
    await waitFor(() => expect(toasts(store)).toEqual(['该订单已处理']));
  });

  it('shows the details: snapshot, receiver, delivery', async () => {
    setup();
    await waitFor(() => expect(rowOf(2)).toBeTruthy());
    fireEvent.click(within(rowOf(2)).getByRole('button', { name: '详情' }));
    const drawer = await screen.findByRole('region', { name: '订单详情' });
    expect(
      within(within(drawer).getByRole('region', { name: '收货信息' })).getByText('上海市浦东新区世纪大道100号'),
    ).toBeInTheDocument();
    expect(within(within(drawer).getByRole('region', { name: '物流' })).getByText('SF1234567890')).toBeInTheDocument();
    expect(
      within(within(drawer).getByRole('group', { name: '订单操作' }))
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['完成']);
  });
});
