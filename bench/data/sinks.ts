/**
 * Bulk paths into the two databases. Both sinks take rows (arrays in column order) for any table and
 * write them the fastest way the driver allows, with the secondary indexes dropped during the load
 * and built once at the end, then fresh planner statistics.
 *
 * - SQLite (better-sqlite3): one connection with the journal off, synchronous off, an exclusive lock
 *   and a big page cache; prepared multi-row INSERTs (hundreds of rows per statement) inside
 *   transactions of ~2 million rows. Foreign keys are off for the load (the data is consistent by
 *   construction and checked afterwards). At the end: indexes, ANALYZE, and back to WAL.
 * - PostgreSQL (pg): COPY … FROM STDIN in text format through a small Submittable on the plain pg
 *   client (no extra package), 50,000 rows a COPY, one COPY on the wire while the next is generated.
 *   session_replication_role = replica skips the foreign-key triggers during the load; non-primary
 *   indexes and unique constraints are dropped first and rebuilt after, sequences are moved past the
 *   loaded ids, and VACUUM (ANALYZE) leaves the visibility map set for index-only scans.
 */
import SQLite from 'better-sqlite3';
import pg from 'pg';
import type { RowSink } from './generate';

type Log = (msg: string) => void;

export interface BulkSink extends RowSink {
  hasTable(name: string): Promise<boolean>;
  /** Column names of a table, in table order. */
  columns(table: string): Promise<string[]>;
  /** Drops the secondary indexes (and unique constraints where they can be dropped) of these tables. */
  dropIndexes(tables: string[]): Promise<void>;
  /** Builds what dropIndexes dropped. */
  rebuildIndexes(log: Log): Promise<void>;
  /** Statistics and whatever the database needs after a bulk load. */
  finish(log: Log): Promise<void>;
  close(): Promise<void>;
}

const secs = (t0: number) => `${((Date.now() - t0) / 1000).toFixed(1)} s`;

// ---------------------------------------------------------------------------------------------

/** SQLite's default limit of bound parameters per statement is 32,766; stay well below. */
const SQLITE_MAX_PARAMS = 8_000;
const SQLITE_ROWS_PER_STMT = 500;
const SQLITE_ROWS_PER_TX = 2_000_000;

export class SqliteSink implements BulkSink {
  private db: SQLite.Database;
  private stmts = new Map<string, SQLite.Statement>();
  private inTx = false;
  private txRows = 0;
  private dropped: { name: string; sql: string }[] = [];
  private params: unknown[] = [];
  private tables = new Set<string>();

  constructor(file: string) {
    this.db = new SQLite(file);
    this.db.pragma('foreign_keys = OFF');
    this.db.pragma('journal_mode = OFF');
    this.db.pragma('synchronous = OFF');
    this.db.pragma('locking_mode = EXCLUSIVE');
    this.db.pragma('cache_size = -262144');
  }

  async hasTable(name: string) {
    return !!this.db.prepare(`select 1 from sqlite_master where type = 'table' and name = ?`).get(name);
  }

  async columns(table: string) {
    return (this.db.pragma(`table_info(${JSON.stringify(table)})`) as { name: string }[]).map((c) => c.name);
  }

  private statement(table: string, columns: string[], rows: number) {
    const key = `${table}|${columns.join(',')}|${rows}`;
    let stmt = this.stmts.get(key);
    if (!stmt) {
      const one = `(${columns.map(() => '?').join(',')})`;
      stmt = this.db.prepare(
        `insert into ${JSON.stringify(table)} (${columns.map((c) => JSON.stringify(c)).join(',')}) values ${Array(rows).fill(one).join(',')}`,
      );
      this.stmts.set(key, stmt);
    }
    return stmt;
  }

  async insert(table: string, columns: string[], rows: unknown[][]) {
    if (!rows.length) return;
    this.tables.add(table);
    if (!this.inTx) {
      this.db.exec('begin');
      this.inTx = true;
    }
    const width = columns.length;
    const per = Math.max(1, Math.min(SQLITE_ROWS_PER_STMT, Math.floor(SQLITE_MAX_PARAMS / width)));
    const p = this.params;
    for (let i = 0; i < rows.length; i += per) {
      const n = Math.min(per, rows.length - i);
      p.length = n * width;
      let k = 0;
      for (let r = i; r < i + n; r++) {
        const row = rows[r];
        for (let c = 0; c < width; c++) p[k++] = row[c];
      }
      this.statement(table, columns, n).run(p);
    }
    this.txRows += rows.length;
    if (this.txRows >= SQLITE_ROWS_PER_TX) this.commit();
  }

