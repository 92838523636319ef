import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import ProductListPage from '../../../../src/pages/mall/ProductListPage';
import type { ListProductsApiResponse, ProductInfoApiResponse } from '../../../../src/services/generated/product';
import { envelope, mockFetch } from '../../mockFetch';
import { makeStore, renderAt } from '../../shellHarness';

jest.setTimeout(60_000);
configure({ asyncUtilTimeout: 8000 });

type Product = ListProductsApiResponse['list'][number];
const PATH = '/layout/mallLayout/productLayout';
const T0 = Date.UTC(2026, 10, 20, 2, 30, 0);

function product(id: number, status: 0 | 1, over: Partial<Product> = {}): Product {
  return {
    id,
    name: `商品${id}`,
    kind: 1,
    asset: 'USDT',
    cover: `/uploads/p/${id}.webp`,
    price: '12.5',
    stock: 10,
    sales: 3,
    skuCount: 2,
    seedEnergy: '0',
    seedDays: 0,
    sort: 0,
    status,
    createdAt: T0,
    updatedAt: T0,
    updatedBy: 'admin',
    ...over,
  };
}

const INFO: ProductInfoApiResponse = {
  ...product(1, 0),
  gallery: ['/uploads/p/g1.webp', '/uploads/p/g2.webp'],
  detail: '<p>304不锈钢</p>',
  specs: [{ name: '颜色', values: ['红', '蓝'] }],
  skus: [
    { id: 11, values: ['红'], spec: '颜色:红', price: '12.5', stock: 6, sales: 1, image: '' },
    { id: 12, values: ['蓝'], spec: '颜色:蓝', price: '13', stock: 4, sales: 2, image: '' },
  ],
  openOrders: 0,
  orders: 3,
};

function setup(opts: { codes?: string[] } = {}, path = PATH) {
  const calls: Array<{ path: string; query: Record<string, string>; body: any }> = [];
  const rows = [product(1, 0), product(2, 1, { kind: 2, asset: 'LZ', seedEnergy: '100', seedDays: 30 }), product(3, 0)];
  mockFetch(async (request) => {
    const url = new URL(request.url);
    const p = url.pathname.replace('/v1/admin/', '');
    const query = Object.fromEntries(url.searchParams.entries());
    const body = request.method === 'POST' ? await request.json() : null;
    calls.push({ path: p, query, body });
    if (p === 'user/permissions')
      return envelope({ codes: opts.codes ?? ['product:view', 'product:edit', 'product:operate'], tree: [] });
    if (p === 'product/list')
      return envelope({ list: rows, total: rows.length, page: 1, size: 20, next: null, prev: null });
    if (p === 'product/info') return envelope(INFO);
    if (p === 'product') return envelope({ id: body.id ?? 9 });
    if (p === 'product/sku') return envelope(null);
    if (p === 'product/operate')
      return envelope({
        succeeded: body.ids.filter((id: number) => id !== 3),
        failed: body.ids.includes(3) ? [{ id: 3, msg: '没有有库存的规格，不能上架' }] : [],
      });
    return envelope(null, 404, '接口不存在');
  });
  const view = renderAt(<ProductListPage />, path, makeStore());
  return { ...view, calls, of: (p: string) => calls.filter((c) => c.path === p) };
}

const rowOf = (id: number) => document.querySelector(`tr[data-id="${id}"]`) as HTMLElement;
const toasts = (store: ReturnType<typeof makeStore>) => store.getState().toast.items.map((t) => t.msg);
const buttons = (id: number) =>
  within(rowOf(id))
    .queryAllByRole('button')
    .map((b) => b.textContent);

