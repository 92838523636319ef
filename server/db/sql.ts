/** Small SQL helpers shared by repositories. */
import { sql, type RawBuilder } from 'kysely';

/** Selects a money (BIGINT minor units) column as text so no driver turns it into a float. */
export function money(ref: string): RawBuilder<string> {
  return sql<string>`cast(${sql.ref(ref)} as text)`;
}

/** The exact text of SUM over a money column ('0' when no rows). */
export function moneySum(ref: string): RawBuilder<string> {
  return sql<string>`cast(coalesce(sum(${sql.ref(ref)}), 0) as text)`;
}

/** Text → bigint, for values read with `money()`. */
export function toMinor(text: string | number | bigint | null | undefined): bigint {
  if (text === null || text === undefined) return 0n;
  return BigInt(text);
}

/** Escapes LIKE wildcards so a keyword is matched literally (used with `escape '\'`). */
export function likePrefix(text: string): string {
  return `${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
