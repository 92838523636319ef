/**
 * Buyers suite (issue 12 budget: 500 concurrent buyers on one SKU give exactly its stock in orders):
 * on the bench data set, one new product on shelf with one SKU of `stock` (100) pieces, then `buyers`
 * (500) members — each credited the price first through the ledger — all call buyProduct (the member
 * side, in this process, on a pool of 20 connections, as the member app's server would) at once.
 * Checked after: orders made = stock, refusals = the rest and all 库存不足, the SKU at 0 (never below),
 * one bill 11 per order, and ledgerViolations() of the buyers; reported with the seconds it took.
 */
import pino from 'pino';
import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import { BillType } from '../domain/bills';
import { loadConfig } from '../server/config';
import { createDb } from '../server/db/dialect';
import { applyChange, ledgerViolations } from '../server/modules/ledger/ledger.service';
import { buyProduct } from '../server/modules/mall/orders.service';
import { mallStatViolations } from '../server/modules/mall/orders.repository';
import { operateProducts, productInfo, saveProduct, saveSkus } from '../server/modules/mall/products.service';
import { AppError } from '../server/errors';
import { fmt, log, PG_SCHEMA, PG_URL, SQLITE_FILE } from './lib/args';

export interface BuyersResult {
  db: string;
  buyers: number;
  stock: number;
  seconds: number;
  orders: number;
  refusals: Record<string, number>;
  stockLeft: number;
  bills: number;
  ledgerViolations: number;
  counterViolations: number;
  skipped?: string;
}

export async function runBuyers(o: { db: 'sqlite' | 'pg'; buyers: number; stock: number }): Promise<BuyersResult> {
  const url = o.db === 'sqlite' ? `sqlite:${SQLITE_FILE}` : PG_URL;
  const logger = pino({ level: 'warn' }, pino.destination(2)) as unknown as FastifyBaseLogger;
  const h = createDb(url, { pgSchema: o.db === 'pg' ? PG_SCHEMA : undefined, poolSize: 20, log: logger });
  const base = {
    db: o.db,
    buyers: o.buyers,
    stock: o.stock,
    seconds: 0,
    orders: 0,
    refusals: {},
    stockLeft: 0,
    bills: 0,
    ledgerViolations: 0,
    counterViolations: 0,
  };
  try {
    try {
      await sql`select 1 from mall_order limit 1`.execute(h.db);
    } catch {
      return { ...base, skipped: 'no mall tables (run npm run bench:data)' };
    }
    const config = { ...loadConfig({ ...process.env, DATABASE_URL: url }), demoData: false };
    const ctx = { db: h.db, kind: h.kind, config, clock: { now: () => Date.now() }, log: logger };
    const actor = { managerId: 1, username: 'admin', ip: '127.0.0.1' };
    const { id } = await saveProduct(ctx, actor, {
      name: `抢购测试 ${new Date().toISOString().slice(0, 19)}`,
      kind: 1,
      asset: 'USDT',
      cover: '/uploads/bench/rush.webp',
      gallery: [],
      detail: '',
      sort: 0,
    });
    await saveSkus(ctx, actor, {
      productId: id,
      specs: [],
      skus: [{ values: [], price: '9.9', stock: o.stock, image: '' }],
    });
    await operateProducts(ctx, actor, { ids: [id], action: 'onShelf' });
    const skuId = (await productInfo(ctx, id)).skus[0].id;
    const members = (
      await sql<{ id: number }>`select id from member where status = 1 order by id desc limit ${o.buyers}`.execute(h.db)
    ).rows.map((r) => Number(r.id));
    for (const m of members)
      await h.db
        .transaction()
        .execute((trx) =>
          applyChange(
            trx,
            { memberId: m, asset: 'USDT', available: 9_900_000n, type: BillType.adminAdjust, remark: '抢购测试' },
            Date.now(),
          ),
        );
    const bill0 = Number((await sql<{ n: number }>`select max(id) as n from bill`.execute(h.db)).rows[0].n);
    const receiver = { name: '测试', phone: '13900000000', address: '上海市浦东新区世纪大道100号' };
    log(`buyers ${o.db}: ${fmt(members.length)} buyers on one SKU of ${fmt(o.stock)}`);
    const t0 = performance.now();
    const results = await Promise.allSettled(
      members.map((memberId) => buyProduct(ctx, { memberId, skuId, quantity: 1, receiver })),
    );
    const seconds = (performance.now() - t0) / 1000;
    const refusals: Record<string, number> = {};
    for (const r of results)
      if (r.status === 'rejected') {
        const msg = r.reason instanceof AppError ? r.reason.message : `unexpected: ${String(r.reason)}`;
        refusals[msg] = (refusals[msg] ?? 0) + 1;
      }
    const one = async (q: ReturnType<typeof sql<{ n: number }>>) => Number((await q.execute(h.db)).rows[0].n);
    const orders = await one(sql<{ n: number }>`select count(*) as n from mall_order where sku_id = ${skuId}`);
    const stockLeft = await one(sql<{ n: number }>`select stock as n from product_sku where id = ${skuId}`);
    const bills = await one(
      sql<{ n: number }>`select count(*) as n from bill where id > ${bill0} and type = ${BillType.mallPurchase}`,
    );
    const bad = await ledgerViolations(h.db);
    const counters = await mallStatViolations(h.db);
    await operateProducts(ctx, actor, { ids: [id], action: 'offShelf' });
    log(
      `buyers ${o.db}: ${fmt(orders)} orders, refusals ${JSON.stringify(refusals)}, stock left ${stockLeft}, ${fmt(bills)} bills, in ${seconds.toFixed(2)} s; ledger ${bad.length}, counters ${counters.length} violations`,
    );
    return {
      ...base,
      seconds,
      orders,
      refusals,
      stockLeft,
      bills,
      ledgerViolations: bad.length,
      counterViolations: counters.length,
    };
  } finally {
    await h.close();
  }
}
