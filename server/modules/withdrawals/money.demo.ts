/**
 * Demo money (DOMAIN.md §4): receiving addresses, payout wallets, three months of deposits in every
 * status, and withdrawals (type 1) and extracts (type 2) in every status — made by the member-side
 * services (submitDeposit, requestWithdrawal) and the managers' services (depositOpt, withdrawOpt…),
 * so every balance change has its bill and every manager action its op-log row.
 *
 * Time: the services read `ctx.clock`; this step runs them on a clock of its own that walks through
 * the last 90 days event by event (a request, then its review hours later), so the records, bills and
 * op-log rows carry believable, increasing times. Randomness is seeded: the same database gets the same
 * demo data.
 *
 * Members come from the member table (the members step runs first); none → nothing to do.
 */
import { randomBytes } from 'node:crypto';
import { BillType } from '../../../domain/bills';
import type { Chain } from '../../../domain/deposits';
import { parseAsset } from '../../../domain/money';
import type { WithdrawType } from '../../../domain/withdrawals';
import type { Clock } from '../../clock';
import type { Actor, Ctx } from '../../context';
import { AppError } from '../../errors';
import { ADMIN_USERNAME } from '../../seed/bootstrap';
import { depositAccountOpt } from '../deposits/accounts.service';
import { depositOpt, submitDeposit } from '../deposits/deposits.service';
import { applyChange, balancesOf } from '../ledger/ledger.service';
import { requestWithdrawal } from './requestWithdrawal.service';
import { withdrawOpt } from './withdrawals.service';
import { saveWithdrawAccount } from './withdrawSettings.service';

const DAY = 86_400_000;
const HOUR = 3_600_000;
const MINUTE = 60_000;

/** How much demo money to make; the test uses a smaller size. */
export interface MoneyDemoSize {
  /** Members that take part (taken from the oldest). */
  members: number;
  /** Deposits over the 90 days. */
  deposits: number;
  /** Withdrawal requests (type 1) over the 90 days. */
  withdrawals: number;
  /** Extract requests (type 2) over the 90 days. */
  extracts: number;
  days: number;
}

export const MONEY_DEMO_SIZE: MoneyDemoSize = {
  members: 400,
  deposits: 900,
  withdrawals: 360,
  extracts: 180,
  days: 90,
};

/** mulberry32: a small seeded generator, so demo data is the same on every first start. */
function seeded(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)],
    hex: (n: number) => Array.from({ length: n }, () => '0123456789abcdef'[Math.floor(next() * 16)]).join(''),
  };
}
type Rng = ReturnType<typeof seeded>;

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const trc20 = (r: Rng) => `T${Array.from({ length: 33 }, () => r.pick(BASE58.split(''))).join('')}`;
const erc20 = (r: Rng) => `0x${r.hex(40)}`;
const addressOn = (chain: Chain, r: Rng) => (chain === 'TRC20' ? trc20(r) : erc20(r));
/** Transaction hashes must be unique across runs too (txHash is unique): mix in real randomness. */
const txOn = (chain: Chain) => (chain === 'TRC20' ? '' : '0x') + randomBytes(32).toString('hex');

const REJECT_DEPOSIT = ['未查询到该笔链上交易', '到账金额与申请金额不符', '收款地址错误', '重复提交'];
const REJECT_WITHDRAW = ['提现地址存在风险', '账户存在异常交易，请联系客服', '收款地址格式有误', '近期有异常登录'];

/** A queue of actions ordered by time; an action may schedule later ones (the review of a request). */
class Timeline {
  private items: Array<{ at: number; seq: number; run: () => Promise<void> }> = [];
  private seq = 0;
  add(at: number, run: () => Promise<void>) {
    const item = { at, seq: this.seq++, run };
    // Binary insert by (at, seq): stable for equal times.
    let lo = 0;
    let hi = this.items.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const m = this.items[mid];
      if (m.at < at || (m.at === at && m.seq < item.seq)) lo = mid + 1;
      else hi = mid;
    }
    this.items.splice(lo, 0, item);
  }
  async drain(clock: { t: number }) {
    while (this.items.length > 0) {
      const item = this.items.shift()!;
      clock.t = Math.max(clock.t, item.at);
      await item.run();
    }
  }
}

