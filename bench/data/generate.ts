/**
 * The bulk data set, deterministic for a seed: zones, members, their accounts and bills, deposits,
 * withdrawals, transfers and payment methods, as rows handed to sinks (bench/data/sinks.ts).
 *
 * The ledger invariant holds by construction. All money events are replayed in time order over
 * in-memory balances (one slot per member × asset): a debit is a part of what the account holds (or
 * turns into a credit when it holds too little), a frozen amount is released only by the event that
 * froze it (a withdrawal's payment or rejection, a match's deal or cancel), and every bill carries the
 * balances after it. The accounts are written last, from the final balances, so for every account
 * sum(change) = available and sum(frozen_change) = frozen, and no running sum ever goes below zero.
 *
 * Time: members sign up evenly over two years before `end` (ids in signup order); activity grows with
 * the number of members, so money events are spread with density ∝ time (CDF ∝ x²) and bill ids follow
 * time. An event picks a member who already exists; 2% go to the first ten members (busy accounts).
 * Withdrawals of the last five days are mostly still 待审核 / 待打款, so there is a queue to approve.
 */
import { Assets, type Asset } from '../../domain/assets';
import { BillType, BillTypeLabels } from '../../domain/bills';
import { Economy, type EconomyHost, type EconomyTotals } from './economy';
import { Mall, type MallTotals } from './mall';

export interface Scale {
  members: number;
  bills: number;
  deposits: number;
  withdrawals: number;
  payments: number;
  zones: number;
  seed: number;
  /** Newest time of the data set (epoch ms); everything happens in the two years before it. */
  end: number;
  /** The LZ economy (bench/data/economy.ts), written when Targets.economy is given: records and releases. */
  pledges?: number;
  seeds?: number;
  matches?: number;
  releases?: number;
  /** The mall (bench/data/mall.ts), written when Targets.mall is given. */
  products?: number;
  orders?: number;
}

/** Where rows go: one table, its column names, rows in that column order. */
export interface RowSink {
  insert(table: string, columns: string[], rows: unknown[][]): Promise<void>;
}

/** Record rows (deposits, withdrawals, transfers, payment methods) as objects keyed by column. */
export type RecordSink = (rows: object[]) => Promise<void>;

export interface Targets {
  zones: RowSink;
  members: RowSink;
  accounts: RowSink;
  bills: RowSink;
  deposits?: RecordSink;
  withdrawals?: RecordSink;
  transfers?: RecordSink;
  /** Pledge modes, pledges, seeds, their releases, matches and settlement runs (bench/data/economy.ts). */
  economy?: RowSink;
  /** Products, their SKUs and orders (bench/data/mall.ts). */
  mall?: RowSink;
  progress?: (what: string, done: number, total: number) => void;
}

export interface Totals {
  zones: number;
  members: number;
  accounts: number;
  bills: number;
  deposits: number;
  withdrawals: number;
  transfers: number;
  pendingWithdrawals: number;
  economy?: EconomyTotals;
  mall?: MallTotals;
}

export const DAY = 86_400_000;
export const SPAN = 730 * DAY;
const BATCH = 10_000;

/** mulberry32: small, fast, good enough for test data. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Stateless hash of (seed, i, salt) to [0, 1): the fate of record i does not depend on the order of events. */
export function hash01(seed: number, i: number, salt: number): number {
  let h = Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(i | 0, 0xc2b2ae35) ^ Math.imul(salt + 0x27d4eb2f, 0x165667b1);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  h = Math.imul(h ^ (i >>> 16), 0x27d4eb2f);
  h ^= h >>> 15;
  return (h >>> 0) / 4294967296;
}

// ---------------------------------------------------------------------------------------------
// Members

const SURNAMES =
  '王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤欧阳';
const GIVEN =
  '伟芳娜秀英敏静丽强磊军洋勇艳杰娟涛明超兰霞平刚桂华玉萍红玲芬燕彩春菊凤洁梅琳云莲真雪荣爱香月媛瑞凡佳嘉琼勤珍莉叶璐琦晶妍茜秋珊锦青倩婷婉瑾颖露瑶怡丹蓉君琴蕊薇梦岚馨韵悦昭冰爽茗羽希宁欣晓欢枫芸菲伊宜舒浩宇轩然子涵博文俊鹏辉鑫帅志航晨阳睿泽天宏斌飞';
const ADJ = ['快乐的', '安静的', '勇敢的', '可爱的', '孤独的', '微笑的', '奔跑的', '发光的', '沉默的', '自由的'];
const NOUN = ['小猫', '星辰', '飞鸟', '少年', '阿狸', '大白', '鲸鱼', '麦田', '清风', '明月', '橘子', '蜗牛', '行者'];
const WORDS = ['财富自由', '稳稳的幸福', '追梦人', '一路向北', '花开富贵', '好运连连', '平安是福', '天道酬勤', '知足常乐'];

