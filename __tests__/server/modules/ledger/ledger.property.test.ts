/**
 * The ledger invariant of DOMAIN.md ("Bills and energy") under random traffic: fast-check generates
 * 10,000 member and manager operations in all (RUNS runs of OPS_PER_RUN), each run on members of its
 * own, driven through the real member-side services and the admin routes (app.inject). A small model
 * predicts every outcome, refusals included (overdraw, wrong state, missing field, no permission,
 * unknown record); every CHECK_EVERY operations and at the end of a run the test checks that
 *   - ledgerViolations() is empty (sum(change) = available, sum(frozen change) = frozen, nothing < 0),
 *   - the run's balances, record statuses, bill count and op-log count equal the model's,
 * and after every refusal that nothing at all changed.
 *
 * Operations: deposit submit (member) + confirm/reject (manager), withdrawal and extract requests
 * (member) + approve/paid/reject one by one and in batches (manager), transfers (member), balance
 * adjustments and freeze/unfreeze/ban (manager, member/opt) — with bad amounts, overdraws, wrong states,
 * missing fields, unknown ids, frozen or banned members and a manager without the permission.
 * The LZ economy (issue 11): pledges (member, pledge.service `pledge`, on an enabled, a disabled and a
 * missing mode), seed grants (seeds.service `grantSeed`), matches (member side: open, markPaid,
 * confirmReceipt, appeal, from the right and the wrong member; manager: match/opt complete/cancel;
 * expireMatches after the payment deadline) and the daily settlement (settlement.service `settleDay`
 * of the day just over, the test clock moved a day on): the model pays each pledge's and seed's
 * releases (domain/economy.ts), the principal on the end day, and cancels the expired unpaid matches,
 * and the checks include the pledge, seed and match counters.
 *
 * Replay a failure with the seed and path it prints:
 *   LEDGER_SEED=<seed> LEDGER_PATH=<path> npx jest --ci -w 1 __tests__/server/modules/ledger/ledger.property.test.ts
 * LEDGER_RUNS, LEDGER_OPS and LEDGER_CHECK_EVERY change the size; LEDGER_SHRINK=1 shrinks a failure.
 */
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { sql } from 'kysely';
import type { Asset } from '../../../../domain/assets';
import { assetText, formatAsset, parseAsset } from '../../../../domain/money';
import { depositStatViolations } from '../../../../server/modules/deposits/deposits.repository';
import { submitDeposit } from '../../../../server/modules/deposits/deposits.service';
import { balancesOf, billStatViolations, ledgerViolations } from '../../../../server/modules/ledger/ledger.service';
import { withdrawalStatViolations } from '../../../../server/modules/withdrawals/withdrawals.repository';
import { memberCountViolations } from '../../../../server/modules/members/counts.repository';
import { feeOf } from '../../../../domain/money';
import { transferStatViolations } from '../../../../server/modules/transfers/transfers.repository';
import { transfer } from '../../../../server/modules/transfers/transfers.service';
import { requestWithdrawal } from '../../../../server/modules/withdrawals/requestWithdrawal.service';
import { transferFee } from '../../../../domain/transfers';
import { AppError } from '../../../../server/errors';
import { pledgeTerms, releaseOf, seedTerms, type Terms } from '../../../../domain/economy';
import { matchTotal } from '../../../../domain/matches';
import { DAY_MS, dayOf, dayStart } from '../../../../server/db/dayBuckets';
import { matchStatViolations } from '../../../../server/modules/matches/matches.repository';
import {
  appeal,
  confirmReceipt,
  expireMatches,
  markPaid,
  MatchMessages,
  openMatch,
} from '../../../../server/modules/matches/matches.service';
import { addPaymentMethod, paymentOpt } from '../../../../server/modules/payments/payments.service';
import { pledgeCounterViolations } from '../../../../server/modules/pledge/pledge.query';
import { PledgeMessages } from '../../../../domain/pledge';
import { createMode, modeRateOf, pledge } from '../../../../server/modules/pledge/pledge.service';
import { seedCounterViolations } from '../../../../server/modules/seeds/seeds.query';
import { grantSeed, SeedMessages } from '../../../../server/modules/seeds/seeds.service';
import { settleDay } from '../../../../server/modules/settlement/settlement.service';
import { build, dbKind, type TestApp } from '../../helpers';
import { addDepositAccount, addMember, erc20Address, trc20Address } from '../deposits/fixtures';
import { actingAs, adminId, sessionOf } from '../system/fixtures';

const SEED = Number(process.env.LEDGER_SEED ?? 20261123);
const PATH = process.env.LEDGER_PATH || undefined;
const RUNS = Number(process.env.LEDGER_RUNS ?? 20);
const OPS_PER_RUN = Number(process.env.LEDGER_OPS ?? 500);
const CHECK_EVERY = Number(process.env.LEDGER_CHECK_EVERY ?? 100);
const MEMBERS = 5;
/** Members 0 … PAYERS-1 have an approved payment method (can sell in a match); the others cannot. */
const PAYERS = 4;
const MISSING_ID = 999_999_999;
/** JSON of an operation (amounts of the economy are bigints). */
const show = (v: unknown) => JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? `${x}n` : x));

// ---- settings the model knows ----

const DEPOSIT_MIN = 10_000_000n; // 10 USDT
const W = {
  1: { asset: 'USDT', min: '10', max: '1000', feeRate: '0.01', feeMin: '1', autoApproveMax: '20', label: '提现' },
  2: { asset: 'LZ', min: '100', max: '100000', feeRate: '0.005', feeMin: '1', autoApproveMax: '0', label: '提取' },
} as const;
const RATE = { 1: 10_000n, 2: 5_000n }; // feeRate as numerator over 10^6
/** member/opt status moves (DOMAIN.md §3 Members) and their refusals. */
const STATUS_MOVES = {
  freeze: { from: [1, 3], to: 2, refused: '会员已冻结' },
  unfreeze: { from: [2, 3], to: 1, refused: '会员状态正常，无需解冻' },
  banWithdraw: { from: [1], to: 3, refused: '仅正常状态的会员可以禁止提现' },
} as const;
const minor = (text: string, asset: Asset) => {
  const r = parseAsset(text, asset, { allowZero: true });
  if (!r.ok) throw new Error(`bad amount ${text}`);
  return r.value;
};

// ---- operations ----