/** Refusals a member could meet (balance too low, daily limit, frozen member) skip that record. */
async function tolerate<T>(fn: () => Promise<T>): Promise<T | undefined> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof AppError) return undefined;
    throw err;
  }
}

async function actorsOf(ctx: Ctx): Promise<Actor[]> {
  const rows = await ctx.db
    .selectFrom('manager')
    .select(['id', 'username'])
    .where('status', '=', 1)
    .where('username', 'in', ['caiwu01', 'caiwu02', ADMIN_USERNAME])
    .orderBy('id')
    .execute();
  const finance = rows.filter((r) => r.username !== ADMIN_USERNAME);
  return (finance.length > 0 ? finance : rows).map((r) => ({
    managerId: Number(r.id),
    username: r.username,
    ip: '127.0.0.1',
  }));
}

export async function seedMoneyDemo(ctx: Ctx, size: MoneyDemoSize = MONEY_DEMO_SIZE): Promise<void> {
  const end = ctx.clock.now();
  const rows = await ctx.db
    .selectFrom('member')
    .select(['id', 'created_at'])
    .where('status', '=', 1)
    .orderBy('id')
    .limit(size.members)
    .execute();
  const members = rows.map((m) => Number(m.id));
  /** A member acts only after registering. */
  const joined = new Map(rows.map((m) => [Number(m.id), Number(m.created_at)]));
  const after = (memberId: number, t: number) =>
    Math.min(Math.max(t, (joined.get(memberId) ?? 0) + HOUR), end - MINUTE);
  const actors = await actorsOf(ctx);
  if (members.length === 0 || actors.length === 0) return;

  const r = seeded(20261123);
  const clock = { t: end - size.days * DAY - DAY };
  const demoClock: Clock = { now: () => clock.t };
  const dctx: Ctx = { ...ctx, clock: demoClock };
  const manager = () => r.pick(actors);
  const timeline = new Timeline();

  // Receiving addresses and payout wallets, set up before the first deposit.
  const receiving: Record<Chain, string[]> = { TRC20: [], ERC20: [] };
  for (const [chain, remark, status] of [
    ['TRC20', '主收款地址', 1],
    ['TRC20', '备用收款地址', 1],
    ['ERC20', '以太坊收款地址', 1],
    ['TRC20', '旧地址（已停用）', 0],
  ] as const) {
    const address = addressOn(chain, r);
    await depositAccountOpt(dctx, manager(), { action: 'create', chain, address, remark, status });
    if (status === 1) receiving[chain].push(address);
    clock.t += 5 * MINUTE;
  }
  for (const type of [1, 2] as const) {
    await saveWithdrawAccount(dctx, manager(), {
      type,
      chain: 'TRC20',
      address: trc20(r),
      remark: type === 1 ? 'USDT出款钱包' : 'LZ出款钱包',
    });
  }

  // Each member's own addresses (a member withdraws to the same wallet he deposits from).
  const wallets = new Map<number, { chain: Chain; address: string }>();
  const walletOf = (memberId: number) => {
    let w = wallets.get(memberId);
    if (!w) {
      const chain: Chain = r.next() < 0.8 ? 'TRC20' : 'ERC20';
      w = { chain, address: addressOn(chain, r) };
      wallets.set(memberId, w);
    }
    return w;
  };
  const start = clock.t + HOUR;
  const span = end - start;
  /** A time in the window, denser towards today (a growing platform). */
  const when = () => start + Math.floor(Math.sqrt(r.next()) * span);
  const age = (t: number) => end - t;

  // Deposits: most confirmed within hours; some rejected; the last day's still waiting.
  for (let i = 0; i < size.deposits; i++) {
    const memberId = r.pick(members);
    const at = after(memberId, when());
    const { chain, address } = walletOf(memberId);
    const amount = String(r.pick([50, 100, 100, 200, 300, 500, 500, 1000, 2000, 5000]) + r.int(0, 99) / 100);
    timeline.add(at, async () => {
      const made = await tolerate(() =>
        submitDeposit(dctx, {
          memberId,
          chain,
          fromAddress: address,
          toAddress: r.pick(receiving[chain]),
          amount,
          txHash: txOn(chain),
        }),
      );
      if (!made) return;
      const review = at + r.int(10, 240) * MINUTE;
      if (review > end || (age(at) < 2 * DAY && r.next() < 0.5)) return; // still 待确认
      const reject = r.next() < 0.08;
      timeline.add(review, async () => {
        await tolerate(() =>
          depositOpt(dctx, manager(), {
            id: made.id,
            action: reject ? 'reject' : 'confirm',
            remark: reject ? r.pick(REJECT_DEPOSIT) : undefined,
          }),
        );
      });
    });
  }

  // Extracts need LZ: the members who extract and have little get some (an operator's adjustment, bill 后台调整).
  const extractors = members.filter((_, i) => i % 3 === 0);
  for (const memberId of extractors) {
    if ((await balancesOf(ctx.db, memberId)).LZ.available >= 10_000_000n) continue; // 1,000 LZ
    const lz = parseAsset(String(r.int(5, 80) * 1000), 'LZ');
    if (!lz.ok) continue;
    await ctx.db
      .transaction()
      .execute((trx) =>
        applyChange(
          trx,
          { memberId, asset: 'LZ', available: lz.value, type: BillType.adminAdjust, remark: '演示数据：LZ初始额度' },
          after(memberId, start - 30 * MINUTE),
        ),
      );
  }

  // Withdrawals and extracts: after the member has money; reviewed (approved then paid, or rejected)
  // within a day; the recent ones wait in 待审核 or 待打款.
  const request = (type: WithdrawType, count: number) => {
    const pool = type === 1 ? members : extractors;
    let waiting = 0;
    for (let i = 0; i < count; i++) {
      // Every sixth request is from the last two days, so the queues of 待审核 and 待打款 are never empty.
      const memberId = r.pick(pool);
      const at = after(memberId, i % 6 === 5 ? end - r.int(30, 47 * 60) * MINUTE : when() + 6 * HOUR);
      timeline.add(at, async () => {
        const asset = type === 1 ? 'USDT' : 'LZ';
        const balance = (await balancesOf(ctx.db, memberId))[asset].available;
        const whole = Number(balance / (type === 1 ? 1_000_000n : 10_000n));
        const min = type === 1 ? 20 : 200;
        if (whole < min) return;
        const amount = String(r.int(min, Math.min(whole, type === 1 ? 3000 : 20000)));
        const { chain, address } = type === 1 ? walletOf(memberId) : { chain: 'TRC20' as Chain, address: trc20(r) };
        const made = await tolerate(() => requestWithdrawal(dctx, { memberId, type, amount, chain, address }));
        if (!made) return;
        const id = made.id;
        const fate = r.next();
        // Recent requests take turns: left 待审核, left 待打款, or reviewed like the older ones.
        const recent = age(at) < 2 * DAY ? waiting++ % 3 : -1;
        const approveAt = at + r.int(20, 300) * MINUTE;
        if (approveAt > end || recent === 0) return; // 待审核
        if (fate > 0.88 && recent !== 1) {
          timeline.add(approveAt, async () => {
            await tolerate(() =>
              withdrawOpt(dctx, manager(), { id, action: 'reject', remark: r.pick(REJECT_WITHDRAW) }, () => {}),
            );
          });
          return;
        }
        timeline.add(approveAt, async () => {
          await tolerate(() => withdrawOpt(dctx, manager(), { id, action: 'approve' }, () => {}));
        });
        const payAt = approveAt + r.int(30, 600) * MINUTE;
        if (payAt > end || recent === 1) return; // 待打款
        timeline.add(payAt, async () => {
          await tolerate(() =>
            withdrawOpt(
              dctx,
              manager(),
              fate > 0.85
                ? { id, action: 'reject', remark: '出款钱包余额不足，请重新申请' } // approved, then rejected
                : { id, action: 'paid', txHash: txOn(chain) },
              () => {},
            ),
          );
        });
      });
    }
  };
  request(1, size.withdrawals);
  request(2, size.extracts);

  await timeline.drain(clock);
}