/** 40 mainland mobile prefixes; 138 alone takes 10% of members (the bench's "phone prefix" filter). */
const PHONE_PREFIXES = [
  '130', '131', '132', '133', '134', '135', '136', '137', '139', '150', '151', '152', '153', '155', '156', '157', '158',
  '159', '166', '170', '171', '173', '175', '176', '177', '178', '180', '181', '182', '183', '184', '185', '186', '187',
  '188', '189', '191', '198', '199',
]; // prettier-ignore

const pick = <T>(xs: readonly T[], u: number): T => xs[Math.min(xs.length - 1, Math.floor(u * xs.length))];

/** 8 digits, unique: a bijection of id onto 10000000..99999999. */
export const uidOf = (id: number) => String(10_000_000 + ((id * 48_271 + 1_234_567) % 90_000_000));

/** 11 digits, unique: a prefix and a bijection of id onto 8 digits. */
export function phoneOf(seed: number, id: number): string {
  const u = hash01(seed, id, 11);
  const prefix = u < 0.1 ? '138' : pick(PHONE_PREFIXES, (u - 0.1) / 0.9);
  return prefix + String((id * 7_919 + 31_415_926) % 100_000_000).padStart(8, '0');
}

export function nicknameOf(seed: number, id: number): string {
  const u = hash01(seed, id, 12);
  const a = hash01(seed, id, 13);
  const b = hash01(seed, id, 14);
  if (u < 0.55) {
    const surname = a < 0.02 ? '欧阳' : SURNAMES[Math.floor(a * (SURNAMES.length - 2))];
    return surname + GIVEN[Math.floor(b * GIVEN.length)] + (u < 0.3 ? GIVEN[Math.floor(hash01(seed, id, 15) * GIVEN.length)] : '');
  }
  if (u < 0.75) return pick(ADJ, a) + pick(NOUN, b);
  if (u < 0.85) return pick(WORDS, a) + (b < 0.5 ? String(Math.floor(b * 2000)) : '');
  return `用户${uidOf(id).slice(2)}`;
}

/** Member i (1-based) signs up at an even pace over the span. */
export const createdOf = (scale: Scale, id: number) =>
  scale.end - SPAN + Math.floor(((id - 1) * SPAN) / Math.max(1, scale.members));

/** How many members exist at time t (members 1..M). */
function membersAt(scale: Scale, t: number): number {
  let m = Math.min(scale.members, Math.floor(((t - (scale.end - SPAN)) * scale.members) / SPAN) + 1);
  while (m > 1 && createdOf(scale, m) > t) m--;
  return Math.max(1, m);
}

/** A plausible real name (payment method holders). */
export function realNameOf(seed: number, id: number): string {
  const a = hash01(seed, id, 16);
  const surname = a < 0.02 ? '欧阳' : SURNAMES[Math.floor(a * (SURNAMES.length - 2))];
  const g = (salt: number) => GIVEN[Math.floor(hash01(seed, id, salt) * GIVEN.length)];
  return surname + g(17) + (hash01(seed, id, 18) < 0.6 ? g(19) : '');
}

const ZONE_REGIONS = ['华东', '华南', '华北', '华中', '西南', '西北', '东北', '港澳', '海外', '总部'];
const zoneNameOf = (i: number) =>
  `${ZONE_REGIONS[(i - 1) % ZONE_REGIONS.length]}${Math.floor((i - 1) / ZONE_REGIONS.length) + 1}区`;

// ---------------------------------------------------------------------------------------------
// Addresses and hashes

const B58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const HEX = '0123456789abcdef';

function chars(seed: number, i: number, salt: number, alphabet: string, n: number): string {
  let s = '';
  for (let k = 0; k < n; k++) s += alphabet[Math.floor(hash01(seed, i, salt * 131 + k) * alphabet.length)];
  return s;
}
export const trc20 = (seed: number, i: number, salt: number) => `T${chars(seed, i, salt, B58, 33)}`;
export const erc20 = (seed: number, i: number, salt: number) => `0x${chars(seed, i, salt, HEX, 40)}`;
/** A transaction hash unique per (i, salt): the index is spelled into its first 8 hex digits. */
const txHash = (seed: number, i: number, salt: number) =>
  (salt * 0x1000000 + i).toString(16).padStart(10, '0') + chars(seed, i, salt, HEX, 54);

// ---------------------------------------------------------------------------------------------
// Amounts (minor units as JS numbers: every value stays far below 2^53, so they are exact)

