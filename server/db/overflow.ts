/** Integer overflow of a balance or a stored sum: refused as a 400, never a 500 or a float. */
import { Code } from '../../domain/codes';
import { AppError } from '../errors';
import { OVERFLOW_ABORT } from './migrations/2026_11_24_1000_integer_sums';

/** The refusal of a write that would take a balance or a stored sum past a signed 64-bit integer. */
export const SUM_OVERFLOW_MESSAGE = '金额合计超出系统上限，本次操作未执行';

/**
 * A write refused because an integer would pass 2^63: PostgreSQL's "out of range" (22003), SQLite's
 * sum() overflow, or the SQLite triggers that refuse to store a sum that went REAL.
 */
export function isIntegerOverflow(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown } | null;
  return e?.code === '22003' || (typeof e?.message === 'string' && e.message.includes(OVERFLOW_ABORT));
}

/**
 * Runs a write that adds to a balance or a sum; an overflow becomes a 400 (the caller's transaction
 * rolls back whole) instead of a 500 or, on SQLite, a float in an integer column.
 */
export async function refuseOverflow<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (isIntegerOverflow(err)) throw new AppError(Code.badInput, SUM_OVERFLOW_MESSAGE);
    throw err;
  }
}
