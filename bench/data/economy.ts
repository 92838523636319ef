/**
 * The LZ economy of the bulk data set (issue 11): pledge modes, pledges and their daily releases,
 * seeds and theirs, matches in every status, and a settlement_run row per settled day — all as the
 * services and the settlement job would have left them, with every bill in the generator's one
 * replay of money events (bench/data/generate.ts), so the ledger invariant keeps holding.
 *
 * - Pledges and seeds start on Asia/Shanghai days spread evenly over a recent window; the window is
 *   chosen so that the release rows come to about `releases` (split between pledges and seeds in
 *   proportion to their counts), which leaves roughly half of the records still active.
 * - Days up to L = dayOf(end) − 2 are settled: at 00:05 of the next day (a scheduled event of the
 *   replay) every active record is paid that day's release (domain/economy.ts terms: `daily`, the
 *   remainder on the end day) with a bill per release above zero (质押收益 / 种子释放), the principal
 *   on a pledge's end day (质押赎回), and moves to 已到期 / 已成熟 then. Day L+1 (yesterday) is left
 *   for `npm run bench -- --suites settle`.
 * - A pledge locks LZ (质押锁定); a seed grant moves no money. A member short of LZ is credited an
 *   activity reward first (as the withdrawals do).
 * - Matches are spread over the whole two years like the other records; the seller's LZ is frozen
 *   (撮合冻结), then dealt (撮合成交, two bills) or returned (撮合取消) at the time the match finished;
 *   待付款 (the last 30 minutes), 待确认收款 (recent) and 申诉中 keep it frozen.
 *
 * Amounts are JS numbers of minor units (exact: far below 2^53); the terms come from domain/economy.ts.
 */
import type { Asset } from '../../domain/assets';
import { BillType } from '../../domain/bills';
import { pledgeTerms, seedTerms } from '../../domain/economy';
import { matchTotal } from '../../domain/matches';
import { dateOfDay, dayOf, dayStart } from '../../server/db/dayBuckets';

const DAY = 86_400_000;
const MIN = 60_000;
const HOUR = 3_600_000;
const SPAN = 730 * DAY;
const BATCH = 10_000;
/** The settlement's time of day (config.settleAt default 00:05). */
const SETTLE_AT = 5 * MIN;
const PAY_TIMEOUT = 30 * MIN;

export interface EconomyScale {
  seed: number;
  end: number;
  members: number;
  pledges: number;
  seeds: number;
  matches: number;
  /** pledge_release + seed_release rows, about. */
  releases: number;
}

/** Where the economy's rows go (any table, columns in order), and the replay it takes part in. */
export interface EconomyHost {
  insert(table: string, columns: string[], rows: unknown[][]): Promise<void>;
  bill(
    member: number,
    asset: Asset,
    type: number,
    change: number,
    frozenChange: number,
    refKind: string,
    refId: number | null,
    remark: string,
    t: number,
  ): void;
  held(member: number, asset: Asset): number;
  memberAt(t: number): number;
  rand(): number;
  /** Runs `run` at time t of the replay, in order with every other event. */
  schedule(t: number, run: () => Promise<void>): void;
  /** Writes the bills buffered so far (called before a batch of release rows gets big). */
  flushBills(): Promise<void>;
  /** A stateless uniform [0, 1) of (the data set's seed, i, salt): generate.ts hash01. */
  hash(i: number, salt: number): number;
  /** The seller's payment method as a match keeps it (JSON). */
  payment(member: number): string;
}

export interface EconomyTotals {
  pledgeModes: number;
  pledges: number;
  pledgesActive: number;
  pledgeReleases: number;
  seeds: number;
  seedsActive: number;
  seedReleases: number;
  matches: number;
  matchesByStatus: Record<number, number>;
  settledDays: number;
  /** The last settled day (YYYY-MM-DD); the next one is left for the settle bench. */
  settledThrough: string;
  pledgeWindowDays: number;
  seedWindowDays: number;
}

export const ECONOMY_TABLES = ['pledge_mode', 'pledge', 'pledge_release', 'seed', 'seed_release', 'match_trade', 'settlement_run'];
/** The big ones: their secondary indexes are dropped for the load and rebuilt after. */
export const ECONOMY_BIG_TABLES = ['pledge', 'pledge_release', 'seed', 'seed_release', 'match_trade'];