const UNIT: Record<Asset, number> = { USDT: 1_000_000, LZ: 10_000, ENERGY: 100 };
/** Amounts are whole cents of USDT, whole LZ hundredths, whole ENERGY hundredths. */
const STEP: Record<Asset, number> = { USDT: 10_000, LZ: 100, ENERGY: 1 };

/** Log-uniform amount between lo and hi whole units, rounded to the asset's step. */
function logAmount(asset: Asset, lo: number, hi: number, u: number): number {
  const x = lo * Math.pow(hi / lo, u) * UNIT[asset];
  return Math.max(STEP[asset], Math.round(x / STEP[asset]) * STEP[asset]);
}
/** A part (5–60%) of what an account holds, rounded down to the step; 0 when that is nothing. */
function partOf(asset: Asset, held: number, u: number): number {
  return Math.floor((held * (0.05 + 0.55 * u)) / STEP[asset]) * STEP[asset];
}

const ASSET_INDEX: Record<Asset, number> = { USDT: 0, LZ: 1, ENERGY: 2 };

// ---------------------------------------------------------------------------------------------
// A binary heap of scheduled events by time

interface Scheduled {
  t: number;
  /** Scheduled bills of deposits and withdrawals are counted up front ("linked"); others use the budget. */
  linked: boolean;
  kind: 'deposit' | 'withdrawPaid' | 'withdrawReject' | 'matchDeal' | 'matchCancel' | 'pledgeRedeem' | 'economy';
  member: number;
  asset: Asset;
  amount: number;
  ref: number;
  other?: number;
  /** kind 'economy': what the economy does at t (a settlement, a match's deal or cancel). */
  run?: () => Promise<void>;
}

class Heap {
  private a: Scheduled[] = [];
  get size() {
    return this.a.length;
  }
  peek() {
    return this.a[0];
  }
  push(x: Scheduled) {
    const a = this.a;
    a.push(x);
    let i = a.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (a[p].t <= x.t) break;
      a[i] = a[p];
      i = p;
    }
    a[i] = x;
  }
  pop(): Scheduled | undefined {
    const a = this.a;
    const top = a[0];
    const last = a.pop();
    if (a.length && last) {
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= a.length) break;
        const r = l + 1;
        const c = r < a.length && a[r].t < a[l].t ? r : l;
        if (a[c].t >= last.t) break;
        a[i] = a[c];
        i = c;
      }
      a[i] = last;
    }
    return top;
  }
}

// ---------------------------------------------------------------------------------------------
// Fates of deposits and withdrawals: functions of the index alone, so their bills can be counted first

const MIN = 60_000;
const HOUR = 3_600_000;

/** Time of record j of n in a stream whose density grows with time. */
const streamTime = (scale: Scale, j: number, n: number, u: number) =>
  scale.end - SPAN + Math.floor(SPAN * Math.sqrt(Math.min(1, (j + u) / n)));

interface DepositFate {
  t: number;
  status: 0 | 1 | 2;
  auditedAt: number | null;
}
function depositFate(scale: Scale, j: number): DepositFate {
  const t = streamTime(scale, j, scale.deposits, hash01(scale.seed, j, 21));
  const r = hash01(scale.seed, j, 22);
  const audited = t + MIN + Math.floor(hash01(scale.seed, j, 23) * 6 * HOUR);
  if (audited > scale.end) return { t, status: 0, auditedAt: null };
  return { t, status: r < 0.93 ? 1 : 2, auditedAt: audited };
}

interface WithdrawFate {
  t: number;
  type: 1 | 2;
  status: 0 | 1 | 2 | 3;
  auditedAt: number | null;
  paidAt: number | null;
  /** Time of the second bill (paid or rejected), null when it has none yet. */
  resolvedAt: number | null;
}
function withdrawFate(scale: Scale, j: number): WithdrawFate {
  const s = scale.seed;
  const t = streamTime(scale, j, scale.withdrawals, hash01(s, j, 31));
  const type = hash01(s, j, 32) < 0.6 ? 1 : 2;
  const r = hash01(s, j, 33);
  const none = { auditedAt: null, paidAt: null, resolvedAt: null };
  if (t > scale.end - 5 * DAY && r < 0.85) {
    // The recent queue: mostly untouched, some approved and waiting for payment.
    return r < 0.7
      ? { t, type, status: 0, ...none }
      : { t, type, status: 1, auditedAt: t + 10 * MIN, paidAt: null, resolvedAt: null };
  }
  const audited = t + 5 * MIN + Math.floor(hash01(s, j, 34) * 24 * HOUR);
  if (audited > scale.end) return { t, type, status: 0, ...none };
  if (hash01(s, j, 35) < 0.1) return { t, type, status: 3, auditedAt: audited, paidAt: null, resolvedAt: audited };
  const paid = audited + 5 * MIN + Math.floor(hash01(s, j, 36) * 12 * HOUR);
  if (paid > scale.end) return { t, type, status: 1, auditedAt: audited, paidAt: null, resolvedAt: null };
  return { t, type, status: 2, auditedAt: audited, paidAt: paid, resolvedAt: paid };
}