type Chain = 'TRC20' | 'ERC20';
type Op =
  | { k: 'deposit'; m: number; amount: string; chain: Chain; dupHash: boolean }
  | { k: 'depositOpt'; pick: number; action: 'confirm' | 'reject'; remark: boolean; viewer: boolean }
  | { k: 'withdraw'; m: number; type: 1 | 2; amount: string; chain: Chain }
  | {
      k: 'withdrawOpt';
      pick: number;
      action: 'approve' | 'paid' | 'reject';
      field: boolean;
      viewer: boolean;
    }
  | { k: 'withdrawBatch'; picks: number[]; action: 'approve' | 'paid' | 'reject'; remark: boolean }
  | { k: 'adjust'; m: number; asset: 'USDT' | 'LZ'; amount: string; remark: boolean }
  | { k: 'status'; m: number; action: 'freeze' | 'unfreeze' | 'banWithdraw' }
  | { k: 'transfer'; m: number; to: number; asset: 'USDT' | 'LZ' | 'ENERGY'; amount: string }
  | { k: 'pledge'; m: number; mode: number; amount: bigint }
  | { k: 'seed'; m: number; source: number; total: bigint; days: number; named: boolean }
  | { k: 'matchOpen'; m: number; to: number; quantity: bigint; unitPrice: bigint }
  | { k: 'matchPay'; pick: number; right: boolean; proof: boolean }
  | { k: 'matchConfirm'; pick: number; right: boolean }
  | { k: 'matchAppeal'; pick: number; side: 'seller' | 'buyer' | 'other'; reason: boolean }
  | { k: 'matchOpt'; pick: number; action: 'complete' | 'cancel'; remark: boolean; viewer: boolean }
  | { k: 'matchExpire'; minutes: number }
  | { k: 'settle' };

/** Amounts: mostly sensible, some too small, too big, too precise or not numbers at all. */
const amountArb = (asset: Asset, maxWhole: number) =>
  fc.oneof(
    { weight: 5, arbitrary: fc.integer({ min: 1, max: maxWhole }).map(String) },
    {
      weight: 3,
      arbitrary: fc
        .bigInt({ min: 1n, max: BigInt(maxWhole) * 10n ** BigInt(asset === 'USDT' ? 6 : 4) })
        .map((v) => formatAsset(v, asset)),
    },
    { weight: 1, arbitrary: fc.constantFrom('0', '-5', 'abc', '1.1234567', '') },
  );
const member = fc.nat(MEMBERS - 1);
/** Signed adjustments: credits more often than debits, now and then zero or too precise. */
const signedArb = (asset: Asset, maxWhole: number) =>
  fc.oneof(
    { weight: 6, arbitrary: fc.integer({ min: 1, max: maxWhole }).map(String) },
    { weight: 3, arbitrary: fc.integer({ min: 1, max: maxWhole }).map((n) => `-${n}`) },
    {
      weight: 2,
      arbitrary: fc
        .bigInt({ min: -BigInt(maxWhole) * 10n ** BigInt(asset === 'USDT' ? 6 : 4), max: 10n ** 12n })
        .filter((v) => v !== 0n)
        .map((v) => formatAsset(v, asset)),
    },
    { weight: 1, arbitrary: fc.constantFrom('0', '+0', '1.1234567', '-0.00000001') },
  );
/** Which record an operation acts on, counted back from the newest; -1 = an id that does not exist. */
const pick = fc.oneof({ weight: 12, arbitrary: fc.nat(6) }, { weight: 3, arbitrary: fc.nat(60) }, fc.constant(-1));

/** A match to act on: mostly the newest few (a match lives minutes before it expires). */
const matchPick = fc.oneof(
  { weight: 8, arbitrary: fc.constant(0) },
  { weight: 6, arbitrary: fc.nat(3) },
  { weight: 2, arbitrary: fc.nat(60) },
  fc.constant(-1),
);

