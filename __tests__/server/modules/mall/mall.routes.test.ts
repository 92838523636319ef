import { sql } from 'kysely';
import { orderNo } from '../../../../domain/mallRules';
import { balancesOf, billStatViolations, ledgerViolations } from '../../../../server/modules/ledger/ledger.service';
import { mallStatViolations } from '../../../../server/modules/mall/orders.repository';
import { buyProduct, completeShippedOrders, orderExport } from '../../../../server/modules/mall/orders.service';
import { putSetting } from '../../../../server/modules/settings/settings.service';
import { endCursor } from '../../../../src/components/table/TablePager';
import { expectCursorPagingMatchesOffset } from '../../paging';
import { csvFromBatches, expectCopyMatchesBatches } from '../../exportCompare';
import { build, dbKind, type TestApp } from '../../helpers';
import { addMember, billsOf, credit } from '../deposits/fixtures';
import { actingAs, opLogs } from '../system/fixtures';

const DAY = 86_400_000;
const COVER = '/uploads/demo/cover.webp';
const RECEIVER = { name: '张伟', phone: '13800138000', address: '上海市浦东新区世纪大道100号' };

describe(`mall (${dbKind})`, () => {
  let t: TestApp;
  let token: string;
  const call = (method: 'GET' | 'POST', url: string, body?: Record<string, unknown>, tk = token) =>
    method === 'GET' ? t.call('GET', url, { token: tk, query: body }) : t.call('POST', url, { token: tk, body });
  const product = (over: Record<string, unknown> = {}) =>
    call('POST', '/v1/admin/product', {
      name: '保温杯',
      kind: 1,
      asset: 'USDT',
      cover: COVER,
      gallery: [COVER],
      detail: '<p>304不锈钢</p><script>alert(1)</script>',
      sort: 0,
      ...over,
    });
  const info = async (id: number) => (await call('GET', '/v1/admin/product/info', { productId: id })).data;
  const skus = (productId: number, specs: unknown[], rows: unknown[]) =>
    call('POST', '/v1/admin/product/sku', { productId, specs, skus: rows });
  const operate = (ids: number[], action: string, tk = token) =>
    call('POST', '/v1/admin/product/operate', { ids, action }, tk);
  const opt = (body: Record<string, unknown>, tk = token) => call('POST', '/v1/admin/order/opt', body, tk);
  const orders = (query: Record<string, unknown> = {}) => call('GET', '/v1/admin/order/list', query);
  const consistent = async () => {
    expect(await ledgerViolations(t.db.db)).toEqual([]);
    expect(await billStatViolations(t.db.db)).toEqual([]);
    expect(await mallStatViolations(t.db.db)).toEqual([]);
  };
  const skuStock = async (id: number) =>
    Number(
      (await t.db.db.selectFrom('product_sku').select('stock').where('id', '=', id).executeTakeFirstOrThrow()).stock,
    );

  /** A 实物 product on shelf with one SKU of `stock` at 12.5 USDT. */
  async function onShelf(stock = 10, over: Record<string, unknown> = {}) {
    const { data } = await product(over);
    await skus(data.id, [], [{ values: [], price: '12.5', stock, image: '' }]);
    expect((await operate([data.id], 'onShelf')).data).toEqual({ succeeded: [data.id], failed: [] });
    const p = await info(data.id);
    return { id: data.id as number, skuId: p.skus[0].id as number };
  }
  async function buyer(usdt = '1000') {
    const id = await addMember(t);
    await credit(t, id, 'USDT', usdt);
    return id;
  }

  /**
   * `n` orders, `every` ms apart: order i by buyers[i % 2], of products[0] when i % 3 is 0 (else
   * products[1]), to receivers[i % receivers.length]. Their ids, oldest first.
   */
  async function placeOrders(
    n: number,
    buyers: [number, number],
    products: [{ skuId: number }, { skuId: number }],
    o: { every?: number; receivers?: (typeof RECEIVER)[]; quantity?: (i: number) => number } = {},
  ) {
    const receivers = o.receivers ?? [RECEIVER];
    const ids: number[] = [];
    for (let i = 0; i < n; i += 1) {
      t.clock.advance(o.every ?? 1000);
      const r = await buyProduct(t.app.ctx, {
        memberId: buyers[i % 2],
        skuId: products[i % 3 ? 1 : 0].skuId,
        quantity: o.quantity?.(i) ?? 1,
        receiver: receivers[i % receivers.length],
      });
      ids.push(r.id);
    }
    return ids;
  }

  beforeEach(async () => {
    t = await build();
    token = await t.login();
  });
  afterEach(() => t.close());

  describe('products', () => {
    it('creates off shelf with the detail sanitized, and derives price, stock and sales from the SKUs', async () => {
      const made = await product();
      expect(made.code).toBe(200);
      const id = made.data.id;
      let p = await info(id);
      expect(p).toMatchObject({ name: '保温杯', kind: 1, asset: 'USDT', status: 0, price: '0', stock: 0, skuCount: 0 });
      expect(p.detail).toBe('<p>304不锈钢</p>');
      const specs = [
        { name: '颜色', values: ['红', '蓝'] },
        { name: '尺寸', values: ['S', 'M', 'L'] },
      ];
      const rows = [
        ['红', 'S'],
        ['红', 'M'],
        ['红', 'L'],
        ['蓝', 'S'],
        ['蓝', 'M'],
        ['蓝', 'L'],
      ].map((values, i) => ({ values, price: String(20 + i), stock: i, image: '' }));
      expect((await skus(id, specs, rows)).code).toBe(200);
      p = await info(id);
      expect(p.specs).toEqual(specs);
      expect(p.skus.map((s: { spec: string }) => s.spec)).toEqual([
        '颜色:红, 尺寸:S',
        '颜色:红, 尺寸:M',
        '颜色:红, 尺寸:L',
        '颜色:蓝, 尺寸:S',
        '颜色:蓝, 尺寸:M',
        '颜色:蓝, 尺寸:L',
      ]);
      const { data } = await call('GET', '/v1/admin/product/list', { name: '保温' });
      expect(data.total).toBe(1);
      expect(data.list[0]).toMatchObject({ id, price: '20', stock: 15, sales: 0, skuCount: 6 });
      expect((await opLogs(t)).map((l) => l.permission_code)).toEqual(['product:edit', 'product:edit']);
    });

    it('refuses bad input naming the field, and a set that does not match its dimensions', async () => {
      expect((await product({ name: '   ' })).msg).toBe('商品名称不能为空');
      expect((await product({ cover: '' })).msg).toBe('请上传商品封面');
      expect((await product({ kind: 2 })).msg).toBe('种子商品须填写总能量和释放天数');
      expect((await product({ cover: 'javascript:alert(1)' })).code).toBe(400);
      const { data } = await product();
      const specs = [{ name: '颜色', values: ['红', '蓝'] }];
      const one = [{ values: ['红'], price: '1', stock: 1, image: '' }];
      expect((await skus(data.id, specs, one)).msg).toBe('规格明细与规格组合不一致，请重新生成');
      const two = [...one, { values: ['蓝'], price: '1.0000001', stock: 1, image: '' }];
      expect((await skus(data.id, specs, two)).msg).toMatch(/^第2行价格/);
      expect((await skus(data.id, [{ name: '颜色', values: ['红', '红'] }], one)).msg).toBe('同一规格的规格值不能重复');
      expect((await skus(data.id, [{ name: '颜色', values: ['红'] }], [{ ...one[0], stock: -1 }])).code).toBe(400);
    });

    it('keeps sales made while the editor was open (stock by baseStock), and marks a dropped SKU deleted', async () => {
      const p = await onShelf(10);
      await buyProduct(t.app.ctx, { memberId: await buyer(), skuId: p.skuId, quantity: 3, receiver: RECEIVER });
      // the editor loaded 10 and the operator typed 15: +5 on what is left (7) → 12
      await skus(p.id, [], [{ values: [], price: '12.5', stock: 15, baseStock: 10, image: '' }]);
      expect(await skuStock(p.skuId)).toBe(12);
      // a new dimension replaces the row without dimensions: the old row is deleted, kept for its order
      await skus(p.id, [{ name: '颜色', values: ['黑'] }], [{ values: ['黑'], price: '9', stock: 4, image: '' }]);
      const after = await info(p.id);
      expect(after.skus).toHaveLength(1);
      expect(after).toMatchObject({ price: '9', stock: 4, sales: 3 });
      const old = await t.db.db
        .selectFrom('product_sku')
        .selectAll()
        .where('id', '=', p.skuId)
        .executeTakeFirstOrThrow();
      expect({ deleted: old.deleted, stock: Number(old.stock) }).toEqual({ deleted: 1, stock: 0 });
      // the four left are sold while the editor shows 4; taking 4 away from 0 is refused whole
      const black = after.skus[0].id;
      await buyProduct(t.app.ctx, { memberId: await buyer(), skuId: black, quantity: 4, receiver: RECEIVER });
      const r = await skus(
        p.id,
        [{ name: '颜色', values: ['黑'] }],
        [{ values: ['黑'], price: '9', stock: 0, baseStock: 4, image: '' }],
      );
      expect(r).toMatchObject({ code: 409, msg: '库存已变动（有会员下单），请刷新后重试' });
      expect(await skuStock(black)).toBe(0);
    });

    it('a renamed dimension or a revived SKU takes the stock as typed (the difference is only for the same live SKU)', async () => {
      const { data } = await product();
      const two = (name: string, red: number, blue: number, base?: [number, number]) =>
        skus(
          data.id,
          [{ name, values: ['红', '蓝'] }],
          [
            { values: ['红'], price: '1', stock: red, image: '', ...(base ? { baseStock: base[0] } : {}) },
            { values: ['蓝'], price: '1', stock: blue, image: '', ...(base ? { baseStock: base[1] } : {}) },
          ],
        );
      await two('颜色', 50, 70);
      // the editor renames 颜色 → 色彩 and adds 5 to each row it loaded (50, 70)
      expect((await two('色彩', 55, 75, [50, 70])).code).toBe(200);
      expect((await info(data.id)).skus.map((x: { spec: string; stock: number }) => `${x.spec}=${x.stock}`)).toEqual([
        '色彩:红=55',
        '色彩:蓝=75',
      ]);
      // back to 颜色: the deleted rows are revived with the stock typed, not by a difference
      expect((await two('颜色', 3, 4, [55, 75])).code).toBe(200);
      expect((await info(data.id)).stock).toBe(7);
    });

    it('a new pay asset keeps the prices as shown (12.5 USDT → 12.5 ENERGY), in the new minor units', async () => {
      const { data } = await product();
      await skus(data.id, [], [{ values: [], price: '12.123456', stock: 1, image: '' }]);
      await call('POST', '/v1/admin/product', {
        id: data.id,
        name: '保温杯',
        kind: 1,
        asset: 'ENERGY',
        cover: COVER,
        gallery: [],
        detail: '',
        sort: 0,
      });
      expect((await info(data.id)).skus[0].price).toBe('12.12');
      await call('POST', '/v1/admin/product', {
        id: data.id,
        name: '保温杯',
        kind: 1,
        asset: 'LZ',
        cover: COVER,
        gallery: [],
        detail: '',
        sort: 0,
      });
      expect((await info(data.id)).skus[0].price).toBe('12.12');
    });

    it('goes on shelf only with a SKU in stock, is deleted only off shelf and without open orders; per id', async () => {
      const empty = (await product()).data.id;
      await skus(empty, [], [{ values: [], price: '1', stock: 0, image: '' }]);
      const p = await onShelf(5);
      expect((await operate([empty, p.id, 999999], 'onShelf')).data).toEqual({
        succeeded: [],
        failed: [
          { id: empty, msg: '没有有库存的规格，不能上架' },
          { id: p.id, msg: '该商品状态已变化，请刷新后重试' },
          { id: 999999, msg: '商品不存在' },
        ],
      });
      const o = await buyProduct(t.app.ctx, {
        memberId: await buyer(),
        skuId: p.skuId,
        quantity: 1,
        receiver: RECEIVER,
      });
      expect((await operate([p.id], 'delete')).data.failed).toEqual([
        { id: p.id, msg: '上架中的商品不能删除，请先下架' },
      ]);
      expect((await operate([p.id], 'offShelf')).data.succeeded).toEqual([p.id]);
      expect((await operate([p.id], 'delete')).data.failed).toEqual([
        { id: p.id, msg: '该商品有未完成的订单，不能删除（可先下架）' },
      ]);
      // an off-shelf product cannot be bought
      await expect(
        buyProduct(t.app.ctx, { memberId: await buyer(), skuId: p.skuId, quantity: 1, receiver: RECEIVER }),
      ).rejects.toMatchObject({ code: 409, message: '商品已下架' });
      await opt({ id: o.id, action: 'ship', expressCompany: '顺丰速运', trackingNo: 'SF1234567890' });
      await opt({ id: o.id, action: 'complete' });
      expect((await operate([p.id, empty], 'delete')).data).toEqual({ succeeded: [p.id, empty], failed: [] });
      expect((await call('GET', '/v1/admin/product/list')).data.total).toBe(0);
      expect((await call('GET', '/v1/admin/product/info', { productId: p.id })).code).toBe(404);
      // the order keeps its snapshot
      expect((await orders()).data.list[0]).toMatchObject({ productName: '保温杯', unitPrice: '12.5', status: 3 });
      expect((await opLogs(t)).filter((l) => l.permission_code === 'product:operate')).toHaveLength(4);
    });

    it('pages by 排序 through negative values by cursor both ways, and 末页 reaches the negative end', async () => {
      const MIN = -2147483647;
      for (const sort of [5, -3, 0, -3, 12, MIN, 7, -1]) expect((await product({ sort })).code).toBe(200);
      const list = (q: Record<string, unknown>) => call('GET', '/v1/admin/product/list', q);
      for (const order of ['desc', 'asc'] as const) {
        const ids = await expectCursorPagingMatchesOffset(list, { sort: 'sort', order }, 3);
        const all = (await list({ sort: 'sort', order, size: 100 })).data.list as Array<{ id: number; sort: number }>;
        expect(all.map((r) => r.id)).toEqual(ids);
        expect(all.map((r) => r.sort)).toEqual(
          [5, -3, 0, -3, 12, MIN, 7, -1].sort((a, b) => (order === 'asc' ? a - b : b - a)),
        );
        // 末页 past the number window: the list read backwards from the end cursor the console sends.
        const last = await list({ sort: 'sort', order, size: 3, before: endCursor(order) });
        expect(last.code).toBe(200);
        expect(last.data.list.map((r: { id: number }) => r.id)).toEqual(ids.slice(-3));
        // A 末页 link bookmarked before the end cursor took negative values (`before=0_0`): no row has
        // id 0, so such a cursor still means the end of the list, negative 排序 included.
        const bookmarked = await list({ sort: 'sort', order, size: 3, before: '0_0' });
        expect(bookmarked.data.list.map((r: { id: number }) => r.id)).toEqual(ids.slice(-3));
      }
    });

    it('fixes kind and pay asset once a product has orders', async () => {
      const p = await onShelf(5);
      await buyProduct(t.app.ctx, { memberId: await buyer(), skuId: p.skuId, quantity: 1, receiver: RECEIVER });
      const base = { id: p.id, name: '保温杯', kind: 1, cover: COVER, gallery: [], detail: '', sort: 1 };
      expect((await call('POST', '/v1/admin/product', { ...base, asset: 'LZ' })).msg).toBe(
        '已有订单的商品不能修改类型或支付币种',
      );
      expect((await call('POST', '/v1/admin/product', { ...base, asset: 'USDT', name: '保温杯 Pro' })).code).toBe(200);
      expect((await opLogs(t)).at(-1)?.summary).toBe(`编辑商品 #${p.id}：名称 保温杯→保温杯 Pro`);
    });
  });

  describe('buying', () => {
    it('pays through the ledger (bill 11), takes the stock and keeps a snapshot', async () => {
      const p = await onShelf(10);
      const m = await buyer('100');
      const o = await buyProduct(t.app.ctx, { memberId: m, skuId: p.skuId, quantity: 3, receiver: RECEIVER });
      expect(o).toMatchObject({ status: 1, total: '37.5', asset: 'USDT', orderNo: orderNo(o.id, t.clock.now()) });
      expect((await balancesOf(t.db.db, m)).USDT.available).toBe(62_500_000n);
      expect((await billsOf(t, m)).at(-1)).toMatchObject({
        type: 11,
        asset: 'USDT',
        change: '-37500000',
        ref_kind: 'order',
      });
      expect(await skuStock(p.skuId)).toBe(7);
      // too little balance: nothing taken
      const poor = await buyer('10');
      await expect(
        buyProduct(t.app.ctx, { memberId: poor, skuId: p.skuId, quantity: 1, receiver: RECEIVER }),
      ).rejects.toMatchObject({ message: '可用余额不足' });
      expect(await skuStock(p.skuId)).toBe(7);
      await expect(buyProduct(t.app.ctx, { memberId: m, skuId: p.skuId, quantity: 1 })).rejects.toMatchObject({
        message: '收货人、电话和地址不能为空',
      });
      await consistent();
    });

    it('a 种子 product grants its seed at once and its order is complete', async () => {
      const { data } = await product({ kind: 2, asset: 'LZ', seedEnergy: '100.5', seedDays: 10, name: '能量种子' });
      await skus(data.id, [], [{ values: [], price: '50', stock: 3, image: '' }]);
      await operate([data.id], 'onShelf');
      const skuId = (await info(data.id)).skus[0].id;
      const m = await addMember(t);
      await credit(t, m, 'LZ', '100');
      const o = await buyProduct(t.app.ctx, { memberId: m, skuId, quantity: 2 });
      expect(o.status).toBe(3);
      const seed = await t.db.db.selectFrom('seed').selectAll().where('id', '=', o.seedId!).executeTakeFirstOrThrow();
      expect({
        name: seed.name,
        source: seed.source,
        ref: Number(seed.ref_id),
        energy: String(seed.total_energy),
      }).toEqual({
        name: '能量种子',
        source: 1,
        ref: o.id,
        energy: '20100',
      });
      expect((await opt({ id: o.id, action: 'cancel', remark: '不要了' })).code).toBe(409);
      await consistent();
    });

    it('a purchase waiting for an editor pays the price the editor committed (PostgreSQL row locks)', async () => {
      if (dbKind !== 'postgres') return;
      const p = await onShelf(5);
      const m = await buyer('1000');
      let release!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      let locked!: () => void;
      const held = new Promise<void>((r) => (locked = r));
      const editor = t.db.db.transaction().execute(async (trx) => {
        await sql`select id from product where id = ${p.id} for no key update`.execute(trx);
        await sql`update product_sku set price = 99000000 where id = ${p.skuId}`.execute(trx);
        locked();
        await gate;
      });
      await held;
      const buying = buyProduct(t.app.ctx, { memberId: m, skuId: p.skuId, quantity: 1, receiver: RECEIVER });
      await new Promise((r) => setTimeout(r, 200));
      release();
      await editor;
      expect((await buying).total).toBe('99');
      await consistent();
    });

    it('50 buyers at once on a SKU with 10 in stock: 10 orders, 40 refusals, stock 0', async () => {
      const p = await onShelf(10);
      const members = await Promise.all(Array.from({ length: 50 }, () => buyer('100')));
      const results = await Promise.allSettled(
        members.map((memberId) => buyProduct(t.app.ctx, { memberId, skuId: p.skuId, quantity: 1, receiver: RECEIVER })),
      );
      const ok = results.filter((r) => r.status === 'fulfilled');
      const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
      expect(ok).toHaveLength(10);
      expect(refused.map((r) => r.reason.message)).toEqual(Array(40).fill('库存不足'));
      expect(await skuStock(p.skuId)).toBe(0);
      expect((await orders()).data.sum).toEqual({ count: 10, totals: [{ asset: 'USDT', total: '125' }] });
      await consistent();
    });
  });

  describe('orders', () => {
    it('ships with a tracking number, completes, and refuses moves the state does not allow (409)', async () => {
      const p = await onShelf(10);
      const o = await buyProduct(t.app.ctx, {
        memberId: await buyer(),
        skuId: p.skuId,
        quantity: 1,
        receiver: RECEIVER,
      });
      expect((await opt({ id: o.id, action: 'ship' })).msg).toBe('请选择快递公司并填写快递单号');
      expect((await opt({ id: o.id, action: 'ship', expressCompany: '某某快递', trackingNo: 'SF123456' })).code).toBe(
        400,
      );
      expect((await opt({ id: o.id, action: 'complete' })).code).toBe(409);
      expect(
        await opt({ id: o.id, action: 'ship', expressCompany: '中通快递', trackingNo: 'ZT20261125001' }),
      ).toMatchObject({ code: 200, data: { id: o.id, status: 2 } });
      expect((await opt({ id: o.id, action: 'cancel', remark: '缺货' })).msg).toBe('该订单已处理');
      expect((await orders({ status: 2 })).data.list[0]).toMatchObject({
        expressCompany: '中通快递',
        trackingNo: 'ZT20261125001',
        operatorName: 'admin',
        shippedAt: t.clock.now(),
      });
      expect((await opt({ id: o.id, action: 'complete' })).data.status).toBe(3);
      expect((await opt({ id: 999999, action: 'complete' })).code).toBe(404);
      expect((await opLogs(t)).filter((l) => l.permission_code === 'order:opt').map((l) => l.summary)).toEqual([
        `订单 #${o.id} 发货：中通快递 ZT20261125001`,
        `订单 #${o.id} 确认完成`,
      ]);
      await consistent();
    });

    it('cancel refunds once (bill 12) and puts the stock back, however many managers press it at once', async () => {
      const p = await onShelf(10);
      const m = await buyer('100');
      const o = await buyProduct(t.app.ctx, { memberId: m, skuId: p.skuId, quantity: 2, receiver: RECEIVER });
      expect((await opt({ id: o.id, action: 'cancel', remark: '  ' })).msg).toBe('取消原因不能为空');
      const results = await Promise.all(
        Array.from({ length: 5 }, () => opt({ id: o.id, action: 'cancel', remark: '会员申请取消' })),
      );
      expect(results.map((r) => r.code).sort()).toEqual([200, 409, 409, 409, 409]);
      expect(await skuStock(p.skuId)).toBe(10);
      expect((await balancesOf(t.db.db, m)).USDT.available).toBe(100_000_000n);
      expect((await billsOf(t, m)).filter((b) => b.type === 12)).toEqual([
        expect.objectContaining({ change: '25000000', ref_kind: 'order', ref_id: o.id }),
      ]);
      expect((await info(p.id)).sales).toBe(0);
      await consistent();
    });

    it('makes the same CSV from COPY (PostgreSQL) as from its batches, for every status, filter and text', async () => {
      const a = await onShelf(50, { name: '=危险"商品",名' });
      const b = await onShelf(50, { name: '蓝牙耳机', asset: 'USDT' });
      const m1 = await buyer();
      const m2 = await buyer();
      const receivers = [
        RECEIVER,
        { name: '+李,四', phone: '13900139000', address: '北京市 "朝阳区", 建国路1号' },
        { name: '@王五', phone: '13700137000', address: '-广州市天河区' },
      ];
      const ids = await placeOrders(9, [m2, m1], [b, a], { every: 61_000, receivers, quantity: (i) => 1 + (i % 2) });
      // shipped (express and tracking number), completed, cancelled (a remark), and left to ship
      for (const id of ids.slice(0, 5)) {
        expect((await opt({ id, action: 'ship', expressCompany: '顺丰速运', trackingNo: `SF${id}000000` })).code).toBe(
          200,
        );
      }
      t.clock.advance(1000);
      for (const id of ids.slice(0, 2)) expect((await opt({ id, action: 'complete' })).code).toBe(200);
      expect((await opt({ id: ids[6], action: 'cancel', remark: '="退款",\n已处理' })).code).toBe(200);
      const uid = (await t.db.db.selectFrom('member').select('uid').where('id', '=', m1).executeTakeFirstOrThrow()).uid;
      const first = (await orders()).data.list[0];
      const queries: Record<string, string>[] = [
        {},
        { status: '2' },
        { status: '3' },
        { status: '4' },
        { keyword: uid },
        { productId: String(a.id) },
        { orderNo: first.orderNo },
        { memberId: String(m2) },
        { start: String(t.clock.now() - 5 * 61_000), end: String(t.clock.now()) },
      ];
      await expectCopyMatchesBatches(t, token, '/v1/admin/order/export', orderExport, queries);
      const whole = (await csvFromBatches(orderExport({ db: t.db.db, kind: t.db.kind }, {}))).toString('utf8');
      expect(whole.split('\r\n')).toHaveLength(11);
      for (const text of [
        '\'=危险""商品"",名',
        `"'+李,四"`,
        "'@王五",
        "'-广州市天河区",
        `"'=""退款"",\n已处理"`,
        ',顺丰速运,SF1000000,',
        '已完成',
        '已取消',
        '已发货',
      ]) {
        expect(whole).toContain(text);
      }
    });

    it('filters by number, member, product and status; pages by cursor; exports every row', async () => {
      const a = await onShelf(50);
      const b = await onShelf(50, { name: '蓝牙耳机', asset: 'USDT' });
      const m1 = await buyer();
      const m2 = await buyer();
      await placeOrders(7, [m2, m1], [b, a]);
      const first = (await orders()).data.list[0];
      expect((await orders({ orderNo: first.orderNo })).data.list.map((r: { id: number }) => r.id)).toEqual([first.id]);
      expect((await orders({ orderNo: `19990101${first.orderNo.slice(8)}` })).data.total).toBe(0);
      const uid = (await t.db.db.selectFrom('member').select('uid').where('id', '=', m1).executeTakeFirstOrThrow()).uid;
      expect((await orders({ keyword: uid })).data.total).toBe(3);
      expect((await orders({ productId: b.id })).data.total).toBe(3);
      expect((await orders({ status: 1 })).data.total).toBe(7);
      expect((await orders({ status: 4 })).data).toMatchObject({ total: 0, sum: { count: 0, totals: [] } });
      await expectCursorPagingMatchesOffset(orders, {}, 3);
      const csv = await t.app.inject({
        method: 'GET',
        url: '/v1/admin/order/export',
        query: { format: 'csv', productId: String(b.id) },
        headers: { authorization: token },
      });
      const lines = csv.rawPayload.toString('utf8').slice(1).trimEnd().split('\r\n');
      expect(lines[0].startsWith('订单号,会员UID,手机号,昵称,商品,规格,类型,币种,单价,数量,金额,收货人')).toBe(true);
      expect(lines).toHaveLength(4);
      expect(lines[1]).toContain(',蓝牙耳机,,实物,USDT,12.5,1,12.5,张伟,');
      // The buyer is the order's snapshot: a member who changes his phone and nickname afterwards
      // leaves the orders he made as they were (the export reads no member row).
      const buyerRow = await t.db.db
        .selectFrom('mall_order as o')
        .innerJoin('member as m', 'm.id', 'o.member_id')
        .select([
          'o.id',
          'o.member_id',
          'o.buyer_uid',
          'o.buyer_phone',
          'o.buyer_nickname',
          'm.uid',
          'm.phone',
          'm.nickname',
        ])
        .where('o.product_id', '=', b.id)
        .orderBy('o.id', 'desc')
        .executeTakeFirstOrThrow();
      expect([buyerRow.buyer_uid, buyerRow.buyer_phone, buyerRow.buyer_nickname]).toEqual([
        buyerRow.uid,
        buyerRow.phone,
        buyerRow.nickname,
      ]);
      await t.db.db
        .updateTable('member')
        .set({ phone: '13900000000', nickname: '改名了' })
        .where('id', '=', Number(buyerRow.member_id))
        .execute();
      const again = await t.app.inject({
        method: 'GET',
        url: '/v1/admin/order/export',
        query: { format: 'csv', productId: String(b.id) },
        headers: { authorization: token },
      });
      const firstLine = again.rawPayload.toString('utf8').slice(1).split('\r\n')[1];
      expect(firstLine).toContain(`,${buyerRow.uid},${buyerRow.phone},${buyerRow.nickname},蓝牙耳机,`);
    });

    it('answers a product, a date range and a member with a keyword from counters that match the rows', async () => {
      const a = await onShelf(50);
      const b = await onShelf(50, { name: '蓝牙耳机' });
      const m1 = await buyer();
      const m2 = await buyer();
      for (let i = 0; i < 6; i += 1) {
        t.clock.advance(8 * 3600_000);
        const o = await buyProduct(t.app.ctx, {
          memberId: i % 2 ? m1 : m2,
          skuId: i % 3 ? a.skuId : b.skuId,
          quantity: 1,
          receiver: RECEIVER,
        });
        if (i === 0) await opt({ id: o.id, action: 'cancel', remark: '缺货' });
      }
      token = await t.login();
      const totals = async (q: Record<string, unknown>) => (await orders(q)).data.sum;
      expect(await totals({ productId: b.id })).toEqual({ count: 2, totals: [{ asset: 'USDT', total: '25' }] });
      expect(await totals({ productId: b.id, status: 4 })).toEqual({
        count: 1,
        totals: [{ asset: 'USDT', total: '12.5' }],
      });
      const all = (await orders({ size: 100 })).data.list as Array<{ createdAt: number }>;
      const start = all[4].createdAt - 1000;
      const end = all[1].createdAt + 1000;
      const inRange = all.filter((o) => o.createdAt >= start && o.createdAt <= end).length;
      expect((await totals({ start, end })).count).toBe(inRange);
      // A range of whole days (order_day_stat) with a part-day at either end.
      const wide = { start: all[5].createdAt - 3 * 86_400_000, end: all[0].createdAt + 2 * 86_400_000 };
      expect(await totals(wide)).toEqual(await totals({}));
      expect((await orders({ ...wide, before: '0_0', size: 1 })).data.list[0].createdAt).toBe(all[5].createdAt);
      // A keyword that matches both buyers (a phone prefix): their orders, found through their ids.
      const phones = await t.db.db.selectFrom('member').select('phone').where('id', 'in', [m1, m2]).execute();
      let prefix = phones[0].phone;
      while (!phones[1].phone.startsWith(prefix)) prefix = prefix.slice(0, -1);
      const matched = await t.db.db.selectFrom('member').select('id').where('phone', 'like', `${prefix}%`).execute();
      expect(prefix).not.toBe('');
      expect(matched.length).toBeGreaterThanOrEqual(2);
      expect((await totals({ keyword: prefix })).count).toBe(6);
      expect((await orders({ keyword: prefix, size: 100 })).data.list).toHaveLength(6);
      const uid = (await t.db.db.selectFrom('member').select('uid').where('id', '=', m1).executeTakeFirstOrThrow()).uid;
      expect((await totals({ keyword: uid, memberId: m1 })).count).toBe(3);
      expect((await totals({ keyword: uid, memberId: m2 })).count).toBe(0);
      await consistent();
    });

    it('completes shipped orders after the days the mall setting says', async () => {
      await putSetting(t.db.db, 'mall', { autoCompleteDays: 3 }, 'admin', t.clock.now());
      const p = await onShelf(10);
      const o = await buyProduct(t.app.ctx, {
        memberId: await buyer(),
        skuId: p.skuId,
        quantity: 1,
        receiver: RECEIVER,
      });
      await opt({ id: o.id, action: 'ship', expressCompany: 'EMS', trackingNo: 'EMS123456789' });
      t.clock.advance(3 * DAY - 1000);
      expect(await completeShippedOrders(t.app.ctx, t.clock.now())).toEqual({ completed: 0 });
      t.clock.advance(1000);
      expect(await completeShippedOrders(t.app.ctx, t.clock.now())).toEqual({ completed: 1 });
      token = await t.login(); // days have passed: the session has idled out
      expect((await orders()).data.list[0]).toMatchObject({ status: 3, operatorName: '系统' });
      await consistent();
    });

    it('enforces each permission on the server', async () => {
      const viewer = await actingAs(t, 'viewer', ['order:view', 'product:view']);
      const p = await onShelf(3);
      const o = await buyProduct(t.app.ctx, {
        memberId: await buyer(),
        skuId: p.skuId,
        quantity: 1,
        receiver: RECEIVER,
      });
      expect((await orders()).code).toBe(200);
      expect((await opt({ id: o.id, action: 'complete' }, viewer.token)).code).toBe(403);
      expect((await operate([p.id], 'offShelf', viewer.token)).code).toBe(403);
      expect((await call('POST', '/v1/admin/product', { name: 'x' }, viewer.token)).code).toBe(403);
      const exp = await t.app.inject({
        method: 'GET',
        url: '/v1/admin/order/export',
        headers: { authorization: viewer.token },
      });
      expect(exp.json()).toMatchObject({ code: 403 });
    });
  });
});