// ---------------------------------------------------------------------------------------------

export const MEMBER_COLUMNS = [
  'id', 'uid', 'phone', 'nickname', 'password_hash', 'inviter_id', 'zone_id', 'level', 'status', 'real_name_status',
  'created_at', 'last_login_at',
]; // prettier-ignore
export const BILL_COLUMNS = [
  'id', 'member_id', 'asset', 'type', 'change', 'available_after', 'frozen_change', 'frozen_after', 'ref_kind', 'ref_id',
  'remark', 'created_at',
]; // prettier-ignore
export const ACCOUNT_COLUMNS = ['member_id', 'asset', 'available', 'frozen', 'updated_at'];
export const ZONE_COLUMNS = ['id', 'name', 'leader_uid', 'status', 'sort', 'member_count', 'created_at', 'updated_at'];

const LEVEL_CDF = [0.7, 0.85, 0.93, 0.97, 0.99, 1];
const FEE_RATE = 0.005;
const FEE_MIN: Record<'USDT' | 'LZ', number> = { USDT: 1_000_000, LZ: 10_000 };
const WITHDRAW_MIN: Record<'USDT' | 'LZ', number> = { USDT: 10_000_000, LZ: 100_000 };

export async function generate(scale: Scale, passwordHash: string, out: Targets): Promise<Totals> {
  const N = scale.members;
  const seed = scale.seed;
  const start = scale.end - SPAN;
  const rand = rng(seed);
  const progress = out.progress ?? (() => undefined);

  // ---- members (and the zone of each, counted for the zones written at the end)
  // The one path that writes member rows past members.service's createMembers: a million members
  // through it would take hours (one INSERT, three accounts and two counter upserts each); this bulk
  // load writes plain rows, and bench/data.ts rebuilds member_count after (rebuildMemberCounts).
  const Z = Math.max(1, scale.zones);
  const zoneCount = new Int32Array(Z + 1);
  const zoneLeader = new Int32Array(Z + 1);
  let rows: unknown[][] = [];
  for (let id = 1; id <= N; id++) {
    const created = createdOf(scale, id);
    const zu = hash01(seed, id, 1);
    // 85% of members are in a zone; zones are unequal (the square skews towards the first ones).
    const zone = zu < 0.85 ? 1 + Math.floor(Math.pow(zu / 0.85, 2) * Z) : null;
    if (zone) {
      zoneCount[zone]++;
      if (!zoneLeader[zone]) zoneLeader[zone] = id;
    }
    const lu = hash01(seed, id, 2);
    let level = 0;
    while (lu >= LEVEL_CDF[level]) level++;
    const su = hash01(seed, id, 3);
    const login = hash01(seed, id, 5);
    rows.push([
      id,
      uidOf(id),
      phoneOf(seed, id),
      nicknameOf(seed, id),
      passwordHash,
      id > 1 && hash01(seed, id, 4) < 0.75 ? 1 + Math.floor(hash01(seed, id, 6) * (id - 1)) : null,
      zone,
      level,
      su < 0.95 ? 1 : su < 0.98 ? 2 : 3,
      hash01(seed, id, 7) < 0.6 ? 1 : 0,
      created,
      login < 0.8 ? created + Math.floor((scale.end - created) * Math.sqrt(hash01(seed, id, 8))) : null,
    ]);
    if (rows.length === BATCH) {
      await out.members.insert('member', MEMBER_COLUMNS, rows);
      rows = [];
    }
    if (id % 250_000 === 0) progress('members', id, N);
  }
  if (rows.length) await out.members.insert('member', MEMBER_COLUMNS, rows);
  progress('members', N, N);

  // ---- money events in time order
  const avail = new Float64Array(N * 3);
  const frozen = new Float64Array(N * 3);
  const touched = new Float64Array(N * 3);
  const heap = new Heap();

  // Count the bills of deposits and withdrawals first: the rest of the bill budget is "other" activity.
  let linked = 0;
  for (let j = 0; j < scale.deposits; j++) if (depositFate(scale, j).status === 1) linked++;
  let pendingWithdrawals = 0;
  for (let j = 0; j < scale.withdrawals; j++) {
    const f = withdrawFate(scale, j);
    linked += f.resolvedAt ? 2 : 1;
    if (f.status === 0 && f.type === 1) pendingWithdrawals++;
  }
  const otherBudget = Math.max(0, scale.bills - linked);

  let billId = 0;
  let otherDone = 0;
  let transferId = 0;
  let bills: unknown[][] = [];
  let deposits: object[] = [];
  let withdrawals: object[] = [];
  const transfers: object[] = [];
  let nextReport = 1_000_000;

  const flushBills = async () => {
    if (bills.length) await out.bills.insert('bill', BILL_COLUMNS, bills);
    bills = [];
  };
  const bill = (
    member: number,
    asset: Asset,
    type: number,
    change: number,
    frozenChange: number,
    refKind: string,
    refId: number | null,
    remark: string,
    t: number,
  ) => {
    const k = (member - 1) * 3 + ASSET_INDEX[asset];
    const a = avail[k] + change;
    const f = frozen[k] + frozenChange;
    if (a < 0 || f < 0) throw new Error(`generator bug: ${asset} of member ${member} would go negative`);
    avail[k] = a;
    frozen[k] = f;
    touched[k] = t;
    bills.push([++billId, member, asset, type, change, a, frozenChange, f, refKind, refId, remark, t]);
    if (billId >= nextReport) {
      progress('bills', billId, scale.bills);
      nextReport += 1_000_000;
    }
  };
  const held = (member: number, asset: Asset) => avail[(member - 1) * 3 + ASSET_INDEX[asset]];

  /** A member who exists at t; 2% of events go to the first ten (busy accounts). */
  const memberAt = (t: number) => {
    const m = membersAt(scale, t);
    return rand() < 0.02 ? 1 + Math.floor(rand() * Math.min(10, m)) : 1 + Math.floor(rand() * m);
  };

  // The LZ economy and the mall: their records are real rows, so the other activity below makes none of
  // their bills. Both take part in the replay through the same host.
  const host: Omit<EconomyHost, 'insert'> = {
      bill,
    held,
    memberAt,
    rand,
    schedule: (t, run) =>
      heap.push({ t, linked: true, kind: 'economy', member: 0, asset: 'LZ', amount: 0, ref: 0, run }),
    flushBills,
    hash: (i, salt) => hash01(seed, i, salt),
    payment: (member) =>
      JSON.stringify({
        type: 2,
        name: realNameOf(seed ^ 0x5bd1e995, member),
        account: phoneOf(seed, member),
        bank: '',
        qrUrl: `/uploads/qr/${uidOf(member)}-2.png`,
      }),
  };
  const eco =
    out.economy && (scale.pledges || scale.seeds || scale.matches)
      ? new Economy(
          {
            seed,
            end: scale.end,
            members: N,
            pledges: scale.pledges ?? 0,
            seeds: scale.seeds ?? 0,
            matches: scale.matches ?? 0,
            releases: scale.releases ?? 5 * ((scale.pledges ?? 0) + (scale.seeds ?? 0)),
          },
          { ...host, insert: (table, columns, rows) => out.economy!.insert(table, columns, rows) },
        )
      : null;
  const mall =
    out.mall && scale.products && scale.orders
      ? new Mall(
          {
            end: scale.end,
            products: scale.products,
            orders: scale.orders,
            buyer: (member) => [uidOf(member), phoneOf(scale.seed, member), nicknameOf(scale.seed, member)] as const,
          },
          { ...host, insert: (table, columns, rows) => out.mall!.insert(table, columns, rows) },
        )
      : null;

  let dj = 0;
  let wj = 0;
  let nextDeposit = scale.deposits ? depositFate(scale, 0) : null;
  let nextWithdraw = scale.withdrawals ? withdrawFate(scale, 0) : null;
  const otherTime = () =>
    otherDone >= otherBudget ? Infinity : start + Math.floor(SPAN * Math.sqrt((otherDone + 0.5) / otherBudget));

  for (;;) {
    if (bills.length >= BATCH) await flushBills();
    const tOther = otherTime();
    const tDep = nextDeposit ? nextDeposit.t : Infinity;
    const tWd = nextWithdraw ? nextWithdraw.t : Infinity;
    let top = heap.peek();
    // Scheduled events past the end, or unlinked ones once the budget is spent, never happen.
    while (top && (top.t > scale.end || (!top.linked && otherDone >= otherBudget))) {
      heap.pop();
      top = heap.peek();
    }
    const tHeap = top ? top.t : Infinity;
    const tEco = eco ? eco.nextTime() : Infinity;
    const tMall = mall ? mall.nextTime() : Infinity;
    const t = Math.min(tOther, tDep, tWd, tHeap, tEco, tMall);
    if (t === Infinity) break;

    if (t === tHeap) {
      const e = heap.pop()!;
      if (e.kind === 'economy') {
        await e.run!();
      } else if (e.kind === 'deposit') {
        bill(e.member, 'USDT', BillType.deposit, e.amount, 0, 'deposit', e.ref, `充值 #${e.ref}`, e.t);
      } else if (e.kind === 'withdrawPaid' || e.kind === 'withdrawReject') {
        const label = e.asset === 'USDT' ? '提现' : '提取';
        if (e.kind === 'withdrawPaid')
          bill(e.member, e.asset, BillType.withdrawSuccess, 0, -e.amount, 'withdrawal', e.ref, `${label}成功 #${e.ref}`, e.t);
        else
          bill(e.member, e.asset, BillType.withdrawReject, e.amount, -e.amount, 'withdrawal', e.ref, `${label}驳回 #${e.ref}：信息有误`, e.t);
      } else if (e.kind === 'matchDeal' && otherBudget - otherDone >= 2) {
        otherDone += 2;
        bill(e.member, e.asset, BillType.matchDeal, 0, -e.amount, 'match', e.ref, '撮合成交', e.t);
        bill(e.other!, e.asset, BillType.matchDeal, e.amount, 0, 'match', e.ref, '撮合成交', e.t);
      } else if (e.kind === 'matchDeal' || e.kind === 'matchCancel') {
        otherDone++;
        bill(e.member, e.asset, BillType.matchCancel, e.amount, -e.amount, 'match', e.ref, '撮合取消', e.t);
      } else {
        otherDone++;
        bill(e.member, e.asset, BillType.pledgeRedeem, e.amount, 0, 'pledge', e.ref, '质押赎回', e.t);
      }
      continue;
    }

    if (t === tDep) {
      const f = nextDeposit!;
      const id = dj + 1;
      const member = memberAt(f.t);
      const amount = logAmount('USDT', 10, 5_000, hash01(seed, dj, 24));
      const erc = hash01(seed, dj, 25) < 0.3;
      deposits.push({
        id,
        member_id: member,
        chain: erc ? 'ERC20' : 'TRC20',
        from_address: erc ? erc20(seed, dj, 26) : trc20(seed, dj, 26),
        to_address: erc ? erc20(seed, dj % 3, 27) : trc20(seed, dj % 3, 27),
        amount,
        tx_hash: erc ? `0x${txHash(seed, id, 1)}` : txHash(seed, id, 1),
        proof_url: '',
        status: f.status,
        remark: f.status === 2 ? '未查到到账记录' : '',
        auditor_id: f.auditedAt ? 1 : null,
        auditor_name: f.auditedAt ? 'admin' : null,
        audited_at: f.auditedAt,
        created_at: f.t,
      });
      if (f.status === 1)
        heap.push({ t: f.auditedAt!, linked: true, kind: 'deposit', member, asset: 'USDT', amount, ref: id });
      if (deposits.length === BATCH && out.deposits) await out.deposits(deposits.splice(0));
      else if (!out.deposits) deposits = [];
      dj++;
      nextDeposit = dj < scale.deposits ? depositFate(scale, dj) : null;
      continue;
    }

    if (t === tWd) {
      const f = nextWithdraw!;
      const id = wj + 1;
      const asset = f.type === 1 ? 'USDT' : 'LZ';
      const min = WITHDRAW_MIN[asset];
      // Somebody who holds enough; if nobody turns up, the platform credits an activity reward first.
      let member = memberAt(f.t);
      for (let tries = 0; tries < 30 && held(member, asset) < min; tries++) member = memberAt(f.t);
      if (held(member, asset) < min) {
        otherDone++;
        bill(member, asset, BillType.adminAdjust, min * 10, 0, 'adjust', null, '活动奖励', f.t);
      }
      const part = Math.floor((held(member, asset) * (0.2 + 0.7 * hash01(seed, wj, 37))) / STEP[asset]) * STEP[asset];
      const amount = Math.max(min, part);
      const fee = Math.max(FEE_MIN[asset], Math.floor((amount * FEE_RATE) / STEP[asset]) * STEP[asset]);
      const label = f.type === 1 ? '提现' : '提取';
      bill(member, asset, BillType.withdrawFreeze, -amount, amount, 'withdrawal', id, `${label}冻结 #${id}`, f.t);
      if (f.resolvedAt) {
        heap.push({
          t: f.resolvedAt,
          linked: true,
          kind: f.status === 2 ? 'withdrawPaid' : 'withdrawReject',
          member,
          asset,
          amount,
          ref: id,
        });
      }
      const erc = f.type === 1 && hash01(seed, wj, 38) < 0.3;
      withdrawals.push({
        id,
        member_id: member,
        type: f.type,
        asset,
        amount,
        fee,
        actual: amount - fee,
        chain: erc ? 'ERC20' : 'TRC20',
        address: erc ? erc20(seed, member, 39) : trc20(seed, member, 39),
        status: f.status,
        tx_hash: f.status === 2 ? txHash(seed, id, 2) : null,
        remark: f.status === 3 ? '信息有误' : '',
        auditor_id: f.auditedAt ? 1 : null,
        auditor_name: f.auditedAt ? 'admin' : null,
        audited_at: f.auditedAt,
        paid_at: f.paidAt,
        created_at: f.t,
      });
      if (withdrawals.length === BATCH && out.withdrawals) await out.withdrawals(withdrawals.splice(0));
      else if (!out.withdrawals) withdrawals = [];
      wj++;
      nextWithdraw = wj < scale.withdrawals ? withdrawFate(scale, wj) : null;
      continue;
    }

    if (t === tEco) {
      await eco!.step();
      continue;
    }

    if (t === tMall) {
      await mall!.step();
      continue;
    }

    // ---- other activity: one event, one or two bills
    const member = memberAt(t);
    const au = rand();
    const asset: Asset = au < 0.45 ? 'USDT' : au < 0.85 ? 'LZ' : 'ENERGY';
    const h = held(member, asset);
    const k = rand();
    const left = otherBudget - otherDone;
    if (asset === 'ENERGY') {
      const part = partOf(asset, h, rand());
      otherDone++;
      if (k < 0.55 || part === 0) {
        const amount = logAmount(asset, 1, 200, rand());
        if (eco) bill(member, asset, BillType.adminAdjust, amount, 0, 'adjust', null, '活动奖励', t);
        else bill(member, asset, BillType.seedRelease, amount, 0, 'seed', null, BillTypeLabels[10], t);
      } else if (k < 0.9) {
        bill(member, asset, BillType.energyConsume, -part, 0, 'energy', null, BillTypeLabels[17], t);
      } else {
        bill(member, asset, BillType.mallPurchase, -part, 0, 'mall', null, BillTypeLabels[11], t);
      }
      continue;
    }
    const part = partOf(asset, h, rand());
    if (k < 0.15 && part > 0 && left >= 2) {
      // Transfer (docs/decisions.md "Transfer fee"): 1% rounded up to the minor unit, paid by the sender
      // on top; the receiver gets the amount. A part is at most 60% of the balance, so amount + fee fits.
      let to = memberAt(t);
      if (to === member) to = member === 1 ? 2 : member - 1;
      if (to >= 1 && to <= N && to !== member) {
        const amount = part;
        const fee = Math.ceil(amount / 100);
        const id = ++transferId;
        otherDone += 2;
        bill(member, asset, BillType.transferOut, -(amount + fee), 0, 'transfer', id, `转账给 ${uidOf(to)}`, t);
        bill(to, asset, BillType.transferIn, amount, 0, 'transfer', id, `来自 ${uidOf(member)}`, t);
        if (out.transfers) {
          transfers.push({ id, from_member_id: member, to_member_id: to, asset, amount, fee, created_at: t });
          if (transfers.length === BATCH) await out.transfers(transfers.splice(0));
        }
        continue;
      }
    }
    otherDone++;
    if (!eco && k < 0.3 && part > 0) {
      // A match order: LZ or USDT frozen, dealt (another member receives it) or cancelled later.
      const ref = billId + 1;
      bill(member, asset, BillType.matchFreeze, -part, part, 'match', ref, '撮合冻结', t);
      heap.push({
        t: t + MIN + Math.floor(rand() * 6 * HOUR),
        linked: false,
        kind: rand() < 0.7 ? 'matchDeal' : 'matchCancel',
        member,
        asset,
        amount: part,
        ref,
        other: memberAt(t),
      });
    } else if (!eco && asset === 'LZ' && k < 0.45 && part > 0) {
      const ref = billId + 1;
      bill(member, asset, BillType.pledgeLock, -part, 0, 'pledge', ref, '质押锁定', t);
      heap.push({
        t: t + (7 + Math.floor(rand() * 173)) * DAY,
        linked: false,
        kind: 'pledgeRedeem',
        member,
        asset,
        amount: part,
        ref,
      });
    } else if (!eco && asset === 'LZ' && k < 0.75) {
      bill(member, asset, BillType.pledgeIncome, logAmount(asset, 0.5, 500, rand()), 0, 'pledge', null, '质押收益', t);
    } else if (asset === 'USDT' && k < 0.55 && part > 0) {
      bill(member, asset, BillType.mallPurchase, -part, 0, 'mall', null, '商城消费', t);
    } else if (asset === 'USDT' && k < 0.6) {
      bill(member, asset, BillType.mallRefund, logAmount(asset, 1, 300, rand()), 0, 'mall', null, '商城退款', t);
    } else if (k < 0.85 || part === 0) {
      bill(member, asset, BillType.adminAdjust, logAmount(asset, 1, 2_000, rand()), 0, 'adjust', null, '活动奖励', t);
    } else {
      bill(member, asset, BillType.adminAdjust, -part, 0, 'adjust', null, '后台扣减', t);
    }
  }
  await flushBills();
  const economy = eco ? await eco.finish() : undefined;
  const mallTotals = mall ? await mall.finish() : undefined;
  if (out.deposits && deposits.length) await out.deposits(deposits);
  if (out.withdrawals && withdrawals.length) await out.withdrawals(withdrawals);
  if (out.transfers && transfers.length) await out.transfers(transfers);
  progress('bills', billId, scale.bills);

  // ---- accounts from the final balances
  rows = [];
  for (let id = 1; id <= N; id++) {
    const created = createdOf(scale, id);
    for (const asset of Assets) {
      const k = (id - 1) * 3 + ASSET_INDEX[asset];
      rows.push([id, asset, avail[k], frozen[k], touched[k] || created]);
    }
    if (rows.length >= BATCH) {
      await out.accounts.insert('account', ACCOUNT_COLUMNS, rows);
      rows = [];
    }
  }
  if (rows.length) await out.accounts.insert('account', ACCOUNT_COLUMNS, rows);
  progress('accounts', N * 3, N * 3);

  // ---- zones, with their member counts
  rows = [];
  for (let z = 1; z <= Z; z++) {
    const created = start - (Z - z + 1) * DAY;
    rows.push([
      z,
      zoneNameOf(z),
      zoneLeader[z] ? uidOf(zoneLeader[z]) : null,
      z % 10 === 0 ? 0 : 1,
      z,
      zoneCount[z],
      created,
      created,
    ]);
  }
  await out.zones.insert('zone', ZONE_COLUMNS, rows);

  return {
    zones: Z,
    members: N,
    accounts: N * 3,
    bills: billId,
    deposits: scale.deposits,
    withdrawals: scale.withdrawals,
    transfers: transferId,
    pendingWithdrawals,
    ...(economy ? { economy } : {}),
    ...(mallTotals ? { mall: mallTotals } : {}),
  };
}