export const PLEDGE_MODES = [
  { id: 1, name: '三天体验', days: 3, rate: 3_000, weight: 0.3 },
  { id: 2, name: '七天稳盈', days: 7, rate: 4_000, weight: 0.3 },
  { id: 3, name: '十五天增益', days: 15, rate: 5_000, weight: 0.2 },
  { id: 4, name: '三十天尊享', days: 30, rate: 6_000, weight: 0.12 },
  { id: 5, name: '六十天至尊', days: 60, rate: 8_000, weight: 0.08 },
] as const;
const MODE_MIN = 100 * 10_000;
const MODE_MAX = 100_000 * 10_000;
const SEED_DAYS = [
  { days: 3, weight: 0.25 },
  { days: 7, weight: 0.3 },
  { days: 10, weight: 0.2 },
  { days: 15, weight: 0.15 },
  { days: 30, weight: 0.1 },
] as const;
const SEED_NAMES: Record<number, readonly string[]> = {
  1: ['小麦种子', '水稻种子', '玉米种子', '向日葵种子'],
  2: ['后台赠送种子'],
  3: ['活动奖励种子', '签到种子'],
};

const PLEDGE_COLUMNS = [
  'id', 'member_id', 'mode_id', 'mode_name', 'amount', 'rate', 'days', 'daily_yield', 'total_yield', 'start_day',
  'end_day', 'paid_day', 'released', 'status', 'created_at', 'finished_at',
]; // prettier-ignore
const PLEDGE_RELEASE_COLUMNS = ['id', 'pledge_id', 'member_id', 'day', 'amount', 'principal', 'created_at'];
const SEED_COLUMNS = [
  'id', 'member_id', 'name', 'source', 'ref_id', 'total_energy', 'daily_energy', 'days', 'start_day', 'end_day',
  'paid_day', 'released', 'status', 'created_at', 'finished_at',
]; // prettier-ignore
const SEED_RELEASE_COLUMNS = ['id', 'seed_id', 'member_id', 'day', 'amount', 'created_at'];
const MATCH_COLUMNS = [
  'id', 'seller_id', 'buyer_id', 'quantity', 'unit_price', 'total', 'payment', 'proof_url', 'status', 'appeal_reason',
  'appeal_by', 'remark', 'expires_at', 'paid_at', 'finished_at', 'arbiter_id', 'arbiter_name', 'created_at', 'updated_at',
]; // prettier-ignore
const MODE_COLUMNS = ['id', 'name', 'days', 'rate', 'min_amount', 'max_amount', 'status', 'sort', 'created_at', 'updated_at'];
const RUN_COLUMNS = [
  'day', 'status', 'owner', 'lease_until', 'started_at', 'finished_at', 'pledges', 'pledge_yield', 'pledge_principal',
  'seeds', 'seed_energy', 'matches_cancelled', 'error',
]; // prettier-ignore


function weighted<T extends { weight: number }>(xs: readonly T[], u: number): T {
  let acc = 0;
  for (const x of xs) {
    acc += x.weight;
    if (u < acc) return x;
  }
  return xs[xs.length - 1];
}

/**
 * The window (days) over which records of these durations start so that each has about `perRecord`
 * releases settled by day L: a record started a days before L has min(a, N) of them.
 */
export function windowFor(mix: ReadonlyArray<{ days: number; weight: number }>, perRecord: number): number {
  let best = 1;
  let bestGap = Infinity;
  for (let w = 1; w <= 730; w++) {
    let e = 0;
    for (const m of mix) {
      let s = 0;
      for (let a = 0; a < w; a++) s += Math.min(a, m.days);
      e += (m.weight * s) / w;
    }
    const gap = Math.abs(e - perRecord);
    if (gap < bestGap) {
      best = w;
      bestGap = gap;
    }
    if (e > perRecord) break;
  }
  return best;
}

/** Log-uniform whole amount between lo and hi units of `unit` minor units, rounded to `step`. */
const logAmount = (unit: number, step: number, lo: number, hi: number, u: number) =>
  Math.max(step, Math.round((lo * Math.pow(hi / lo, u) * unit) / step) * step);

