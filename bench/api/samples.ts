/** Values the scenarios filter on, read once from the bench database itself. */
import { sql } from 'kysely';
import { createDb } from '../../server/db/dialect';
import { PG_SCHEMA, PG_URL, SQLITE_FILE } from '../lib/args';

export interface Sample {
  members: number;
  bills: number;
  /** A 3-digit mobile prefix (about a tenth of the members). */
  phonePrefix: string;
  /** A 7-digit prefix (a handful of members). */
  phonePrefix7: string;
  /** A full nickname that exists. */
  nickname: string;
  /** The uid of a member with many bills. */
  busyUid: string;
  busyMemberId: number;
  /** Newest bill time (epoch ms). */
  end: number;
  /** The deep page numbers of the scenarios and the cursors that reach them (the `next` of the page before). */
  deepMemberPage: number;
  deepMemberCursor: string;
  deepBillPage: number;
  deepBillCursor: string;
  /** The LZ economy's lists (issue 11), when the data set has them. */
  economy?: EconomySample;
}

/** A deep page of a list and the cursor of the row before it (`${sort value}_${id}`). */
export interface DeepPage {
  page: number;
  cursor: string;
}

export interface EconomySample {
  pledges: number;
  pledgeReleases: number;
  seeds: number;
  matches: number;
  /** The newest settled Asia/Shanghai day (YYYY-MM-DD): the release lists' date filter. */
  lastDay: string;
  deepPledge: DeepPage;
  deepPledgeRelease: DeepPage;
  deepSeed: DeepPage;
  deepMatch: DeepPage;
  /** The mall (issue 12), when the data set has it. */
  mall?: MallSample;
}

export interface MallSample {
  products: number;
  orders: number;
  /** The product with the most orders. */
  busyProductId: number;
  deepOrder: DeepPage;
  deepProduct: DeepPage;
}

/** The row just before a deep page (80 % down the list), as the console's 下一页 would have it in `next`. */
async function deepPage(h: ReturnType<typeof createDb>, table: string, sortCol: string, n: number): Promise<DeepPage> {
  const page = Math.max(2, Math.floor((n * 0.8) / 20));
  const r = (
    await sql<{ v: number; id: number }>`select ${sql.ref(sortCol)} as v, id from ${sql.table(table)}
      order by ${sql.ref(sortCol)} desc, id desc limit 1 offset ${(page - 1) * 20 - 1}`.execute(h.db)
  ).rows[0];
  return { page, cursor: r ? `${Number(r.v)}_${Number(r.id)}` : '0_0' };
}

async function readEconomy(h: ReturnType<typeof createDb>): Promise<EconomySample | undefined> {
  const count = async (table: string) =>
    Number((await sql<{ n: number }>`select count(*) as n from ${sql.table(table)}`.execute(h.db)).rows[0].n);
  let pledges: number;
  try {
    pledges = await count('pledge');
  } catch {
    return undefined;
  }
  if (!pledges) return undefined;
  const [pledgeReleases, seeds, matches] = [
    await count('pledge_release'),
    await count('seed'),
    await count('match_trade'),
  ];
  const last = (await sql<{ d: number }>`select max(day) as d from pledge_release`.execute(h.db)).rows[0];
  return {
    pledges,
    pledgeReleases,
    seeds,
    matches,
    lastDay: new Date(Number(last.d) * 86_400_000).toISOString().slice(0, 10),
    deepPledge: await deepPage(h, 'pledge', 'id', pledges),
    deepPledgeRelease: await deepPage(h, 'pledge_release', 'day', pledgeReleases),
    deepSeed: await deepPage(h, 'seed', 'id', seeds),
    deepMatch: await deepPage(h, 'match_trade', 'id', matches),
    mall: await readMall(h),
  };
}

async function readMall(h: ReturnType<typeof createDb>): Promise<MallSample | undefined> {
  const count = async (table: string) =>
    Number((await sql<{ n: number }>`select count(*) as n from ${sql.table(table)}`.execute(h.db)).rows[0].n);
  let orders: number;
  try {
    orders = await count('mall_order');
  } catch {
    return undefined;
  }
  if (!orders) return undefined;
  const products = await count('product');
  const busy = (
    await sql<{
      id: number;
    }>`select product_id as id from product_sku group by product_id order by sum(sales) desc limit 1`.execute(h.db)
  ).rows[0];
  return {
    products,
    orders,
    busyProductId: Number(busy.id),
    deepOrder: await deepPage(h, 'mall_order', 'id', orders),
    deepProduct: await deepPage(h, 'product', 'id', products),
  };
}

export async function readSample(db: 'sqlite' | 'pg'): Promise<Sample> {
  const h = createDb(db === 'sqlite' ? `sqlite:${SQLITE_FILE}` : PG_URL, {
    pgSchema: db === 'pg' ? PG_SCHEMA : undefined,
  });
  try {
    const one = async <T>(q: ReturnType<typeof sql<T>>) => (await q.execute(h.db)).rows[0] as T;
    const m = await one(sql<{ n: number }>`select max(id) as n from member`);
    const b = await one(sql<{ n: number; t: number }>`select max(id) as n, max(created_at) as t from bill`);
    const mid = Math.max(1, Math.floor(Number(m.n) / 2));
    const mem = await one(
      sql<{ phone: string; nickname: string }>`select phone, nickname from member where id = ${mid}`,
    );
    const busy = await one(
      sql<{
        id: number;
        uid: string;
      }>`select m.id, m.uid from member m where m.id = (select member_id from bill where id = 1)`,
    );
    // The row just before each deep page, as the console's 下一页 would have it in `next`.
    const deepMemberPage = Math.max(2, Math.floor((Number(m.n) * 0.8) / 20));
    const deepBillPage = Math.max(2, Math.floor((Number(b.n) * 0.8) / 20));
    const mc = await one(
      sql<{ id: number }>`select id from member order by id desc limit 1 offset ${(deepMemberPage - 1) * 20 - 1}`,
    );
    const bc = await one(
      sql<{
        id: number;
        created_at: number;
      }>`select id, created_at from bill order by created_at desc, id desc limit 1 offset ${(deepBillPage - 1) * 20 - 1}`,
    );
    return {
      deepMemberPage,
      deepMemberCursor: `${Number(mc.id)}_${Number(mc.id)}`,
      deepBillPage,
      deepBillCursor: `${Number(bc.created_at)}_${Number(bc.id)}`,
      members: Number(m.n),
      bills: Number(b.n),
      phonePrefix: '138',
      phonePrefix7: mem.phone.slice(0, 7),
      nickname: mem.nickname,
      busyUid: busy.uid,
      busyMemberId: Number(busy.id),
      end: Number(b.t),
      economy: await readEconomy(h),
    };
  } finally {
    await h.close();
  }
}
