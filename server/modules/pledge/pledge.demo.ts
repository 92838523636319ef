/**
 * Demo pledges (DOMAIN.md §4): four modes (one disabled after use) and ~300 pledges over the last 90
 * days, made by the manager's `createMode`/`saveMode` and the member-side `pledge`, with the daily
 * settlement (server/modules/settlement `settleDay`) run after each past day, so the records carry
 * their releases and bills (质押收益, 质押赎回) and the short modes' older pledges are 已到期.
 *
 * Time: the services read `ctx.clock`; this step runs them on a clock of its own that walks day by
 * day through the window. Randomness is seeded: the same database gets the same demo data.
 */
import { BillType } from '../../../domain/bills';
import type { Clock } from '../../clock';
import type { Actor, Ctx } from '../../context';
import { dayOf, dayStart } from '../../db/dayBuckets';
import { AppError } from '../../errors';
import { ADMIN_USERNAME } from '../../seed/bootstrap';
import { applyChange, balancesOf } from '../ledger/ledger.service';
import { settleDay } from '../settlement/settlement.service';
import { createMode, pledge, saveMode } from './pledge.service';

const HOUR = 3_600_000;
const LZ = 10_000n;

export interface PledgeDemoSize {
  members: number;
  pledges: number;
  days: number;
}

export const PLEDGE_DEMO_SIZE: PledgeDemoSize = { members: 200, pledges: 300, days: 90 };

const MODES = [
  { name: '灵活7天', days: 7, rate: '0.002', minAmount: '100', maxAmount: '20000', sort: 1 },
  { name: '稳健30天', days: 30, rate: '0.0035', minAmount: '500', maxAmount: '100000', sort: 2 },
  { name: '进阶90天', days: 90, rate: '0.005', minAmount: '1000', maxAmount: '500000', sort: 3 },
  { name: '旧版15天', days: 15, rate: '0.003', minAmount: '200', maxAmount: '50000', sort: 9 },
] as const;

/** mulberry32: a small seeded generator. */
function seeded(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)) };
}

async function tolerate<T>(fn: () => Promise<T>): Promise<T | undefined> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof AppError) return undefined;
    throw err;
  }
}

export async function seedPledgeDemo(ctx: Ctx, size: PledgeDemoSize = PLEDGE_DEMO_SIZE): Promise<void> {
  const end = ctx.clock.now();
  const rows = await ctx.db
    .selectFrom('member')
    .select(['id', 'created_at'])
    .where('status', '=', 1)
    .orderBy('id')
    .limit(size.members)
    .execute();
  const members = rows.map((m) => Number(m.id));
  /** A member pledges only after registering. */
  const joined = new Map(rows.map((m) => [Number(m.id), Number(m.created_at)]));
  const admin = await ctx.db
    .selectFrom('manager')
    .select(['id', 'username'])
    .where('username', '=', ADMIN_USERNAME)
    .executeTakeFirst();
  if (members.length === 0 || !admin) return;
  const actor: Actor = { managerId: Number(admin.id), username: admin.username, ip: '127.0.0.1' };

  const r = seeded(20261125);
  const clock = { t: dayStart(dayOf(end) - size.days) + 9 * HOUR };
  const demoClock: Clock = { now: () => clock.t };
  const dctx: Ctx = { ...ctx, clock: demoClock };

  const modes: Array<{ id: number; min: number; max: number; name: string }> = [];
  for (const m of MODES) {
    const made = await createMode(dctx, { ...m, status: 1 }, actor);
    modes.push({ id: made.id, min: Number(m.minAmount), max: Math.min(Number(m.maxAmount), 30000), name: m.name });
    clock.t += 10 * 60_000;
  }

  // When each pledge is made: spread over the window, a little denser towards today.
  const firstDay = dayOf(clock.t);
  const today = dayOf(end);
  const times: number[] = [];
  for (let i = 0; i < size.pledges; i++) {
    const day = firstDay + Math.floor(Math.sqrt(r.next()) * (today - firstDay));
    times.push(dayStart(day) + 8 * HOUR + r.int(0, 14 * 60) * 60_000);
  }
  times.sort((a, b) => a - b);
  const retired = modes[3];
  const retireDay = firstDay + Math.floor((today - firstDay) * 0.6);

  let next = 0;
  for (let day = firstDay; day <= today; day++) {
    if (day === retireDay) {
      // The old mode is retired: it keeps its records (使用中) but takes no new pledges.
      clock.t = Math.max(clock.t, dayStart(day) + 8 * HOUR);
      const m = MODES[3];
      await saveMode(dctx, actor, { id: retired.id, ...m, status: 0 });
    }
    while (next < times.length && dayOf(times[next]) === day) {
      const at = Math.min(times[next++], end - 60_000);
      clock.t = Math.max(clock.t, at);
      const live = day >= retireDay ? modes.slice(0, 3) : modes;
      const mode = live[r.int(0, live.length - 1)];
      const memberId = members[r.int(0, members.length - 1)];
      if ((joined.get(memberId) ?? 0) > clock.t) continue;
      const amount = BigInt(r.int(mode.min, mode.max)) * LZ;
      const available = (await balancesOf(ctx.db, memberId)).LZ.available;
      if (available < amount) {
        // The member tops up first (an operator's adjustment, bill 后台调整).
        await ctx.db.transaction().execute((trx) =>
          applyChange(
            trx,
            {
              memberId,
              asset: 'LZ',
              available: amount - available + BigInt(r.int(0, 500)) * LZ,
              type: BillType.adminAdjust,
              remark: '演示数据：LZ质押额度',
            },
            clock.t - HOUR,
          ),
        );
      }
      await tolerate(() => pledge(dctx, { memberId, modeId: mode.id, amount }, clock.t));
    }
    if (day < today) {
      // The day is over: the settlement job pays it a few minutes past midnight.
      clock.t = Math.max(clock.t, dayStart(day + 1) + 5 * 60_000);
      await settleDay(dctx, day, { owner: 'demo' });
    }
  }
}