const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      k: fc.constant('deposit' as const),
      m: member,
      amount: amountArb('USDT', 3000),
      chain: fc.constantFrom<Chain>('TRC20', 'ERC20'),
      dupHash: fc.integer({ min: 0, max: 9 }).map((n) => n === 0),
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      k: fc.constant('depositOpt' as const),
      pick,
      action: fc.constantFrom('confirm' as const, 'confirm' as const, 'reject' as const),
      remark: fc.boolean(),
      viewer: fc.integer({ min: 0, max: 19 }).map((n) => n === 0),
    }),
  },
  {
    weight: 5,
    arbitrary: fc.oneof(
      fc.record({
        k: fc.constant('withdraw' as const),
        m: member,
        type: fc.constant(1 as const),
        amount: amountArb('USDT', 1200),
        chain: fc.constantFrom<Chain>('TRC20', 'ERC20'),
      }),
      fc.record({
        k: fc.constant('withdraw' as const),
        m: member,
        type: fc.constant(2 as const),
        amount: amountArb('LZ', 120_000),
        chain: fc.constantFrom<Chain>('TRC20', 'ERC20'),
      }),
    ),
  },
  {
    weight: 6,
    arbitrary: fc.record({
      k: fc.constant('withdrawOpt' as const),
      pick,
      action: fc.constantFrom('approve' as const, 'paid' as const, 'reject' as const),
      field: fc.integer({ min: 0, max: 9 }).map((n) => n !== 0),
      viewer: fc.integer({ min: 0, max: 19 }).map((n) => n === 0),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      k: fc.constant('withdrawBatch' as const),
      picks: fc.array(pick, { minLength: 1, maxLength: 5 }),
      action: fc.constantFrom('approve' as const, 'paid' as const, 'reject' as const),
      remark: fc.integer({ min: 0, max: 9 }).map((n) => n !== 0),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.oneof(
      fc.record({
        k: fc.constant('adjust' as const),
        m: member,
        asset: fc.constant('USDT' as const),
        amount: signedArb('USDT', 2000),
        remark: fc.integer({ min: 0, max: 9 }).map((n) => n !== 0),
      }),
      fc.record({
        k: fc.constant('adjust' as const),
        m: member,
        asset: fc.constant('LZ' as const),
        amount: signedArb('LZ', 200_000),
        remark: fc.integer({ min: 0, max: 9 }).map((n) => n !== 0),
      }),
    ),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      k: fc.constant('status' as const),
      m: member,
      action: fc.constantFrom<Array<'freeze' | 'unfreeze' | 'banWithdraw'>>(
        'freeze',
        'unfreeze',
        'unfreeze',
        'unfreeze',
        'banWithdraw',
      ),
    }),
  },
  {
    weight: 3,
    arbitrary: fc
      .oneof(
        { weight: 10, arbitrary: fc.constantFrom('USDT' as const, 'LZ' as const) },
        { weight: 1, arbitrary: fc.constant('ENERGY' as const) },
      )
      .chain((asset) =>
        fc.record({
          k: fc.constant('transfer' as const),
          m: member,
          // MEMBERS = a uid nobody has
          to: fc.nat(MEMBERS),
          asset: fc.constant(asset),
          amount: amountArb(asset === 'ENERGY' ? 'USDT' : asset, asset === 'LZ' ? 20_000 : 300),
        }),
      ),
  },
  // ---- the LZ economy ----
  // LZ to pledge and sell: credits (member/opt adjust) of a size that funds them.
  {
    weight: 2,
    arbitrary: fc.record({
      k: fc.constant('adjust' as const),
      m: member,
      asset: fc.constant('LZ' as const),
      amount: fc.integer({ min: 100, max: 5_000 }).map(String),
      remark: fc.constant(true),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      k: fc.constant('pledge' as const),
      m: member,
      // MODES[0..2]; 3 = a mode that does not exist
      mode: fc.oneof({ weight: 8, arbitrary: fc.constantFrom(0, 1) }, { weight: 1, arbitrary: fc.constantFrom(2, 3) }),
      amount: fc.oneof(
        { weight: 5, arbitrary: fc.integer({ min: 1, max: 1_500 }).map((n) => BigInt(n) * 10_000n) },
        { weight: 3, arbitrary: fc.bigInt({ min: 1n, max: 15_000_000n }) },
        { weight: 1, arbitrary: fc.constantFrom(0n, 1_000_010_000n) },
      ),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      k: fc.constant('seed' as const),
      m: member,
      source: fc.oneof({ weight: 12, arbitrary: fc.constantFrom(1, 2, 3) }, { weight: 1, arbitrary: fc.constant(4) }),
      total: fc.oneof(
        { weight: 12, arbitrary: fc.bigInt({ min: 1n, max: 10_000_000n }) },
        { weight: 1, arbitrary: fc.constant(0n) },
      ),
      days: fc.oneof(
        { weight: 12, arbitrary: fc.integer({ min: 1, max: 6 }) },
        { weight: 1, arbitrary: fc.constant(0) },
      ),
      named: fc.integer({ min: 0, max: 19 }).map((n) => n !== 0),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      k: fc.constant('matchOpen' as const),
      m: member,
      to: member,
      quantity: fc.oneof(
        { weight: 6, arbitrary: fc.integer({ min: 1, max: 1_000 }).map((n) => BigInt(n) * 10_000n) },
        { weight: 3, arbitrary: fc.bigInt({ min: 1n, max: 10_000_000n }) },
        { weight: 1, arbitrary: fc.constantFrom(0n, 1n) },
      ),
      unitPrice: fc.oneof(
        { weight: 10, arbitrary: fc.bigInt({ min: 1n, max: 3_000_000n }) },
        { weight: 1, arbitrary: fc.constantFrom(0n, 1n) },
      ),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      k: fc.constant('matchPay' as const),
      pick: matchPick,
      right: fc.integer({ min: 0, max: 9 }).map((n) => n !== 0),
      proof: fc.integer({ min: 0, max: 19 }).map((n) => n !== 0),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      k: fc.constant('matchConfirm' as const),
      pick: matchPick,
      right: fc.integer({ min: 0, max: 9 }).map((n) => n !== 0),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      k: fc.constant('matchAppeal' as const),
      pick: matchPick,
      side: fc.constantFrom('seller' as const, 'buyer' as const, 'buyer' as const, 'other' as const),
      reason: fc.integer({ min: 0, max: 9 }).map((n) => n !== 0),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      k: fc.constant('matchOpt' as const),
      pick: matchPick,
      action: fc.constantFrom('complete' as const, 'cancel' as const),
      remark: fc.integer({ min: 0, max: 9 }).map((n) => n !== 0),
      viewer: fc.integer({ min: 0, max: 19 }).map((n) => n === 0),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      k: fc.constant('matchExpire' as const),
      minutes: fc.oneof(
        { weight: 4, arbitrary: fc.integer({ min: 0, max: 5 }) },
        { weight: 1, arbitrary: fc.integer({ min: 25, max: 45 }) },
      ),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ k: 'settle' as const }) },
);

/** The pledge modes of the test (made once in beforeAll): two enabled, one disabled. */
const MODES = [
  { name: '测试七天', days: 7, rate: '0.0033', minAmount: '10', maxAmount: '100000', status: 1 },
  { name: '测试三天', days: 3, rate: '0.012345', minAmount: '1', maxAmount: '50000', status: 1 },
  { name: '测试停用', days: 5, rate: '0.01', minAmount: '1', maxAmount: '50000', status: 0 },
] as const;

// ---- the model ----

interface Outcome {
  code: number;
  msg: string;
  data?: any;
}
/** What the model expects: a code, and the message when the test pins it (undefined = any). */
interface Expect {
  code: number;
  msg?: string;
}
type Bal = { available: bigint; frozen: bigint };
/** A pledge or seed as the model sees it: what it pays and how far it has been paid. */
interface Earning {
  id: number;
  m: number;
  /** Pledge: the principal returned on the end day (0 for a seed). */
  amount: bigint;
  terms: Terms;
  start: number;
  days: number;
  paid: number;
  released: bigint;
  status: number;
}

interface Model {
  members: number[];
  uids: string[];
  /** Member status: 1 正常, 2 冻结, 3 禁止提现. */
  status: number[];
  bal: Array<Record<'USDT' | 'LZ' | 'ENERGY', Bal>>;
  pledges: Earning[];
  seeds: Earning[];
  matches: Array<{ id: number; seller: number; buyer: number; quantity: bigint; status: number; expiresAt: number }>;
  deposits: Array<{ id: number; m: number; amount: bigint; status: number; txHash: string }>;
  withdrawals: Array<{ id: number; m: number; asset: 'USDT' | 'LZ'; chain: Chain; amount: bigint; status: number }>;
  bills: number;
  opLogs: number;
  opLogBase: number;
}

let hashSeq = 0;
const txHashFor = (chain: Chain) => {
  const h = createHash('sha256').update(`ledger-property-${process.pid}-${Date.now()}-${hashSeq++}`).digest('hex');
  return chain === 'TRC20' ? h : `0x${h}`;
};