/** Records that earn day by day (pledges or seeds), in typed arrays indexed by id − 1. */
class Earnings {
  member: Int32Array;
  kind: Int32Array;
  amount: Float64Array;
  daily: Float64Array;
  total: Float64Array;
  days: Int32Array;
  start: Int32Array;
  paid: Int32Array;
  released: Float64Array;
  created: Float64Array;
  finished: Float64Array;
  ref: Float64Array;
  n = 0;
  /** Ids of the active records in start order. */
  active: number[] = [];
  releases = 0;
  constructor(size: number) {
    this.member = new Int32Array(size);
    this.kind = new Int32Array(size);
    this.amount = new Float64Array(size);
    this.daily = new Float64Array(size);
    this.total = new Float64Array(size);
    this.days = new Int32Array(size);
    this.start = new Int32Array(size);
    this.paid = new Int32Array(size);
    this.released = new Float64Array(size);
    this.created = new Float64Array(size);
    this.finished = new Float64Array(size);
    this.ref = new Float64Array(size);
  }
}

interface DayRun {
  t: number;
  pledges: number;
  pledgeYield: number;
  pledgePrincipal: number;
  seeds: number;
  seedEnergy: number;
}

export class Economy {
  private readonly lastDay: number;
  private readonly pledgeWindow: number;
  private readonly seedWindow: number;
  private readonly pledgeFrom: number;
  private readonly seedFrom: number;
  private readonly p: Earnings;
  private readonly s: Earnings;
  private pj = 0;
  private sj = 0;
  private mj = 0;
  private pledgeReleaseRows: unknown[][] = [];
  private seedReleaseRows: unknown[][] = [];
  private matchRows: unknown[][] = [];
  private readonly runs: Array<{ day: number } & DayRun> = [];
  private readonly matchesByStatus: Record<number, number> = { 1: 0, 2: 0, 3: 0, 4: 0, 5: 0 };
  private nextP: number;
  private nextS: number;
  private nextM: number;

  constructor(
    private readonly scale: EconomyScale,
    private readonly host: EconomyHost,
  ) {
    this.lastDay = dayOf(scale.end) - 2;
    // The releases are split between pledges and seeds in proportion to their counts.
    const perRecord = scale.releases / Math.max(1, scale.pledges + scale.seeds);
    this.pledgeWindow = windowFor(PLEDGE_MODES, perRecord);
    this.seedWindow = windowFor(SEED_DAYS, perRecord);
    this.pledgeFrom = this.lastDay - this.pledgeWindow + 1;
    this.seedFrom = this.lastDay - this.seedWindow + 1;
    this.p = new Earnings(scale.pledges);
    this.s = new Earnings(scale.seeds);
    this.nextP = this.pledgeTime(0);
    this.nextS = this.seedTime(0);
    this.nextM = this.matchTime(0);
    // The settlement of each day from the first day a record can be owed, at 00:05 of the next day.
    const first = Math.min(scale.pledges ? this.pledgeFrom : Infinity, scale.seeds ? this.seedFrom : Infinity) + 1;
    if (Number.isFinite(first) && first <= this.lastDay) this.scheduleSettle(first);
  }

  get windows() {
    return { pledge: this.pledgeWindow, seed: this.seedWindow, lastDay: this.lastDay };
  }

  private pledgeTime(j: number) {
    if (j >= this.scale.pledges) return Infinity;
    const from = dayStart(this.pledgeFrom);
    const u = this.host.hash(j, 61);
    return from + Math.floor((this.pledgeWindow * DAY * (j + u)) / this.scale.pledges);
  }

  private seedTime(j: number) {
    if (j >= this.scale.seeds) return Infinity;
    const from = dayStart(this.seedFrom);
    const u = this.host.hash(j, 71);
    return from + Math.floor((this.seedWindow * DAY * (j + u)) / this.scale.seeds);
  }

  /** Over the two years, density ∝ time; the last match of all is always still 待付款. */
  private matchTime(j: number) {
    const n = this.scale.matches;
    if (j >= n) return Infinity;
    const u = this.host.hash(j, 81);
    const t = this.scale.end - SPAN + Math.floor(SPAN * Math.sqrt(Math.min(1, (j + u) / n)));
    return j === n - 1 ? Math.max(t, this.scale.end - 10 * MIN) : t;
  }

  /** The time of the next pledge, seed or match. */
  nextTime(): number {
    return Math.min(this.nextP, this.nextS, this.nextM);
  }

