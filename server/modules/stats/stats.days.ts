/**
 * The statistics' daily figures, read per 32-day block and kept while the database says the block is
 * unchanged.
 *
 * Every source of a daily figure only grows: bills, orders and members are never deleted or moved to
 * another day, so each counter row's `n` only goes up. A block's version is therefore the sum of `n`
 * (and, for a rebuild of the counters from other rows, of the amounts) over its 'B' rows (bill_stat,
 * order_day_stat) and its members' day rows; any fact written into the block, on any server process,
 * changes it. A request reads the versions of its blocks (a few
 * hundred rows for a year), reloads the day rows of the blocks whose version moved (in practice the
 * current one) and takes the others from memory: a year reads ~200 day rows instead of ~2,000.
 *
 * The version is read before the day rows: a fact committed in between makes the cached rows newer than
 * their version, which only costs one more reload on the next request, never a stale figure.
 */
import { BLOCK_DAYS } from '../../db/dayBuckets';
import { BillType } from '../../../domain/bills';
import type { Ctx } from '../../context';
import { billDays, blockVersions, memberDays, orderDays } from './stats.repository';

/** The bill types the statistics read. */
export const STAT_BILL_TYPES = [
  BillType.deposit,
  BillType.withdrawSuccess,
  BillType.pledgeLock,
  BillType.pledgeIncome,
  BillType.seedRelease,
  BillType.mallRefund,
];

/** The series key of a bill type (a paid withdrawal's depends on its asset: 提现 USDT, 提取 LZ). */
const BILL_KEYS: Partial<Record<number, string>> = {
  [BillType.deposit]: 'deposits',
  [BillType.pledgeLock]: 'pledgeNew',
  [BillType.pledgeIncome]: 'pledgeIncome',
  [BillType.seedRelease]: 'energyReleased',
  [BillType.mallRefund]: 'refunds',
};

/** Per-day counts and amounts of one key over days [from, from + length). */
export class DaySums {
  readonly n: bigint[];
  readonly amount: bigint[];
  constructor(
    readonly from: number,
    days: number,
  ) {
    this.n = new Array<bigint>(days).fill(0n);
    this.amount = new Array<bigint>(days).fill(0n);
  }
  add(day: number, n: bigint, amount: bigint) {
    const i = day - this.from;
    if (i < 0 || i >= this.n.length) return;
    this.n[i] += n;
    this.amount[i] += amount;
  }
  get count() {
    return Number(this.n.reduce((a, b) => a + b, 0n));
  }
  get total() {
    return this.amount.reduce((a, b) => a + b, 0n);
  }
}

/** Keyed per-day sums: `deposits:USDT`, `orders:LZ`, `membersNew:` … */
export class DayTable {
  readonly sums = new Map<string, DaySums>();
  constructor(
    readonly from: number,
    readonly days: number,
  ) {}
  at(key: string): DaySums {
    let s = this.sums.get(key);
    if (!s) this.sums.set(key, (s = new DaySums(this.from, this.days)));
    return s;
  }
  /** Adds `src`'s days that fall inside this table (a key is made only where it has a row in range). */
  merge(src: DayTable) {
    const lo = Math.max(this.from, src.from);
    const hi = Math.min(this.from + this.days, src.from + src.days);
    for (const [key, s] of src.sums) {
      let into: DaySums | undefined;
      for (let day = lo; day < hi; day++) {
        const i = day - src.from;
        if (s.n[i] === 0n && s.amount[i] === 0n) continue;
        into ??= this.at(key);
        into.add(day, s.n[i], s.amount[i]);
      }
    }
  }
}

/** The day rows of [from, to] as keyed sums: bills by type (and asset), orders by asset, new members. */
async function readDays(ctx: Ctx, from: number, to: number): Promise<DayTable> {
  const [bills, orders, members] = await Promise.all([
    billDays(ctx.db, STAT_BILL_TYPES, from, to),
    orderDays(ctx.db, from, to),
    memberDays(ctx.db, from, to),
  ]);
  const t = new DayTable(from, to - from + 1);
  for (const [day, type, asset, n, amount] of bills) {
    const key =
      type === BillType.withdrawSuccess ? (asset === 'LZ' ? 'extractPaid' : 'withdrawPaid') : BILL_KEYS[Number(type)];
    if (key) t.at(`${key}:${asset}`).add(Number(day), BigInt(n), BigInt(amount));
  }
  for (const [day, asset, n, total] of orders) t.at(`orders:${asset}`).add(Number(day), BigInt(n), BigInt(total));
  for (const [day, n] of members) t.at('membersNew:').add(Number(day), BigInt(n), 0n);
  return t;
}

/** Blocks kept per database (a year is 13; ten years of history fit). */
const BLOCKS_KEPT = 128;

interface Block {
  version: string;
  table: DayTable;
}

/** One database's blocks, least recently used first (a Map keeps insertion order). */
const caches = new WeakMap<object, Map<number, Block>>();

/** The daily figures of days [from, to]: cached blocks where their version still holds, day rows for the rest. */
export async function statDayTable(ctx: Ctx, from: number, to: number): Promise<DayTable> {
  let cache = caches.get(ctx.db);
  if (!cache) caches.set(ctx.db, (cache = new Map()));
  const b0 = Math.floor(from / BLOCK_DAYS);
  const b1 = Math.floor(to / BLOCK_DAYS);
  const versions = await blockVersions(ctx.db, STAT_BILL_TYPES, b0, b1);
  // This request's blocks, held here: another request may evict them from the cache meanwhile.
  const blocks = new Map<number, Block>();
  const stale: number[] = [];
  for (let b = b0; b <= b1; b++) {
    const kept = cache.get(b);
    if (kept && kept.version === (versions.get(b) ?? '')) blocks.set(b, kept);
    else stale.push(b);
  }
  if (stale.length > 0) {
    const first = stale[0] * BLOCK_DAYS;
    const read = await readDays(ctx, first, stale[stale.length - 1] * BLOCK_DAYS + BLOCK_DAYS - 1);
    for (const b of stale) {
      const table = new DayTable(b * BLOCK_DAYS, BLOCK_DAYS);
      table.merge(read);
      blocks.set(b, { version: versions.get(b) ?? '', table });
    }
  }
  const out = new DayTable(from, to - from + 1);
  for (let b = b0; b <= b1; b++) {
    const block = blocks.get(b)!;
    out.merge(block.table);
    cache.delete(b); // most recently used last
    cache.set(b, block);
  }
  while (cache.size > BLOCKS_KEPT) cache.delete(cache.keys().next().value!);
  return out;
}
