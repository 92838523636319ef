/**
 * A query's rows as PostgreSQL writes them in CSV (`COPY (…) TO STDOUT WITH (FORMAT csv)`), read as raw
 * bytes on a connection of its own: what the CSV and xlsx exports read on PostgreSQL
 * (server/export/csvCopy.ts, server/export/xlsxCopy.ts).
 * No row is parsed by pg and no field becomes a JavaScript string unless the export formats it.
 *
 * COPY takes no bind parameters, so the query's values are written into its text as literals
 * (copyStatement, inlineParameters): integers as they print (a negative one in parentheses), text as an
 * escape string `E'…'` with its backslashes and quotes doubled. Anything else (fractions, arrays, dates,
 * objects) is refused, when the export is built, before any byte is sent. The connection sets
 * `standard_conforming_strings` on, so that the query's own literals (`escape '\'`) read as the scanner
 * read them.
 *
 * One statement reads every row from one snapshot; the client's pace sets PostgreSQL's (the socket is
 * paused while the consumer is behind; the COPY's messages are read off the socket by ./copyOut.ts, not
 * by pg's parser). The connection is closed when the rows end, when the consumer stops early (`return()` of the iterator), when `signal` aborts (the download went away, even before
 * the first row) and on any error. At most COPY_CONNECTIONS run at once per thread; more wait.
 */
import pg from 'pg';
import { CopyOut } from './copyOut';
import type { DbSource } from './dialect';

/** A value as a PostgreSQL literal (see inlineParameters). */
export function pgLiteral(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'number') {
    // Only integers: a fraction would become a numeric literal where a bound value would have failed.
    if (!Number.isSafeInteger(value)) throw new RangeError(`cannot inline ${value}`);
    return value < 0 ? `(${value})` : String(value); // `-$1` must not become `--1`, a comment
  }
  if (typeof value === 'bigint') return value < 0n ? `(${value})` : value.toString();
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'string') {
    if (value.includes('\0')) throw new RangeError('cannot inline a NUL character');
    return `E'${value.replaceAll('\\', '\\\\').replaceAll("'", "''")}'`;
  }
  throw new TypeError(`cannot inline a value of type ${Object.prototype.toString.call(value)}`);
}

/** Where the quoted part that starts at `i` (a quote character `q`, doubled inside) ends. */
function quotedEnd(text: string, i: number, q: string): number {
  let j = i + 1;
  for (;;) {
    j = text.indexOf(q, j);
    if (j < 0) throw new SyntaxError(`unterminated ${q} in query text`);
    if (text[j + 1] !== q) return j + 1;
    j += 2;
  }
}

/**
 * The compiled query's text with each `$n` replaced by its value as a literal. Quoted literals and
 * identifiers are copied as they are; what this scanner cannot read as PostgreSQL would — an escape or
 * Unicode string (`E'…'`, `U&'…'`: a backslash there changes where it ends), a comment (its end depends
 * on nesting and line ends), a `$` that is not a placeholder (a dollar-quoted string) — is refused rather
 * than guessed at, as is a placeholder without a value. (Kysely writes none of them.)
 */
export function inlineParameters(text: string, parameters: readonly unknown[]): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    let end = i + 1;
    if (c === "'" || c === '"') {
      if (c === "'" && /(?:^|[^\w$])(?:[eE]|[uU]&)$/.test(text.slice(Math.max(0, i - 3), i))) {
        throw new SyntaxError('an escape or Unicode string in query text');
      }
      end = quotedEnd(text, i, c);
    } else if ((c === '-' && text[i + 1] === '-') || (c === '/' && text[i + 1] === '*')) {
      throw new SyntaxError('a comment in query text');
    } else if (c === '$') {
      const m = /^\$(\d+)/.exec(text.slice(i, i + 12));
      if (!m) throw new SyntaxError('a $ that is not a placeholder in query text');
      const n = Number(m[1]);
      if (n < 1 || n > parameters.length) throw new RangeError(`placeholder $${n} has no value`);
      out += pgLiteral(parameters[n - 1]);
      i += m[0].length;
      continue;
    }
    out += text.slice(i, end);
    i = end;
  }
  return out;
}