  /** The record due at nextTime(). */
  async step(): Promise<void> {
    const t = this.nextTime();
    if (t === this.nextP) this.pledge(t);
    else if (t === this.nextS) this.grant(t);
    else await this.match(t);
  }

  /** Credits an activity reward when `member` holds less than `need` LZ (as the withdrawals do). */
  private ensureLz(member: number, need: number, t: number) {
    const h = this.host.held(member, 'LZ');
    if (h < need) this.host.bill(member, 'LZ', BillType.adminAdjust, need * 2 - h, 0, 'adjust', null, '活动奖励', t);
  }

  private pledge(t: number) {
    const j = this.pj++;
    const id = j + 1;
    const mode = weighted(PLEDGE_MODES, this.host.hash(j, 62));
    const member = this.host.memberAt(t);
    const amount = Math.min(MODE_MAX, logAmount(10_000, 100, 100, 20_000, this.host.hash(j, 63)));
    this.ensureLz(member, amount, t);
    this.host.bill(member, 'LZ', BillType.pledgeLock, -amount, 0, 'pledge', id, `质押锁定 #${id}（${mode.name}）`, t);
    const terms = pledgeTerms(BigInt(amount), BigInt(mode.rate), mode.days);
    const p = this.p;
    const start = dayOf(t);
    p.member[j] = member;
    p.kind[j] = mode.id;
    p.amount[j] = amount;
    p.daily[j] = Number(terms.daily);
    p.total[j] = Number(terms.total);
    p.days[j] = mode.days;
    p.start[j] = start;
    p.paid[j] = start;
    p.created[j] = t;
    p.n = id;
    p.active.push(j);
    this.nextP = this.pledgeTime(this.pj);
  }

  private grant(t: number) {
    const j = this.sj++;
    const su = this.host.hash(j, 72);
    const source = su < 0.5 ? 1 : su < 0.8 ? 2 : 3;
    const { days } = weighted(SEED_DAYS, this.host.hash(j, 73));
    const total = logAmount(100, 1, 10, 1_000, this.host.hash(j, 74));
    const s = this.s;
    const start = dayOf(t);
    s.member[j] = this.host.memberAt(t);
    s.kind[j] = source;
    s.daily[j] = Number(seedTerms(BigInt(total), days).daily);
    s.total[j] = total;
    s.days[j] = days;
    s.start[j] = start;
    s.paid[j] = start;
    s.created[j] = t;
    s.ref[j] = source === 1 ? 100_000_000 + j + 1 : 0;
    s.n = j + 1;
    s.active.push(j);
    this.nextS = this.seedTime(this.sj);
  }