  private commit() {
    if (this.inTx) this.db.exec('commit');
    this.inTx = false;
    this.txRows = 0;
  }

  async dropIndexes(tables: string[]) {
    this.commit();
    const list = this.db
      .prepare(
        `select name, sql from sqlite_master where type = 'index' and sql is not null and tbl_name in (${tables.map(() => '?').join(',')})`,
      )
      .all(...tables) as { name: string; sql: string }[];
    for (const ix of list) this.db.exec(`drop index ${JSON.stringify(ix.name)}`);
    this.dropped.push(...list);
  }

  async rebuildIndexes(log: Log) {
    this.commit();
    this.stmts.clear();
    for (const ix of this.dropped) {
      const t0 = Date.now();
      this.db.exec(ix.sql);
      log(`index ${ix.name} in ${secs(t0)}`);
    }
    this.dropped = [];
  }

  async finish(log: Log) {
    this.commit();
    const t0 = Date.now();
    this.db.exec('analyze');
    log(`ANALYZE in ${secs(t0)}`);
    this.db.pragma('locking_mode = NORMAL');
    this.db.pragma('journal_mode = WAL');
  }

  async close() {
    this.commit();
    this.db.close();
  }
}

// ---------------------------------------------------------------------------------------------

const PG_ROWS_PER_COPY = 50_000;

/** COPY … FROM STDIN with a prepared payload: answers the server's CopyInResponse with the data. */
class CopyFrom extends (pg.Query as unknown as new (text: string, values: undefined, cb: (err: Error | null) => void) => object) {
  constructor(
    text: string,
    private payload: Buffer,
    cb: (err: Error | null) => void,
  ) {
    super(text, undefined, cb);
  }
  handleCopyInResponse(connection: {
    sendCopyFromChunk(b: Buffer): void;
    endCopyFrom(): void;
  }) {
    const CHUNK = 1 << 20;
    for (let i = 0; i < this.payload.length; i += CHUNK)
      connection.sendCopyFromChunk(this.payload.subarray(i, i + CHUNK));
    connection.endCopyFrom();
  }
}

