import { sql, type Kysely } from 'kysely';
import { dialectOf } from '../dialect';

/**
 * PostgreSQL: bill.member_id loses its foreign key. Checking it took a FOR KEY SHARE lock on the
 * member's row for every bill, a write to a random page of the member table (1,000,000 rows) that the
 * settlement job paid a million times a day (−29 % of a batch's time without it and the release keys,
 * docs/performance.md). The key is kept by the ledger instead: a bill is written only by
 * ledger.service, in the transaction that first updates the member's account row, an UPDATE that must
 * hit it (account.member_id keeps its foreign key), and members are never deleted.
 * SQLite keeps the key: its check is a lookup without a lock, and dropping it there means rebuilding
 * a table of tens of millions of rows.
 */
export async function up(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) !== 'postgres') return;
  await sql`alter table bill drop constraint if exists bill_member_id_fkey`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) !== 'postgres') return;
  await sql`alter table bill add constraint bill_member_id_fkey foreign key (member_id) references member (id)`.execute(
    db,
  );
}