  private async match(t: number) {
    const j = this.mj++;
    const id = j + 1;
    const end = this.scale.end;
    const h = this.host;
    let seller = h.memberAt(t);
    for (let tries = 0; tries < 30 && h.held(seller, 'LZ') < 10_000; tries++) seller = h.memberAt(t);
    this.ensureLz(seller, 10_000, t);
    let buyer = h.memberAt(t);
    if (buyer === seller) buyer = seller === 1 ? 2 : seller - 1;
    const quantity = Math.max(
      10_000,
      Math.floor((h.held(seller, 'LZ') * (0.1 + 0.6 * this.host.hash(j, 82))) / 100) * 100,
    );
    const unitPrice = logAmount(1_000_000, 100, 0.2, 2, this.host.hash(j, 83));
    const total = Number(matchTotal(BigInt(quantity), BigInt(unitPrice)));
    h.bill(seller, 'LZ', BillType.matchFreeze, -quantity, quantity, 'match', id, `撮合冻结 #${id}`, t);

    // The fate: a function of the index and the time.
    const r = this.host.hash(j, 84);
    const paidAt = t + MIN + Math.floor(this.host.hash(j, 85) * 25 * MIN);
    let status: 1 | 2 | 3 | 4 | 5;
    let paid: number | null = null;
    let finished: number | null = null;
    let appealBy = 0;
    let reason = '';
    let remark = '';
    let arbiter = false;
    if (t > end - PAY_TIMEOUT) status = 1;
    else if (t > end - 2 * DAY && r < 0.35) {
      status = 2;
      paid = paidAt;
    } else if (r < 0.05 || (t > end - 2 * DAY && r < 0.45)) {
      status = 5;
      appealBy = this.host.hash(j, 86) < 0.5 ? 1 : 2;
      paid = appealBy === 2 || r < 0.03 ? paidAt : null;
      reason = appealBy === 1 ? '买家未付款却点了已付款' : '已付款，卖家迟迟不确认收款';
    } else if (r < 0.72) {
      const done = paidAt + MIN + Math.floor(this.host.hash(j, 87) * 3 * HOUR);
      if (done > end) {
        status = 2;
        paid = paidAt;
      } else {
        status = 3;
        paid = paidAt;
        finished = done;
      }
    } else {
      status = 4;
      const arbitrated = t + HOUR + Math.floor(this.host.hash(j, 88) * 20 * HOUR);
      if (r < 0.94 || arbitrated > end) {
        finished = t + PAY_TIMEOUT;
        remark = '超时未付款，系统取消';
      } else {
        finished = arbitrated;
        arbiter = true;
        remark = '买家未付款，仲裁取消';
      }
    }
    this.matchesByStatus[status] += 1;
    if (status === 3) {
      h.schedule(finished!, async () => {
        h.bill(seller, 'LZ', BillType.matchDeal, 0, -quantity, 'match', id, `撮合成交 #${id}（卖出）`, finished!);
        h.bill(buyer, 'LZ', BillType.matchDeal, quantity, 0, 'match', id, `撮合成交 #${id}（买入）`, finished!);
      });
    } else if (status === 4) {
      const why = arbiter ? remark : '超时未付款';
      h.schedule(finished!, async () =>
        h.bill(seller, 'LZ', BillType.matchCancel, quantity, -quantity, 'match', id, `撮合取消 #${id}：${why}`, finished!),
      );
    }
    this.matchRows.push([
      id,
      seller,
      buyer,
      quantity,
      unitPrice,
      total,
      h.payment(seller),
      paid ? `/uploads/proof/${id}.png` : '',
      status,
      reason,
      appealBy,
      remark,
      t + PAY_TIMEOUT,
      paid,
      finished,
      arbiter ? 1 : null,
      arbiter ? 'admin' : null,
      t,
      finished ?? (status === 5 ? (paid ?? t) + 10 * MIN : (paid ?? t)),
    ]);
    if (this.matchRows.length >= BATCH) await this.host.insert('match_trade', MATCH_COLUMNS, this.matchRows.splice(0));
    this.nextM = this.matchTime(this.mj);
  }

  private scheduleSettle(day: number) {
    this.host.schedule(dayStart(day + 1) + SETTLE_AT, () => this.settle(day));
  }

  /** The settlement of `day`, as settlement.service settleDay writes it: pledges, then seeds. */
  private async settle(day: number) {
    const t = dayStart(day + 1) + SETTLE_AT;
    const run: DayRun = { t, pledges: 0, pledgeYield: 0, pledgePrincipal: 0, seeds: 0, seedEnergy: 0 };
    const text = dateOfDay(day);
    for (const kind of ['pledge', 'seed'] as const) {
      const e = kind === 'pledge' ? this.p : this.s;
      const keep: number[] = [];
      const list = e.active;
      let i = 0;
      for (; i < list.length; i++) {
        const j = list[i];
        if (e.start[j] >= day) break;
        const end = e.start[j] + e.days[j];
        const amount = day < end ? e.daily[j] : e.total[j] - e.daily[j] * (e.days[j] - 1);
        const member = e.member[j];
        const id = j + 1;
        e.released[j] += amount;
        e.paid[j] = day;
        e.releases += 1;
        if (kind === 'pledge') {
          const principal = day === end ? e.amount[j] : 0;
          this.pledgeReleaseRows.push([e.releases, id, member, day, amount, principal, t]);
          if (amount > 0) this.host.bill(member, 'LZ', BillType.pledgeIncome, amount, 0, 'pledge', id, text, t);
          if (principal > 0) this.host.bill(member, 'LZ', BillType.pledgeRedeem, principal, 0, 'pledge', id, text, t);
          run.pledges += 1;
          run.pledgeYield += amount;
          run.pledgePrincipal += principal;
        } else {
          this.seedReleaseRows.push([e.releases, id, member, day, amount, t]);
          if (amount > 0) this.host.bill(member, 'ENERGY', BillType.seedRelease, amount, 0, 'seed', id, text, t);
          run.seeds += 1;
          run.seedEnergy += amount;
        }
        if (day === end) e.finished[j] = t;
        else keep.push(j);
        if ((i & 8191) === 8191) await this.flushReleases();
      }
      for (; i < list.length; i++) keep.push(list[i]);
      e.active = keep;
    }
    this.runs.push({ day, ...run });
    await this.flushReleases();
    if (day + 1 <= this.lastDay) this.scheduleSettle(day + 1);
  }

