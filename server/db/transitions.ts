/**
 * A state change as one conditional UPDATE per allowed source state (`defineTransitions` of
 * domain/enums.ts gives the `from` list): `update(from)` runs `… WHERE id = ? AND status = from` and
 * returns the row it changed or undefined. The first that changes a row wins, so the caller knows the
 * state the row left (its counters move from there); undefined when the row is missing or in no
 * state of `from`.
 */
export async function updateFromFirst<R>(
  from: readonly number[],
  update: (from: number) => Promise<R | undefined>,
): Promise<{ row: R; from: number } | undefined> {
  for (const state of from) {
    const row = await update(state);
    if (row) return { row, from: state };
  }
  return undefined;
}
