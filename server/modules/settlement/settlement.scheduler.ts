/**
 * The settlement job inside the server (SETTLE_ENABLED): once a minute it cancels the unpaid matches
 * whose payment time ran out, completes the orders shipped longer ago than the mall setting says, and settles every day that is due (yesterday from SETTLE_AT on, in
 * Asia/Shanghai time; missed days first). Several server processes may run it: the day's lease in the
 * database lets exactly one of them settle it; a tick still running when the next comes is not doubled.
 */
import type { Ctx } from '../../context';
import { completeShippedOrders } from '../mall/orders.service';
import { expireMatches } from '../matches/matches.service';
import { settleDue } from './settlement.service';

export const TICK_MS = 60_000;
/** A failed day is tried again after this long (not on every tick). */
export const RETRY_AFTER_MS = 5 * 60_000;

/** One tick: match expiry, then the due days. Never throws (a failure is logged and retried). */
export async function settlementTick(ctx: Ctx): Promise<void> {
  try {
    const { cancelled } = await expireMatches(ctx, ctx.clock.now());
    if (cancelled > 0) ctx.log.info({ cancelled }, 'expired matches cancelled');
  } catch (err) {
    ctx.log.error({ err }, 'match expiry failed');
  }
  try {
    const { completed } = await completeShippedOrders(ctx, ctx.clock.now());
    if (completed > 0) ctx.log.info({ completed }, 'shipped orders completed');
  } catch (err) {
    ctx.log.error({ err }, 'order auto-complete failed');
  }
  try {
    for (const r of await settleDue(ctx, ctx.clock.now(), { retryAfterMs: RETRY_AFTER_MS })) {
      if (r.outcome === 'done') ctx.log.info(r, 'day settled');
      else if (r.outcome === 'failed') ctx.log.error(r, 'day not settled');
    }
  } catch (err) {
    ctx.log.error({ err }, 'settlement tick failed');
  }
}

/** Starts the per-minute tick (the first at once); the returned function stops it and waits for a running tick. */
export function startSettlement(ctx: Ctx, tickMs = TICK_MS): () => Promise<void> {
  let running: Promise<void> | null = null;
  const tick = () => {
    if (running) return;
    running = settlementTick(ctx).finally(() => {
      running = null;
    });
  };
  const timer = setInterval(tick, tickMs);
  timer.unref();
  tick();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