/** COPY text format: tab separated, \N for null, backslash escapes. */
function copyValue(v: unknown): string {
  if (v === null || v === undefined) return '\\N';
  if (typeof v === 'string') return /[\\\t\n\r]/.test(v) ? v.replace(/[\\\t\n\r]/g, (c) => (c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r')) : v;
  return String(v);
}

const ident = (s: string) => `"${s.replace(/"/g, '""')}"`;

export class PgSink implements BulkSink {
  private client: pg.Client;
  private buffers = new Map<string, { table: string; columns: string[]; lines: string[] }>();
  private inflight: Promise<void> = Promise.resolve();
  private droppedIndexes: { tbl: string; name: string; def: string }[] = [];
  private droppedUniques: { tbl: string; name: string; def: string }[] = [];
  private tables = new Set<string>();

  constructor(
    url: string,
    private schema: string,
  ) {
    this.client = new pg.Client({ connectionString: url, options: `-c search_path=${schema}` });
  }

  async connect() {
    await this.client.connect();
    await this.client.query(`set synchronous_commit = off`);
    await this.client.query(`set maintenance_work_mem = '512MB'`);
    try {
      await this.client.query(`set session_replication_role = replica`);
    } catch {
      // Not a superuser: the foreign keys are checked row by row (slower, same result).
    }
  }

  async hasTable(name: string) {
    const r = await this.client.query(
      `select 1 from information_schema.tables where table_schema = $1 and table_name = $2`,
      [this.schema, name],
    );
    return r.rowCount! > 0;
  }

  async columns(table: string) {
    const r = await this.client.query<{ column_name: string }>(
      `select column_name from information_schema.columns where table_schema = $1 and table_name = $2 order by ordinal_position`,
      [this.schema, table],
    );
    return r.rows.map((x) => x.column_name);
  }

  async insert(table: string, columns: string[], rows: unknown[][]) {
    if (!rows.length) return;
    this.tables.add(table);
    const key = `${table}|${columns.join(',')}`;
    let b = this.buffers.get(key);
    if (!b) this.buffers.set(key, (b = { table, columns, lines: [] }));
    for (const row of rows) {
      let line = '';
      for (let c = 0; c < row.length; c++) line += (c ? '\t' : '') + copyValue(row[c]);
      b.lines.push(line);
    }
    if (b.lines.length >= PG_ROWS_PER_COPY) await this.flush(b);
  }

  private async flush(b: { table: string; columns: string[]; lines: string[] }) {
    if (!b.lines.length) return;
    const payload = Buffer.from(`${b.lines.join('\n')}\n`, 'utf8');
    b.lines = [];
    const text = `copy ${ident(b.table)} (${b.columns.map(ident).join(', ')}) from stdin`;
    const prev = this.inflight;
    const next = prev.then(
      () =>
        new Promise<void>((resolve, reject) => {
          this.client.query(new CopyFrom(text, payload, (err) => (err ? reject(err) : resolve())) as never);
        }),
    );
    next.catch(() => undefined);
    this.inflight = next;
    // One COPY on the wire while the caller generates the next batch.
    await prev;
  }

  /** Sends what is buffered and waits until the server has it all. */
  async drain() {
    for (const b of this.buffers.values()) await this.flush(b);
    await this.inflight;
  }

  async dropIndexes(tables: string[]) {
    await this.drain();
    const ix = await this.client.query<{ tbl: string; name: string; def: string }>(
      `select c.relname as tbl, ic.relname as name, pg_get_indexdef(i.indexrelid) as def
         from pg_index i
         join pg_class c on c.oid = i.indrelid
         join pg_class ic on ic.oid = i.indexrelid
         join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = $1 and c.relname = any($2) and not i.indisprimary
          and not exists (select 1 from pg_constraint k where k.conindid = i.indexrelid)`,
      [this.schema, tables],
    );
    const uq = await this.client.query<{ tbl: string; name: string; def: string }>(
      `select c.relname as tbl, k.conname as name, pg_get_constraintdef(k.oid) as def
         from pg_constraint k
         join pg_class c on c.oid = k.conrelid
         join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = $1 and c.relname = any($2) and k.contype = 'u'`,
      [this.schema, tables],
    );
    for (const x of ix.rows) await this.client.query(`drop index ${ident(this.schema)}.${ident(x.name)}`);
    for (const x of uq.rows) await this.client.query(`alter table ${ident(x.tbl)} drop constraint ${ident(x.name)}`);
    this.droppedIndexes.push(...ix.rows);
    this.droppedUniques.push(...uq.rows);
  }

  async rebuildIndexes(log: Log) {
    await this.drain();
    for (const x of this.droppedUniques) {
      const t0 = Date.now();
      await this.client.query(`alter table ${ident(x.tbl)} add constraint ${ident(x.name)} ${x.def}`);
      log(`constraint ${x.name} ${x.def} in ${secs(t0)}`);
    }
    for (const x of this.droppedIndexes) {
      const t0 = Date.now();
      await this.client.query(x.def);
      log(`index ${x.name} in ${secs(t0)}`);
    }
    this.droppedIndexes = [];
    this.droppedUniques = [];
  }

  async finish(log: Log) {
    await this.drain();
    for (const t of this.tables) {
      // Tables with a serial id (not account): move the sequence past the loaded ids.
      const seq = await this.client.query<{ s: string | null }>(
        `select pg_get_serial_sequence(quote_ident(table_schema) || '.' || quote_ident(table_name), 'id') as s
           from information_schema.columns where table_schema = $1 and table_name = $2 and column_name = 'id'`,
        [this.schema, t],
      );
      const s = seq.rows[0]?.s;
      if (s) await this.client.query(`select setval($1, (select coalesce(max(id), 0) + 1 from ${ident(t)}), false)`, [s]);
    }
    for (const t of this.tables) {
      const t0 = Date.now();
      await this.client.query(`vacuum (analyze) ${ident(t)}`);
      log(`VACUUM (ANALYZE) ${t} in ${secs(t0)}`);
    }
  }

  async close() {
    await this.client.end();
  }
}
