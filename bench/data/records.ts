/**
 * The record tables the generator fills when the schema has them, and the mapping from its record
 * objects to a table's columns. Modules add tables as the project grows: a table is found by name
 * (the first of each list that exists) and only the columns both sides know are written; a column the
 * generator does not know keeps its default.
 */

export const DEPOSIT_TABLES = ['deposit'];
export const WITHDRAWAL_TABLES = ['withdrawal'];
export const PAYMENT_TABLES = ['payment_method'];
export const TRANSFER_TABLES = ['transfer'];

/** The keys the generator's record objects carry, per table (bench/data/generate.ts). */
export const RECORD_KEYS: Record<string, readonly string[]> = {
  deposit: [
    'id', 'member_id', 'chain', 'from_address', 'to_address', 'amount', 'tx_hash', 'proof_url', 'status', 'remark',
    'auditor_id', 'auditor_name', 'audited_at', 'created_at',
  ],
  withdrawal: [
    'id', 'member_id', 'type', 'asset', 'amount', 'fee', 'actual', 'chain', 'address', 'status', 'tx_hash', 'remark',
    'auditor_id', 'auditor_name', 'audited_at', 'paid_at', 'created_at',
  ],
  payment_method: [
    'id', 'member_id', 'type', 'holder', 'account', 'bank', 'branch', 'qr_url', 'status', 'remark', 'auditor_id',
    'auditor_name', 'audited_at', 'created_at', 'updated_at',
  ],
  transfer: ['id', 'from_member_id', 'to_member_id', 'asset', 'amount', 'fee', 'created_at'],
}; // prettier-ignore

const KIND: Record<string, string> = Object.fromEntries(
  [
    ...DEPOSIT_TABLES.map((t) => [t, 'deposit']),
    ...WITHDRAWAL_TABLES.map((t) => [t, 'withdrawal']),
    ...PAYMENT_TABLES.map((t) => [t, 'payment_method']),
    ...TRANSFER_TABLES.map((t) => [t, 'transfer']),
  ],
);

export interface RecordMapper {
  /** Columns written, in order. */
  names: string[];
  /** Columns of the table the generator leaves to their defaults. */
  skipped: string[];
  toRow(record: object): unknown[];
}

/** Maps record objects to rows of `table`, whose columns (in the database) are `columns`. */
export function recordMapper(table: string, columns: string[]): RecordMapper {
  const keys = RECORD_KEYS[KIND[table] ?? table];
  if (!keys) throw new Error(`the bench generator has no records for table ${table}`);
  const known = new Set(keys);
  const names = columns.filter((c) => known.has(c));
  const skipped = columns.filter((c) => !known.has(c));
  return {
    names,
    skipped,
    toRow: (r) => names.map((n) => (r as Record<string, unknown>)[n] ?? null),
  };
}