describe('ProductListPage', () => {
  it('lists products with cover, kind, derived price/stock/sales and status; actions by status and permission', async () => {
    setup();
    await waitFor(() => expect(rowOf(3)).toBeTruthy());
    for (const h of ['封面', '商品名称', '类型', '币种', '价格', '库存', '销量', '状态', '排序', '操作'])
      expect(screen.getByRole('columnheader', { name: h })).toBeInTheDocument();
    expect(within(rowOf(1)).getByRole('img', { name: '商品1' })).toHaveAttribute('src', '/uploads/p/1_thumb.webp');
    expect(within(rowOf(2)).getByText('种子：100 能量 / 30 天')).toBeInTheDocument();
    expect(within(rowOf(1)).getByText('2 个规格')).toBeInTheDocument();
    await waitFor(() => expect(buttons(1)).toEqual(['编辑', '上架', '删除']));
    expect(buttons(2)).toEqual(['编辑', '下架']);
    expect(within(rowOf(1)).getByRole('link', { name: '订单' })).toHaveAttribute(
      'href',
      '/layout/mallLayout/orderLayout?productId=1',
    );
  });

  it('shows neither editing nor shelf actions without the permissions', async () => {
    setup({ codes: ['product:view'] });
    await waitFor(() => expect(rowOf(1)).toBeTruthy());
    await waitFor(() => expect(within(rowOf(1)).getByRole('link', { name: '订单' })).toBeInTheDocument());
    expect(buttons(1)).toEqual([]);
    expect(screen.queryByRole('button', { name: '新增商品' })).toBeNull();
  });

  it('puts a selection on shelf and shows what was refused, per product', async () => {
    const { of } = setup();
    await waitFor(() => expect(rowOf(3)).toBeTruthy());
    fireEvent.click(within(rowOf(1)).getByRole('checkbox'));
    fireEvent.click(within(rowOf(3)).getByRole('checkbox'));
    fireEvent.click(screen.getByRole('button', { name: '批量上架（2）' }));
    expect(within(screen.getByRole('dialog')).getByText('确认上架选中的 2 个商品？')).toBeInTheDocument();
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: '确定' }));
    await waitFor(() => expect(of('product/operate')).toHaveLength(1));
    expect(of('product/operate')[0].body).toEqual({ ids: [1, 3], action: 'onShelf' });
    const result = await screen.findByRole('dialog', { name: '批量上架结果' });
    expect(within(result).getByText('成功 1 条，失败 1 条')).toBeInTheDocument();
    expect(within(result).getByText(/没有有库存的规格，不能上架/)).toBeInTheDocument();
  });

  it('edits a product: loads it, keeps kind and asset fixed once it has orders, sends the stock with the stock it loaded', async () => {
    const u = userEvent.setup();
    const { of, store } = setup();
    await waitFor(() => expect(rowOf(1)).toBeTruthy());
    fireEvent.click(await within(rowOf(1)).findByRole('button', { name: '编辑' }));
    const dialog = await screen.findByRole('dialog', { name: '编辑商品 #1' });
    await waitFor(() => expect(within(dialog).getByRole('textbox', { name: '商品名称' })).toHaveValue('商品1'));
    expect(within(dialog).getByText('已有订单，商品类型和支付币种不能修改')).toBeInTheDocument();
    expect(within(dialog).getByRole('list', { name: '商品图片' }).children).toHaveLength(2);
    // the rich-text editor (loaded on demand) starts from the stored detail
    expect(await within(dialog).findByText('304不锈钢')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: '加粗' })).toBeInTheDocument();
    fireEvent.click(within(dialog).getByRole('button', { name: '图片2前移' }));
    const stock = within(dialog).getByRole('textbox', { name: '第1行库存' });
    // What is typed stays as typed: "1.5" is refused at once, never read as 15.
    await u.clear(stock);
    await u.type(stock, '1.5');
    expect(stock).toHaveValue('1.5');
    expect(stock).toHaveAttribute('aria-invalid', 'true');
    expect(within(dialog).getByText(/^库存为0-\d+的整数$/)).toBeInTheDocument();
    // A comma is not dropped into another number: "1，5" is refused, not read as 15.
    await u.clear(stock);
    await u.type(stock, '1，5');
    expect(stock).toHaveValue('1，5');
    expect(stock).toHaveAttribute('aria-invalid', 'true');
    // Digits from a Chinese IME's full-width mode become ASCII, as in an amount.
    await u.clear(stock);
    await u.type(stock, '１６');
    expect(stock).toHaveValue('16');
    expect(stock).toHaveAttribute('aria-invalid', 'false');
    fireEvent.click(within(dialog).getByRole('button', { name: '保存' }));
    await waitFor(() => expect(of('product/sku')).toHaveLength(1));
    expect(of('product')[0].body).toMatchObject({
      id: 1,
      name: '商品1',
      gallery: ['/uploads/p/g2.webp', '/uploads/p/g1.webp'],
    });
    expect(of('product/sku')[0].body).toEqual({
      productId: 1,
      specs: [{ name: '颜色', values: ['红', '蓝'] }],
      skus: [
        { values: ['红'], price: '12.5', stock: 16, baseStock: 6, image: '' },
        { values: ['蓝'], price: '13', stock: 4, baseStock: 4, image: '' },
      ],
    });
    await waitFor(() => expect(toasts(store)).toContain('保存成功'));
  });

  it('creates a product: the dimensions make the rows, bulk fill, and nothing is sent while something is wrong', async () => {
    const u = userEvent.setup();
    const { of } = setup();
    fireEvent.click(await screen.findByRole('button', { name: '新增商品' }));
    const dialog = await screen.findByRole('dialog', { name: '新增商品' });
    fireEvent.click(within(dialog).getByRole('button', { name: '保存' }));
    expect(await within(dialog).findByText('商品名称不能为空')).toBeInTheDocument();
    await u.type(within(dialog).getByRole('textbox', { name: '商品名称' }), '运动T恤');
    fireEvent.click(within(dialog).getByRole('button', { name: '添加规格' }));
    const dim = within(dialog).getByRole('group', { name: '规格1' });
    await u.type(within(dim).getByRole('textbox', { name: '规格名' }), '尺寸');
    for (const v of ['S', 'M', 'L'])
      await u.type(within(dim).getByRole('textbox', { name: '新规格值' }), `${v}{enter}`);
    const table = within(dialog).getByRole('table', { name: '规格明细' });
    expect(within(table).getAllByRole('row')).toHaveLength(4);
    const fill = within(dialog).getByRole('group', { name: '批量填充' });
    await u.type(within(fill).getByRole('textbox', { name: '价格' }), '59');
    await u.type(within(fill).getByRole('textbox', { name: '库存' }), '100');
    fireEvent.click(within(fill).getByRole('button', { name: '批量填充' }));
    expect(within(dialog).getByRole('textbox', { name: '第3行价格' })).toHaveValue('59');
    fireEvent.click(within(dialog).getByRole('button', { name: '保存' }));
    expect(await within(dialog).findByText('请上传商品封面')).toBeInTheDocument();
    expect(of('product')).toHaveLength(0);
  });
});