  private async flushReleases() {
    await this.host.flushBills();
    if (this.pledgeReleaseRows.length)
      await this.host.insert('pledge_release', PLEDGE_RELEASE_COLUMNS, this.pledgeReleaseRows.splice(0));
    if (this.seedReleaseRows.length)
      await this.host.insert('seed_release', SEED_RELEASE_COLUMNS, this.seedReleaseRows.splice(0));
  }

  /** After the replay: the records in their final state, the modes and the runs. */
  async finish(): Promise<EconomyTotals> {
    await this.flushReleases();
    if (this.matchRows.length) await this.host.insert('match_trade', MATCH_COLUMNS, this.matchRows.splice(0));
    const created = this.scale.end - SPAN - DAY;
    await this.host.insert(
      'pledge_mode',
      MODE_COLUMNS,
      PLEDGE_MODES.map((m) => [m.id, m.name, m.days, m.rate, MODE_MIN, MODE_MAX, 1, m.id, created, created]),
    );
    let rows: unknown[][] = [];
    let pledgesActive = 0;
    const p = this.p;
    for (let j = 0; j < p.n; j++) {
      const end = p.start[j] + p.days[j];
      const done = p.paid[j] === end;
      if (!done) pledgesActive++;
      const mode = PLEDGE_MODES[p.kind[j] - 1];
      rows.push([
        j + 1,
        p.member[j],
        mode.id,
        mode.name,
        p.amount[j],
        mode.rate,
        p.days[j],
        p.daily[j],
        p.total[j],
        p.start[j],
        end,
        p.paid[j],
        p.released[j],
        done ? 2 : 1,
        p.created[j],
        done ? p.finished[j] : null,
      ]);
      if (rows.length >= BATCH) await this.host.insert('pledge', PLEDGE_COLUMNS, rows.splice(0));
    }
    if (rows.length) await this.host.insert('pledge', PLEDGE_COLUMNS, rows.splice(0));
    let seedsActive = 0;
    const s = this.s;
    for (let j = 0; j < s.n; j++) {
      const end = s.start[j] + s.days[j];
      const done = s.paid[j] === end;
      if (!done) seedsActive++;
      const names = SEED_NAMES[s.kind[j]];
      rows.push([
        j + 1,
        s.member[j],
        names[j % names.length],
        s.kind[j],
        s.ref[j] || null,
        s.total[j],
        s.daily[j],
        s.days[j],
        s.start[j],
        end,
        s.paid[j],
        s.released[j],
        done ? 2 : 1,
        s.created[j],
        done ? s.finished[j] : null,
      ]);
      if (rows.length >= BATCH) await this.host.insert('seed', SEED_COLUMNS, rows.splice(0));
    }
    if (rows.length) await this.host.insert('seed', SEED_COLUMNS, rows.splice(0));
    rows = this.runs.map((r) => [
      r.day,
      2,
      'bench:data',
      r.t + MIN,
      r.t,
      r.t + MIN,
      r.pledges,
      r.pledgeYield,
      r.pledgePrincipal,
      r.seeds,
      r.seedEnergy,
      0,
      '',
    ]);
    if (rows.length) await this.host.insert('settlement_run', RUN_COLUMNS, rows);
    return {
      pledgeModes: PLEDGE_MODES.length,
      pledges: p.n,
      pledgesActive,
      pledgeReleases: p.releases,
      seeds: s.n,
      seedsActive,
      seedReleases: s.releases,
      matches: this.mj,
      matchesByStatus: { ...this.matchesByStatus },
      settledDays: this.runs.length,
      settledThrough: this.runs.length ? dateOfDay(this.runs[this.runs.length - 1].day) : '',
      pledgeWindowDays: this.pledgeWindow,
      seedWindowDays: this.seedWindow,
    };
  }
}
