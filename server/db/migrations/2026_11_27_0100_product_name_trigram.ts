import { sql, type Kysely } from 'kysely';
import { dialectOf } from '../dialect';

/**
 * A trigram index on product names, so that the product list's name keyword (`name like '%…%'`) of 3
 * characters or more no longer reads every name for its exact total (docs/decisions.md, the mall).
 * - SQLite: product_name_fts, an FTS5 table with the trigram tokenizer (case-insensitive, as SQLite's
 *   LIKE is for ASCII) over product.name (external content: rowid = product id, no copy of the names),
 *   kept by triggers on insert, rename and delete of a product. The repository asks it for the
 *   candidates (`id in (select rowid … match '"…"')`) and keeps the LIKE for the exact answer.
 * - PostgreSQL: a pg_trgm GIN index on the names of products not deleted, which the same LIKE uses.
 *   The extension is created in public when it is missing, under an advisory lock (two migrations at
 *   once must not both create it), never in a schema that may be dropped (a test or bench schema:
 *   dropping it would drop every other schema's trigram index with it); the operator class is named
 *   with the schema the extension is in, as the search path may not include it.
 */
const PG_TRGM_LOCK = 7_361_901;

export async function up(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) === 'sqlite') {
    await sql`create virtual table product_name_fts using fts5(
      name, content = 'product', content_rowid = 'id', tokenize = 'trigram case_sensitive 0'
    )`.execute(db);
    await sql`insert into product_name_fts (product_name_fts) values ('rebuild')`.execute(db);
    await sql`create trigger product_name_fts_insert after insert on product begin
      insert into product_name_fts (rowid, name) values (new.id, new.name);
    end`.execute(db);
    await sql`create trigger product_name_fts_update after update of name on product
      when old.name is not new.name begin
      insert into product_name_fts (product_name_fts, rowid, name) values ('delete', old.id, old.name);
      insert into product_name_fts (rowid, name) values (new.id, new.name);
    end`.execute(db);
    await sql`create trigger product_name_fts_delete after delete on product begin
      insert into product_name_fts (product_name_fts, rowid, name) values ('delete', old.id, old.name);
    end`.execute(db);
    return;
  }
  await sql`select pg_advisory_xact_lock(${sql.lit(PG_TRGM_LOCK)})`.execute(db);
  const where = async () =>
    (
      await sql<{ schema: string }>`select n.nspname as schema from pg_extension e
        join pg_namespace n on n.oid = e.extnamespace where e.extname = 'pg_trgm'`.execute(db)
    ).rows[0]?.schema;
  let schema = await where();
  if (!schema) {
    await sql`create extension if not exists pg_trgm with schema public`.execute(db);
    schema = (await where())!;
  }
  await sql`create index product_name_trgm_idx on product
    using gin (name ${sql.id(schema)}.gin_trgm_ops) where deleted_at is null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) === 'sqlite') {
    for (const t of ['product_name_fts_insert', 'product_name_fts_update', 'product_name_fts_delete'])
      await sql`drop trigger ${sql.id(t)}`.execute(db);
    await sql`drop table product_name_fts`.execute(db);
    return;
  }
  // The extension stays: other schemas of the database may use it.
  await sql`drop index product_name_trgm_idx`.execute(db);
}