describe(`ledger invariant under random operations (${dbKind})`, () => {
  let t: TestApp;
  let admin: string;
  let viewer: string;
  let viewerId: number;
  let opsRun = 0;
  let manager: { managerId: number; username: string; ip: string };
  const modes: Array<{ id: number; days: number; rate: bigint; min: bigint; max: bigint; enabled: boolean }> = [];
  /** Outcomes per operation kind and code, printed at the end so a reader sees what was exercised. */
  const tally = new Map<string, number>();

  beforeAll(async () => {
    t = await build();
    admin = await t.login();
    ({ token: viewer, id: viewerId } = await actingAs(t, 'viewer01', [
      'deposit:view',
      'withdraw:view',
      'extract:view',
    ]));
    await addDepositAccount(t, 'TRC20');
    await addDepositAccount(t, 'ERC20');
    manager = { managerId: await adminId(t), username: 'admin', ip: '127.0.0.1' };
    for (const m of MODES) {
      const made = await createMode(t.app.ctx, { ...m, name: `${m.name}${process.pid % 1000}`, sort: 0 });
      modes.push({
        id: made.id,
        days: m.days,
        rate: modeRateOf(m.rate),
        min: minor(m.minAmount, 'LZ'),
        max: minor(m.maxAmount, 'LZ'),
        enabled: m.status === 1,
      });
    }

    for (const type of [1, 2] as const) {
      const s = W[type];
      const r = await t.call('POST', '/v1/admin/withdraw/setting', {
        token: admin,
        body: {
          type,
          open: true,
          min: s.min,
          max: s.max,
          maxTimesPerDay: 0,
          feeRate: s.feeRate,
          feeMin: s.feeMin,
          autoApproveMax: s.autoApproveMax,
          openHours: '00:00-24:00',
        },
      });
      expect(r.code).toBe(200);
    }
  }, 120_000);
  afterAll(() => t.close());

  const service = async (f: () => Promise<unknown>): Promise<Outcome> => {
    try {
      return { code: 200, msg: '', data: await f() };
    } catch (err) {
      if (err instanceof AppError) return { code: err.code, msg: err.message };
      throw err;
    }
  };

  /** Everything a refused operation must leave as it was. */
  async function fingerprint(model: Model): Promise<string> {
    const counts = await sql<Record<string, unknown>>`
      select (select count(*) from bill) as bills, (select count(*) from op_log) as logs,
             (select count(*) from deposit) as deposits, (select count(*) from withdrawal) as withdrawals,
             (select cast(coalesce(sum(status), 0) as text) from deposit) as ds,
             (select cast(coalesce(sum(status), 0) as text) from withdrawal) as ws,
             (select count(*) from pledge) as pledges, (select count(*) from seed) as seeds,
             (select count(*) from pledge_release) as pr, (select count(*) from seed_release) as sr,
             (select count(*) from match_trade) as matches,
             (select cast(coalesce(sum(status), 0) as text) from match_trade) as ms
    `.execute(t.db.db);
    const accounts = await t.db.db
      .selectFrom('account')
      .select(['member_id', 'asset'])
      .select((eb) => [eb.cast<string>('available', 'text').as('a'), eb.cast<string>('frozen', 'text').as('f')])
      .where('member_id', 'in', model.members)
      .orderBy('member_id')
      .orderBy('asset')
      .execute();
    return JSON.stringify([counts.rows[0], accounts]);
  }

  async function check(model: Model, where: string) {
    const fail = (what: string, got: unknown, want: unknown) => {
      throw new Error(`${where}: ${what}: got ${String(got)}, model says ${String(want)}`);
    };
    const violations = await ledgerViolations(t.db.db);
    if (violations.length) fail('ledger violations', JSON.stringify(violations), '[]');
    const countViolations = await memberCountViolations(t.db.db);
    if (countViolations.length) fail('member_count violations', JSON.stringify(countViolations), '[]');
    const statViolations = await billStatViolations(t.db.db);
    if (statViolations.length) fail('bill_stat violations', JSON.stringify(statViolations), '[]');
    const wStatViolations = await withdrawalStatViolations(t.db.db);
    if (wStatViolations.length) fail('withdrawal_stat violations', JSON.stringify(wStatViolations), '[]');
    const dStatViolations = await depositStatViolations(t.db.db);
    if (dStatViolations.length) fail('deposit_stat violations', JSON.stringify(dStatViolations), '[]');
    const tStatViolations = await transferStatViolations(t.db.db);
    if (tStatViolations.length) fail('transfer_stat violations', JSON.stringify(tStatViolations), '[]');
    const pStat = await pledgeCounterViolations(t.db.db);
    if (Object.values(pStat).some((v) => v.length)) fail('pledge counter violations', JSON.stringify(pStat), '[]');
    const sStat = await seedCounterViolations(t.db.db);
    if (Object.values(sStat).some((v) => v.length)) fail('seed counter violations', JSON.stringify(sStat), '[]');
    const mStat = await matchStatViolations(t.db.db);
    if (mStat.length) fail('match counter violations', JSON.stringify(mStat), '[]');
    for (let i = 0; i < model.members.length; i++) {
      const real = await balancesOf(t.db.db, model.members[i]);
      for (const asset of ['USDT', 'LZ', 'ENERGY'] as const) {
        const want = model.bal[i][asset];
        if (real[asset].available !== want.available || real[asset].frozen !== want.frozen)
          fail(
            `member ${i} ${asset}`,
            `${real[asset].available}/${real[asset].frozen}`,
            `${want.available}/${want.frozen}`,
          );
        if (real[asset].available < 0n || real[asset].frozen < 0n) fail(`member ${i} ${asset} negative`, 'x', '≥ 0');
      }
    }
    const status = async (
      table: 'deposit' | 'withdrawal' | 'match_trade',
      rows: Array<{ id: number; status: number }>,
    ) => {
      if (!rows.length) return;
      const real = await t.db.db
        .selectFrom(table)
        .select(['id', 'status'])
        .where(
          'id',
          'in',
          rows.map((r) => r.id),
        )
        .execute();
      const byId = new Map(real.map((r) => [Number(r.id), Number(r.status)]));
      for (const r of rows) if (byId.get(r.id) !== r.status) fail(`${table} #${r.id} status`, byId.get(r.id), r.status);
    };
    await status('deposit', model.deposits);
    await status('withdrawal', model.withdrawals);
    await status('match_trade', model.matches);
    for (const table of ['pledge', 'seed'] as const) {
      const rows = table === 'pledge' ? model.pledges : model.seeds;
      if (!rows.length) continue;
      const real = await t.db.db
        .selectFrom(table)
        .select(['id', 'status', 'paid_day'])
        .select((eb) => eb.cast<string>('released', 'text').as('released'))
        .where(
          'id',
          'in',
          rows.map((r) => r.id),
        )
        .execute();
      const byId = new Map(real.map((r) => [Number(r.id), `${r.status}/${r.paid_day}/${r.released}`]));
      for (const r of rows) {
        const want = `${r.status}/${r.paid}/${r.released}`;
        if (byId.get(r.id) !== want) fail(`${table} #${r.id} status/paid_day/released`, byId.get(r.id), want);
      }
    }
    const bills = await t.db.db
      .selectFrom('bill')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('member_id', 'in', model.members)
      .executeTakeFirstOrThrow();
    if (Number(bills.n) !== model.bills) fail('bills of the run', bills.n, model.bills);
    const logs = await t.db.db
      .selectFrom('op_log')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    if (Number(logs.n) - model.opLogBase !== model.opLogs)
      fail('op-log rows of the run', Number(logs.n) - model.opLogBase, model.opLogs);
  }

  const pickOf = <T>(list: T[], p: number): T | undefined =>
    p < 0 || list.length === 0 ? undefined : list[list.length - 1 - (p % list.length)];

  /** Runs one operation: predicts, performs, compares. Returns a short description for failure output. */
  async function step(model: Model, op: Op): Promise<void> {
    t.clock.advance(1000);
    let expect_: Expect;
    let apply: (out: Outcome) => void = () => {};
    let run: () => Promise<Outcome>;
    switch (op.k) {
      case 'deposit': {
        const parsed = parseAsset(op.amount, 'USDT');
        const dup = op.dupHash
          ? model.deposits.find((d) => d.txHash.startsWith('0x') === (op.chain === 'ERC20'))
          : undefined;
        const txHash = dup ? dup.txHash : txHashFor(op.chain);
        if (!parsed.ok) expect_ = { code: 400 };
        else if (parsed.value < DEPOSIT_MIN) expect_ = { code: 400, msg: '充值金额不能低于10' };
        else if (model.status[op.m] === 2) expect_ = { code: 400, msg: '会员已冻结' };
        else if (dup) expect_ = { code: 400, msg: '该交易哈希已提交' };
        else {
          expect_ = { code: 200 };
          const amount = parsed.value;
          apply = (out) => model.deposits.push({ id: Number(out.data.id), m: op.m, amount, status: 0, txHash });
        }
        run = () =>
          service(() =>
            submitDeposit(t.app.ctx, {
              memberId: model.members[op.m],
              chain: op.chain,
              fromAddress: op.chain === 'TRC20' ? trc20Address() : erc20Address(),
              amount: op.amount,
              txHash,
            }),
          );
        break;
      }
      case 'depositOpt': {
        const d = pickOf(model.deposits, op.pick);
        const body = { id: d?.id ?? MISSING_ID, action: op.action, ...(op.remark ? { remark: '随机驳回' } : {}) };
        if (op.viewer) expect_ = { code: 403, msg: '无权限' };
        else if (op.action === 'reject' && !op.remark) expect_ = { code: 400, msg: '备注不能为空' };
        else if (!d) expect_ = { code: 404, msg: '充值记录不存在' };
        else if (d.status !== 0) expect_ = { code: 409, msg: '该充值已处理' };
        else {
          expect_ = { code: 200 };
          apply = () => {
            model.opLogs += 1;
            if (op.action === 'confirm') {
              d.status = 1;
              model.bal[d.m].USDT.available += d.amount;
              model.bills += 1;
            } else d.status = 2;
          };
        }
        run = () => t.call('POST', '/v1/admin/deposit/opt', { token: op.viewer ? viewer : admin, body });
        break;
      }
      case 'withdraw': {
        const s = W[op.type];
        const parsed = parseAsset(op.amount, s.asset);
        const bal = model.bal[op.m][s.asset];
        if (!parsed.ok) expect_ = { code: 400 };
        else if (parsed.value < minor(s.min, s.asset)) expect_ = { code: 400, msg: `${s.label}金额不能低于${s.min}` };
        else if (parsed.value > minor(s.max, s.asset)) expect_ = { code: 400, msg: `${s.label}金额不能高于${s.max}` };
        else if (feeOf(parsed.value, RATE[op.type], minor(s.feeMin, s.asset)) >= parsed.value)
          expect_ = { code: 400, msg: `${s.label}金额不足以支付手续费` };
        else if (model.status[op.m] === 2) expect_ = { code: 400, msg: '会员已冻结' };
        else if (model.status[op.m] === 3) expect_ = { code: 400, msg: '该会员已被禁止提现' };
        else if (bal.available < parsed.value) expect_ = { code: 400, msg: '可用余额不足' };
        else {
          const amount = parsed.value;
          const ceiling = minor(s.autoApproveMax, s.asset);
          const status = ceiling > 0n && amount <= ceiling ? 1 : 0;
          expect_ = { code: 200 };
          apply = (out) => {
            if (out.data.status !== status)
              throw new Error(`withdrawal status ${out.data.status}, model says ${status}`);
            bal.available -= amount;
            bal.frozen += amount;
            model.bills += 1;
            model.withdrawals.push({
              id: Number(out.data.id),
              m: op.m,
              asset: s.asset,
              chain: op.chain,
              amount,
              status,
            });
          };
        }
        run = () =>
          service(() =>
            requestWithdrawal(t.app.ctx, {
              memberId: model.members[op.m],
              type: op.type,
              amount: op.amount,
              chain: op.chain,
              address: op.chain === 'TRC20' ? trc20Address() : erc20Address(),
            }),
          );
        break;
      }
      case 'withdrawOpt': {
        const w = pickOf(model.withdrawals, op.pick);
        const body: Record<string, unknown> = { id: w?.id ?? MISSING_ID, action: op.action };
        // The hash in the form of the record's chain (a missing record: any well-formed hash).
        if (op.field && op.action === 'paid') body.txHash = `${w?.chain === 'TRC20' ? '' : '0x'}${'ab'.repeat(32)}`;
        if (op.field && op.action === 'reject') body.remark = '随机驳回';
        const from = { approve: [0], paid: [1], reject: [0, 1] }[op.action];
        if (op.viewer) expect_ = { code: 403, msg: '无权限' };
        else if (!op.field && op.action === 'reject') expect_ = { code: 400, msg: '备注不能为空' };
        else if (!op.field && op.action === 'paid') expect_ = { code: 400, msg: '交易哈希不能为空' };
        else if (!w) expect_ = { code: 404, msg: '提现记录不存在' };
        else if (!from.includes(w.status)) expect_ = { code: 409, msg: '该提现已处理' };
        else {
          expect_ = { code: 200 };
          apply = () => transition(model, w, op.action);
        }
        run = () => t.call('POST', '/v1/admin/withdraw/opt', { token: op.viewer ? viewer : admin, body });
        break;
      }
      case 'withdrawBatch': {
        const targets = op.picks.map((p) => pickOf(model.withdrawals, p));
        const ids = [...new Set(targets.map((w) => w?.id ?? MISSING_ID))];
        const body = { ids, action: op.action, ...(op.remark ? { remark: '批量驳回' } : {}) };
        const from = { approve: [0], paid: [1], reject: [0, 1] }[op.action];
        if (op.action === 'reject' && !op.remark) expect_ = { code: 400, msg: '备注不能为空' };
        else {
          expect_ = { code: 200 };
          apply = (out) => {
            const succeeded: number[] = [];
            const failed: Array<{ id: number; msg: string }> = [];
            for (const id of ids) {
              const w = model.withdrawals.find((x) => x.id === id);
              if (!w) failed.push({ id, msg: '提现记录不存在' });
              else if (!from.includes(w.status)) failed.push({ id, msg: '该提现已处理' });
              else {
                transition(model, w, op.action);
                succeeded.push(id);
              }
            }
            const got = JSON.stringify({
              succeeded: out.data.succeeded,
              failed: out.data.failed.map((f: { id: number; msg: string }) => ({ id: f.id, msg: f.msg })),
            });
            const want = JSON.stringify({ succeeded, failed });
            if (got !== want) throw new Error(`batch answered ${got}, model says ${want}`);
          };
        }
        run = () => t.call('POST', '/v1/admin/withdraw/opt/batch', { token: admin, body });
        break;
      }
      case 'adjust': {
        const parsed = parseAsset(op.amount, op.asset, { allowNegative: true });
        const bal = model.bal[op.m][op.asset];
        if (!parsed.ok) expect_ = { code: 400, msg: parsed.reason === 'zero' ? '调整金额不能为0' : undefined };
        else if (!op.remark) expect_ = { code: 400, msg: '备注不能为空' };
        else if (bal.available + parsed.value < 0n)
          expect_ = { code: 409, msg: `可用余额不足，当前可用 ${assetText(bal.available, op.asset)}` };
        else {
          expect_ = { code: 200 };
          const amount = parsed.value;
          apply = () => {
            bal.available += amount;
            model.bills += 1;
            model.opLogs += 1;
          };
        }
        const body = {
          id: model.members[op.m],
          action: 'adjust',
          asset: op.asset,
          amount: op.amount,
          ...(op.remark ? { remark: '随机调整' } : {}),
        };
        run = () => t.call('POST', '/v1/admin/member/opt', { token: admin, body });
        break;
      }
      case 'status': {
        const move = STATUS_MOVES[op.action];
        const allowed = (move.from as readonly number[]).includes(model.status[op.m]);
        if (!allowed) expect_ = { code: 409, msg: move.refused };
        else {
          expect_ = { code: 200 };
          apply = () => {
            model.status[op.m] = move.to;
            model.opLogs += 1;
          };
        }
        run = () =>
          t.call('POST', '/v1/admin/member/opt', {
            token: admin,
            body: { id: model.members[op.m], action: op.action },
          });
        break;
      }
      case 'transfer': {
        const parsed = op.asset === 'ENERGY' ? undefined : parseAsset(op.amount, op.asset);
        const toUid = op.to < MEMBERS ? model.uids[op.to] : 'NOBODY00';
        if (op.asset === 'ENERGY' || !parsed) expect_ = { code: 400, msg: '该资产不支持转账' };
        else if (!parsed.ok) expect_ = { code: 400 };
        else if (model.status[op.m] === 2) expect_ = { code: 400, msg: '会员已冻结' };
        else if (model.status[op.m] === 3) expect_ = { code: 400, msg: '该会员已被禁止提现，不能转出' };
        else if (op.to >= MEMBERS) expect_ = { code: 400, msg: '收款会员不存在' };
        else if (op.to === op.m) expect_ = { code: 400, msg: '不能转账给自己' };
        else if (model.status[op.to] === 2) expect_ = { code: 400, msg: '收款会员已冻结' };
        else if (model.bal[op.m][op.asset].available < parsed.value + transferFee(parsed.value))
          expect_ = { code: 400, msg: '可用余额不足' };
        else {
          expect_ = { code: 200 };
          const amount = parsed.value;
          const asset = op.asset;
          apply = () => {
            model.bal[op.m][asset].available -= amount + transferFee(amount);
            model.bal[op.to][asset].available += amount;
            model.bills += 2;
          };
        }
        run = () =>
          service(() =>
            transfer(t.app.ctx, { fromMemberId: model.members[op.m], toUid, asset: op.asset, amount: op.amount }),
          );
        break;
      }
      case 'pledge': {
        const mode = modes[op.mode];
        const lzBal = model.bal[op.m].LZ;
        if (!mode) expect_ = { code: 400, msg: PledgeMessages.modeNotFound };
        else if (!mode.enabled) expect_ = { code: 400, msg: PledgeMessages.modeDisabled };
        else if (op.amount < mode.min) expect_ = { code: 400, msg: `质押数量不能低于${formatAsset(mode.min, 'LZ')}` };
        else if (op.amount > mode.max) expect_ = { code: 400, msg: `质押数量不能高于${formatAsset(mode.max, 'LZ')}` };
        else if (model.status[op.m] === 2) expect_ = { code: 400, msg: PledgeMessages.memberFrozen };
        else if (lzBal.available < op.amount) expect_ = { code: 400, msg: '可用余额不足' };
        else {
          expect_ = { code: 200 };
          const start = dayOf(t.clock.now());
          const terms = pledgeTerms(op.amount, mode.rate, mode.days);
          apply = (out) => {
            lzBal.available -= op.amount;
            model.bills += 1;
            model.pledges.push({
              id: Number(out.data.id),
              m: op.m,
              amount: op.amount,
              terms,
              start,
              days: mode.days,
              paid: start,
              released: 0n,
              status: 1,
            });
          };
        }
        run = () =>
          service(() =>
            pledge(t.app.ctx, { memberId: model.members[op.m], modeId: mode?.id ?? MISSING_ID, amount: op.amount }),
          );
        break;
      }
      case 'seed': {
        if (!op.named) expect_ = { code: 400, msg: SeedMessages.nameRequired };
        else if (![1, 2, 3].includes(op.source)) expect_ = { code: 400, msg: SeedMessages.badSource };
        else if (op.total <= 0n) expect_ = { code: 400, msg: SeedMessages.badEnergy };
        else if (op.days < 1) expect_ = { code: 400, msg: SeedMessages.badDays };
        else {
          expect_ = { code: 200 };
          const start = dayOf(t.clock.now());
          const terms = seedTerms(op.total, op.days);
          apply = (out) =>
            model.seeds.push({
              id: Number(out.data.id),
              m: op.m,
              amount: 0n,
              terms,
              start,
              days: op.days,
              paid: start,
              released: 0n,
              status: 1,
            });
        }
        run = () =>
          service(() =>
            grantSeed(t.app.ctx, {
              memberId: model.members[op.m],
              name: op.named ? '随机种子' : ' ',
              source: op.source,
              totalEnergy: op.total,
              days: op.days,
            }),
          );
        break;
      }
      case 'matchOpen': {
        const total = matchTotal(op.quantity, op.unitPrice);
        const seller = model.bal[op.m].LZ;
        if (op.m === op.to) expect_ = { code: 400, msg: MatchMessages.self };
        else if (op.quantity <= 0n) expect_ = { code: 400, msg: MatchMessages.badQuantity };
        else if (op.unitPrice <= 0n) expect_ = { code: 400, msg: MatchMessages.badPrice };
        else if (total <= 0n) expect_ = { code: 400, msg: MatchMessages.totalTooSmall };
        else if (model.status[op.m] === 2) expect_ = { code: 400, msg: MatchMessages.sellerFrozen };
        else if (model.status[op.to] === 2) expect_ = { code: 400, msg: MatchMessages.buyerFrozen };
        else if (op.m >= PAYERS) expect_ = { code: 400, msg: MatchMessages.noPayment };
        else if (seller.available < op.quantity) expect_ = { code: 400, msg: '可用余额不足' };
        else {
          expect_ = { code: 200 };
          apply = (out) => {
            seller.available -= op.quantity;
            seller.frozen += op.quantity;
            model.bills += 1;
            model.matches.push({
              id: Number(out.data.id),
              seller: op.m,
              buyer: op.to,
              quantity: op.quantity,
              status: 1,
              expiresAt: Number(out.data.expiresAt),
            });
          };
        }
        run = () =>
          service(() =>
            openMatch(t.app.ctx, {
              sellerId: model.members[op.m],
              buyerId: model.members[op.to],
              quantity: op.quantity,
              unitPrice: op.unitPrice,
            }),
          );
        break;
      }
      case 'matchPay': {
        const x = pickOf(model.matches, op.pick);
        const now = t.clock.now();
        // The wrong member: the seller saying he paid.
        const buyer = x ? (op.right ? x.buyer : x.seller) : 0;
        if (!op.proof) expect_ = { code: 400, msg: MatchMessages.proofRequired };
        else if (!x) expect_ = { code: 404, msg: MatchMessages.notFound };
        else if (!op.right) expect_ = { code: 400, msg: MatchMessages.notBuyer };
        else if (x.status === 1 && x.expiresAt <= now) expect_ = { code: 409, msg: MatchMessages.expired };
        else if (x.status !== 1) expect_ = { code: 409, msg: MatchMessages.handled };
        else {
          expect_ = { code: 200 };
          apply = () => (x.status = 2);
        }
        run = () =>
          service(() =>
            markPaid(t.app.ctx, {
              matchId: x?.id ?? MISSING_ID,
              buyerId: model.members[buyer],
              proofUrl: op.proof ? '/uploads/demo/proof.png' : ' ',
            }),
          );
        break;
      }
      case 'matchConfirm': {
        const x = pickOf(model.matches, op.pick);
        const seller = x ? (op.right ? x.seller : x.buyer) : 0;
        if (!x) expect_ = { code: 404, msg: MatchMessages.notFound };
        else if (!op.right) expect_ = { code: 400, msg: MatchMessages.notSeller };
        else if (x.status !== 2) expect_ = { code: 409, msg: MatchMessages.handled };
        else {
          expect_ = { code: 200 };
          apply = () => deal(model, x);
        }
        run = () =>
          service(() => confirmReceipt(t.app.ctx, { matchId: x?.id ?? MISSING_ID, sellerId: model.members[seller] }));
        break;
      }
      case 'matchAppeal': {
        const x = pickOf(model.matches, op.pick);
        let who = 0;
        if (x) {
          if (op.side === 'seller') who = x.seller;
          else if (op.side === 'buyer') who = x.buyer;
          else while (who === x.seller || who === x.buyer) who += 1;
        }
        if (!op.reason) expect_ = { code: 400, msg: MatchMessages.reasonRequired };
        else if (!x) expect_ = { code: 404, msg: MatchMessages.notFound };
        else if (op.side === 'other') expect_ = { code: 400, msg: MatchMessages.notParty };
        else if (x.status !== 1 && x.status !== 2) expect_ = { code: 409, msg: MatchMessages.handled };
        else {
          expect_ = { code: 200 };
          apply = () => (x.status = 5);
        }
        run = () =>
          service(() =>
            appeal(t.app.ctx, {
              matchId: x?.id ?? MISSING_ID,
              memberId: model.members[who],
              reason: op.reason ? '对方未按约定付款' : '  ',
            }),
          );
        break;
      }
      case 'matchOpt': {
        const x = pickOf(model.matches, op.pick);
        const from = { complete: [2, 5], cancel: [1, 2, 5] }[op.action];
        const body = { id: x?.id ?? MISSING_ID, action: op.action, ...(op.remark ? { remark: '随机仲裁' } : {}) };
        if (op.viewer) expect_ = { code: 403, msg: '无权限' };
        else if (op.action === 'cancel' && !op.remark) expect_ = { code: 400, msg: MatchMessages.remarkRequired };
        else if (!x) expect_ = { code: 404, msg: MatchMessages.notFound };
        else if (!from.includes(x.status)) expect_ = { code: 409, msg: MatchMessages.handled };
        else {
          expect_ = { code: 200 };
          apply = () => {
            model.opLogs += 1;
            if (op.action === 'complete') deal(model, x);
            else refund(model, x);
          };
        }
        run = () => t.call('POST', '/v1/admin/match/opt', { token: op.viewer ? viewer : admin, body });
        break;
      }
      case 'matchExpire': {
        t.clock.advance(op.minutes * 60_000);
        const now = t.clock.now();
        const due = model.matches.filter((x) => x.status === 1 && x.expiresAt <= now);
        expect_ = { code: 200 };
        apply = (out) => {
          // Matches of earlier runs may expire too: at least the model's.
          if (out.data.cancelled < due.length)
            throw new Error(`expireMatches cancelled ${out.data.cancelled}, model says at least ${due.length}`);
          for (const x of due) refund(model, x);
        };
        run = () => service(() => expireMatches(t.app.ctx, now));
        break;
      }
      case 'settle': {
        t.clock.advance(DAY_MS);
        const day = dayOf(t.clock.now()) - 1;
        expect_ = { code: 200 };
        apply = (out) => {
          if (out.data.outcome !== 'done') throw new Error(`settleDay answered ${JSON.stringify(out.data)}`);
          settle(model, day);
        };
        run = () => service(() => settleDay(t.app.ctx, day));
        break;
      }
    }
    const before = expect_.code === 200 ? undefined : await fingerprint(model);
    const out = await run();
    const key = `${op.k}${'action' in op ? `.${op.action}` : ''} ${out.code}`;
    tally.set(key, (tally.get(key) ?? 0) + 1);
    if (out.code !== expect_.code || (expect_.msg !== undefined && out.msg !== expect_.msg))
      throw new Error(
        `answered ${out.code} ${out.msg}, model expected ${expect_.code} ${expect_.msg ?? '(any message)'}`,
      );
    if (before !== undefined) {
      const after = await fingerprint(model);
      if (after !== before) throw new Error(`a refused operation changed data:\n  before ${before}\n  after  ${after}`);
    } else apply(out);
    // A settlement moved the clock a day on: the sessions went idle past their limit.
    if (op.k === 'settle') {
      admin = await sessionOf(t, manager.managerId);
      viewer = await sessionOf(t, viewerId);
    }
  }

  type ModelMatch = Model['matches'][number];
  /** The seller's frozen LZ to the buyer (two bills 撮合成交). */
  function deal(model: Model, x: ModelMatch) {
    x.status = 3;
    model.bal[x.seller].LZ.frozen -= x.quantity;
    model.bal[x.buyer].LZ.available += x.quantity;
    model.bills += 2;
  }
  /** The seller's frozen LZ back to available (one bill 撮合取消). */
  function refund(model: Model, x: ModelMatch) {
    x.status = 4;
    model.bal[x.seller].LZ.frozen -= x.quantity;
    model.bal[x.seller].LZ.available += x.quantity;
    model.bills += 1;
  }
  /**
   * Settlement of `day`: every active record is paid the releases it is owed up to the day (a bill per
   * release above zero), a pledge's principal on its end day (bill 质押赎回); then the unpaid matches
   * whose deadline passed by the end of the day are cancelled.
   */
  function settle(model: Model, day: number) {
    for (const [list, asset] of [
      [model.pledges, 'LZ'],
      [model.seeds, 'ENERGY'],
    ] as const) {
      for (const r of list) {
        if (r.status !== 1) continue;
        const end = r.start + r.days;
        for (let d = r.paid + 1; d <= Math.min(day, end); d++) {
          const amount = releaseOf(r.terms, d, r.start, r.days);
          r.released += amount;
          if (amount > 0n) {
            model.bal[r.m][asset].available += amount;
            model.bills += 1;
          }
          if (d === end) {
            r.status = 2;
            if (r.amount > 0n) {
              model.bal[r.m][asset].available += r.amount;
              model.bills += 1;
            }
          }
        }
        r.paid = Math.max(r.paid, Math.min(day, end));
      }
    }
    const by = dayStart(day + 1);
    for (const x of model.matches) if (x.status === 1 && x.expiresAt <= by) refund(model, x);
  }

  function transition(model: Model, w: Model['withdrawals'][number], action: 'approve' | 'paid' | 'reject') {
    const bal = model.bal[w.m][w.asset];
    model.opLogs += 1;
    if (action === 'approve') w.status = 1;
    else if (action === 'paid') {
      w.status = 2;
      bal.frozen -= w.amount;
      model.bills += 1;
    } else {
      w.status = 3;
      bal.available += w.amount;
      bal.frozen -= w.amount;
      model.bills += 1;
    }
  }

  it(`keeps every balance equal to the sum of its bills through ${RUNS} × ${OPS_PER_RUN} operations`, async () => {
    const started = Date.now();
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: OPS_PER_RUN, maxLength: OPS_PER_RUN }), async (ops) => {
        const members: number[] = [];
        for (let i = 0; i < MEMBERS; i++) members.push(await addMember(t));
        // Sellers need an approved payment method (its approval is an op-log row: before the count).
        for (let i = 0; i < PAYERS; i++) {
          const p = await addPaymentMethod(t.app.ctx, {
            memberId: members[i],
            type: 2,
            holder: '王芳',
            account: `138${String(members[i]).padStart(8, '0')}`,
            qrUrl: '/uploads/demo/qr.png',
          });
          await paymentOpt(t.app.ctx, manager, { id: p.id, action: 'approve' });
        }
        const logs = await t.db.db
          .selectFrom('op_log')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow();
        const uids = await t.db.db.selectFrom('member').select(['id', 'uid']).where('id', 'in', members).execute();
        const model: Model = {
          members,
          uids: members.map((id) => uids.find((u) => Number(u.id) === id)!.uid),
          status: members.map(() => 1),
          bal: members.map(() => ({
            USDT: { available: 0n, frozen: 0n },
            LZ: { available: 0n, frozen: 0n },
            ENERGY: { available: 0n, frozen: 0n },
          })),
          pledges: [],
          seeds: [],
          matches: [],
          deposits: [],
          withdrawals: [],
          bills: 0,
          opLogs: 0,
          opLogBase: Number(logs.n),
        };
        for (let i = 0; i < ops.length; i++) {
          try {
            await step(model, ops[i]);
          } catch (err) {
            const from = Math.max(0, i - 15);
            throw new Error(
              `operation #${i} ${show(ops[i])}: ${(err as Error).message}\n  operations #${from}–#${i - 1}:\n` +
                ops
                  .slice(from, i)
                  .map((op, j) => `    #${from + j} ${show(op)}`)
                  .join('\n'),
            );
          }
          opsRun += 1;
          if ((i + 1) % CHECK_EVERY === 0) await check(model, `after operation #${i}`);
        }
        await check(model, 'at the end of the run');
      }),
      {
        seed: SEED,
        path: PATH,
        numRuns: PATH ? 1 : RUNS,
        // Shrinking cannot drop operations from a fixed-length run and rerunning 500 operations per
        // attempt takes minutes, so a failure is reported as found (LEDGER_SHRINK=1 shrinks anyway):
        // the failing operation and the ones before it are in the message.
        endOnFailure: !process.env.LEDGER_SHRINK,
        interruptAfterTimeLimit: 600_000,
        markInterruptAsFailure: true,
        // A 500-operation counterexample is too long to print whole: the seed, the path and the
        // failing operation say enough to replay it.
        reporter: (details) => {
          if (!details.failed) return;
          const [ops] = details.counterexample ?? [[]];
          const cause =
            details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
          throw new Error(
            `ledger property failed (seed ${details.seed}, path "${details.counterexamplePath}", ` +
              `shrunk ${details.numShrinks} times to ${ops.length} operations):\n  ${cause}\n` +
              (ops.length <= 40 ? `  operations: ${show(ops)}\n` : '') +
              `  replay: LEDGER_SEED=${details.seed} LEDGER_PATH="${details.counterexamplePath}" npx jest --ci -w 1 ` +
              `__tests__/server/modules/ledger/ledger.property.test.ts`,
          );
        },
      },
    );
    console.log(
      `ledger property (${dbKind}): ${opsRun} operations in ${((Date.now() - started) / 1000).toFixed(1)} s\n` +
        [...tally]
          .sort(([a], [b]) => a.localeCompare(b))
          .map(([k, n]) => `  ${k}: ${n}`)
          .join('\n'),
    );
    expect(opsRun).toBeGreaterThanOrEqual(RUNS * OPS_PER_RUN);
  }, 900_000);
});