// ---------------------------------------------------------------------------------------------
// Payment methods

const BANKS = ['中国工商银行', '中国建设银行', '中国农业银行', '中国银行', '招商银行', '交通银行', '中国邮政储蓄银行', '兴业银行'];
const CITIES = ['北京', '上海', '广州', '深圳', '杭州', '成都', '武汉', '南京', '西安', '重庆'];

export async function generatePayments(
  scale: Scale,
  count: number,
  sink: RecordSink,
  progress?: (done: number, total: number) => void,
): Promise<number> {
  const s = scale.seed ^ 0x5bd1e995;
  let rows: object[] = [];
  for (let id = 1; id <= count; id++) {
    // In time order (ids follow time, as the list pages newest first by id), by a member who exists then.
    const created = streamTime(scale, id - 1, count, hash01(s, id, 2));
    const member = 1 + Math.floor(hash01(s, id, 1) * membersAt(scale, created));
    const tu = hash01(s, id, 3);
    const type = tu < 0.4 ? 1 : tu < 0.7 ? 2 : tu < 0.9 ? 3 : 4;
    const su = hash01(s, id, 4);
    // Still 待审核 when recent; otherwise mostly approved.
    const recent = created > scale.end - 3 * DAY;
    const status = recent && su < 0.8 ? 0 : su < 0.8 ? 1 : su < 0.9 ? 2 : 3;
    const audited = status === 0 ? null : Math.min(scale.end, created + Math.floor(hash01(s, id, 5) * 2 * DAY));
    const holder = realNameOf(s, member);
    const digits = `6222${String(Math.floor(hash01(s, id, 6) * 1e12)).padStart(12, '0')}${String(id % 1000).padStart(3, '0')}`;
    rows.push({
      id,
      member_id: member,
      type,
      holder,
      account:
        type === 1
          ? digits
          : type === 2
            ? phoneOf(scale.seed, member)
            : type === 3
              ? `wx_${uidOf(member)}`
              : trc20(s, id, 7),
      bank: type === 1 ? BANKS[id % BANKS.length] : '',
      branch: type === 1 ? `${CITIES[id % CITIES.length]}分行` : '',
      qr_url: type === 2 || type === 3 ? `/uploads/qr/${uidOf(member)}-${type}.png` : '',
      status,
      remark: status === 2 ? '信息与实名不符' : '',
      auditor_id: audited ? 1 : null,
      auditor_name: audited ? 'admin' : null,
      audited_at: audited,
      created_at: created,
      updated_at: audited ?? created,
    });
    if (rows.length === BATCH) {
      await sink(rows);
      rows = [];
    }
    if (progress && id % 250_000 === 0) progress(id, count);
  }
  if (rows.length) await sink(rows);
  progress?.(count, count);
  return count;
}
