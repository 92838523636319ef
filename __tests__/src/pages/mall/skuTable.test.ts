import { moved } from '../../../../src/pages/mall/GalleryField';
import { checkDraft, draftOf, EMPTY_DRAFT, productBody, skusBody } from '../../../../src/pages/mall/productDraft';
import { bulkFill, checkSkus, regenerate, type SkuDraft } from '../../../../src/pages/mall/skuTable';

const dims = [
  { name: '颜色', values: ['红', '蓝'] },
  { name: '尺寸', values: ['S', 'M', 'L'] },
];
const row = (values: string[], price = '', stock = ''): SkuDraft => ({ values, price, stock, image: '' });

describe('the SKU table', () => {
  it('generates every combination, first dimension slowest, keeping what rows held', () => {
    const first = regenerate(dims, []);
    expect(first.map((r) => r.values.join(''))).toEqual(['红S', '红M', '红L', '蓝S', '蓝M', '蓝L']);
    const typed = first.map((r, i) => ({ ...r, price: String(i + 1), stock: '5' }));
    const fewer = regenerate([{ name: '颜色', values: ['蓝'] }, dims[1]], typed);
    expect(fewer.map((r) => `${r.values.join('')}=${r.price}`)).toEqual(['蓝S=4', '蓝M=5', '蓝L=6']);
    // a dimension without a name or values does not multiply the rows
    expect(regenerate([...dims, { name: '', values: [] }], typed)).toEqual(typed);
    expect(regenerate([], typed)).toEqual([row([])]);
  });

  it('fills every row, leaving a blank column alone', () => {
    const rows = regenerate(dims, []);
    const filled = bulkFill(rows, '9.9', '');
    expect(filled.every((r) => r.price === '9.9' && r.stock === '')).toBe(true);
    expect(bulkFill(filled, '', '3').every((r) => r.price === '9.9' && r.stock === '3')).toBe(true);
  });

  it('says the first problem as the server says it', () => {
    const rows = bulkFill(regenerate(dims, []), '10', '1');
    expect(checkSkus(dims, rows, 'USDT')).toBeNull();
    expect(checkSkus([{ name: '', values: ['a'] }], rows, 'USDT')).toBe('规格名不能为空');
    expect(checkSkus([dims[0], { ...dims[1], name: '颜色' }], rows, 'USDT')).toBe('规格名不能重复');
    expect(checkSkus([{ name: '颜色', values: [] }], rows, 'USDT')).toBe('每个规格至少需要一个规格值');
    const bad = rows.map((r, i) => (i === 2 ? { ...r, price: '1.1234567' } : r));
    expect(checkSkus(dims, bad, 'USDT')).toBe('第3行价格小数位数过多（最多6位）');
    expect(
      checkSkus(
        dims,
        rows.map((r, i) => (i === 1 ? { ...r, stock: '' } : r)),
        'USDT',
      ),
    ).toBe('第2行库存不能为空');
  });
});

describe('the product draft', () => {
  it('checks name, cover and seed terms, and builds the two bodies', () => {
    expect(checkDraft(EMPTY_DRAFT)).toBe('商品名称不能为空');
    const d = { ...EMPTY_DRAFT, name: '能量种子', cover: '/uploads/a.webp', kind: '2' };
    expect(checkDraft(d)).toBe('种子商品须填写总能量和释放天数');
    const seed = { ...d, seedEnergy: '100.5', seedDays: '30', rows: [row([], '50', '10')] };
    expect(checkDraft(seed)).toBeNull();
    expect(productBody(seed, undefined)).toEqual({
      name: '能量种子',
      kind: 2,
      asset: 'USDT',
      cover: '/uploads/a.webp',
      gallery: [],
      detail: '',
      seedEnergy: '100.5',
      seedDays: 30,
      sort: 0,
    });
    expect(skusBody(seed, 7)).toEqual({
      productId: 7,
      specs: [],
      skus: [{ values: [], price: '50', stock: 10, image: '' }],
    });
  });

  it('keeps the loaded stock of each SKU so the server changes it by the difference', () => {
    const d = draftOf({
      id: 3,
      name: '保温杯',
      kind: 1,
      asset: 'LZ',
      cover: '/c.webp',
      price: '9',
      stock: 4,
      sales: 0,
      skuCount: 1,
      seedEnergy: '0',
      seedDays: 0,
      sort: 0,
      status: 0,
      createdAt: 0,
      updatedAt: 0,
      updatedBy: 'admin',
      gallery: [],
      detail: '<p>x</p>',
      specs: [{ name: '颜色', values: ['黑'] }],
      skus: [{ id: 9, values: ['黑'], spec: '颜色:黑', price: '9', stock: 4, sales: 0, image: '' }],
      openOrders: 0,
      orders: 0,
    });
    expect(skusBody({ ...d, rows: [{ ...d.rows[0], stock: '10' }] }, 3).skus).toEqual([
      { values: ['黑'], price: '9', stock: 10, baseStock: 4, image: '' },
    ]);
  });

  it('moves a gallery image', () => {
    expect(moved(['a', 'b', 'c'], 2, 0)).toEqual(['c', 'a', 'b']);
    expect(moved(['a', 'b'], 0, -1)).toEqual(['a', 'b']);
  });
});