/** The COPY of a compiled SELECT, its values written in: made when the export is built (it may refuse). */
export function copyStatement(query: { sql: string; parameters: readonly unknown[] }): string {
  return `copy (${inlineParameters(query.sql, query.parameters)}) to stdout with (format csv)`;
}

/**
 * COPY connections open at once in this thread (each export worker is a thread; in the request's thread
 * when exports run there): every export opens its own, outside the pool, so the number is bounded here.
 */
export const COPY_CONNECTIONS = 2;
let open = 0;
const waiting: Array<() => void> = [];

async function slot(signal?: AbortSignal): Promise<() => void> {
  if (signal?.aborted) throw new Error('COPY aborted');
  if (open >= COPY_CONNECTIONS) {
    await new Promise<void>((resolve, reject) => {
      const go = () => {
        signal?.removeEventListener('abort', stop);
        resolve();
      };
      const stop = () => {
        waiting.splice(waiting.indexOf(go), 1);
        reject(new Error('COPY aborted while waiting for a connection'));
      };
      signal?.addEventListener('abort', stop, { once: true });
      waiting.push(go);
    });
  } else open++;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const next = waiting.shift();
    if (next) next();
    else open--;
  };
}

/**
 * The rows of `statement` (copyStatement) as PostgreSQL's CSV: no header, fields separated by commas,
 * a field quoted only when it holds a comma, a quote, CR or LF (quotes doubled) or is an empty string
 * (`""`, where NULL is nothing), each row ended by LF. Each chunk holds whole rows, about CHUNK_BYTES
 * (./copyOut.ts) of them (PostgreSQL sends a row per CopyData; a reader still copes with a row cut in two).
 */
export async function* copyCsv(source: DbSource, statement: string, signal?: AbortSignal): AsyncGenerator<Buffer> {
  const release = await slot(signal);
  let client: pg.Client | undefined;
  // The socket of the moment (TLS replaces the one the client started with).
  const destroy = () =>
    (client as unknown as { connection: { stream: { destroy(): void } } } | undefined)?.connection.stream.destroy();
  let finished = false;
  try {
    client = new pg.Client({
      connectionString: source.url,
      keepAlive: true,
      fallback_application_name: source.pgSchema ?? `lz-admin-console-${process.pid}`,
      ...(source.pgSchema ? { options: `-c search_path=${source.pgSchema}` } : {}),
    });
    let lost: Error | null = null;
    client.on('error', (err) => (lost ??= err)); // reported through the rows (an unheard 'error' ends the process)
    signal?.addEventListener('abort', destroy, { once: true });
    if (signal?.aborted) throw new Error('COPY aborted');
    await client.connect();
    // The query's own literals read as inlineParameters read them; no statement_timeout of the role or
    // database cutting a long download short (one statement lasts the whole download).
    await client.query(
      "select set_config('standard_conforming_strings', 'on', false), set_config('statement_timeout', '0', false)",
    );
    // PostgreSQL 14+ on a system that can tell (Linux) looks at the socket every second while the query
    // runs, so a download that goes away before the first row (a long sort) stops it too. Elsewhere the
    // setting is refused, and the query only stops at its first row.
    await client.query('set client_connection_check_interval = 1000').catch(() => undefined);
    yield* client.query(new CopyOut(statement)).chunks();
    if (lost) throw lost;
    finished = true;
  } finally {
    signal?.removeEventListener('abort', destroy);
    // A COPY cut short (the reader stopped, or it failed) leaves the connection mid-protocol, never to be
    // used again: its socket is closed at once, and PostgreSQL ends the statement (tested). A finished one
    // says goodbye without holding the download's end for it; its slot is free once it has.
    if (finished && client) {
      void client
        .end()
        .catch(() => undefined)
        .finally(release);
    } else {
      destroy();
      release();
    }
  }
}
