/**
 * A query's rows as PostgreSQL writes them in CSV (`COPY (…) TO STDOUT WITH (FORMAT csv)`), read as raw
 * bytes on a connection of its own: what the CSV export reads on PostgreSQL (server/export/csvCopy.ts).
 * No row is parsed by pg and no field becomes a JavaScript string unless the export formats it.
 *
 * COPY takes no bind parameters, so the query's values are written into its text as literals
 * (inlineParameters): numbers and bigints as they print, text as a standard string literal with its
 * quotes doubled, on a connection where `standard_conforming_strings` is on (set before the COPY, so
 * a backslash is an ordinary character). Anything else (arrays, dates, objects) is refused.
 *
 * One statement reads every row from one snapshot; the client's pace sets PostgreSQL's (the socket is
 * paused while the consumer is behind). The connection is closed when the rows end, when the consumer
 * stops early (`return()` of the iterator: the client went away) and on any error.
 */
import pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import type { DbSource } from './dialect';

/** A value as a PostgreSQL literal (see inlineParameters). */
export function pgLiteral(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new RangeError(`cannot inline ${value}`);
    return String(value);
  }
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'string') {
    if (value.includes('\0')) throw new RangeError('cannot inline a NUL character');
    return `'${value.replaceAll("'", "''")}'`;
  }
  throw new TypeError(`cannot inline a value of type ${Object.prototype.toString.call(value)}`);
}

/**
 * The compiled query's text with each `$n` replaced by its value as a literal. `$n` inside a quoted
 * literal or identifier is left alone; a `$` that is not a placeholder (a dollar-quoted string) is
 * refused rather than guessed at, as is a placeholder without a value.
 */
export function inlineParameters(text: string, parameters: readonly unknown[]): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === "'" || c === '"') {
      // A quoted literal or identifier: its quote doubled inside, so the next lone one ends it.
      let j = i + 1;
      for (;;) {
        j = text.indexOf(c, j);
        if (j < 0) throw new SyntaxError(`unterminated ${c} in query text`);
        if (text[j + 1] === c) j += 2;
        else break;
      }
      out += text.slice(i, j + 1);
      i = j + 1;
    } else if (c === '$') {
      const m = /^\$(\d+)/.exec(text.slice(i, i + 12));
      if (!m) throw new SyntaxError('a $ that is not a placeholder in query text');
      const n = Number(m[1]);
      if (n < 1 || n > parameters.length) throw new RangeError(`placeholder $${n} has no value`);
      out += pgLiteral(parameters[n - 1]);
      i += m[0].length;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

/**
 * The rows of `query` (a compiled SELECT) as PostgreSQL's CSV: no header, fields separated by commas,
 * a field quoted only when it holds a comma, a quote, CR or LF (quotes doubled) or is an empty string
 * (`""`, where NULL is nothing), each row ended by LF. Chunks end anywhere, even inside a row.
 */
export async function* copyCsv(
  source: DbSource,
  query: { sql: string; parameters: readonly unknown[] },
): AsyncGenerator<Buffer> {
  const text = `copy (${inlineParameters(query.sql, query.parameters)}) to stdout with (format csv)`;
  const client = new pg.Client({
    connectionString: source.url,
    keepAlive: true,
    fallback_application_name: source.pgSchema ?? `lz-admin-console-${process.pid}`,
    ...(source.pgSchema ? { options: `-c search_path=${source.pgSchema}` } : {}),
  });
  let lost: Error | null = null;
  client.on('error', (err) => (lost ??= err)); // reported through the stream (an unheard 'error' ends the process)
  let finished = false;
  try {
    await client.connect();
    await client.query('set standard_conforming_strings = on');
    const rows = client.query(copyTo(text, { highWaterMark: 256 * 1024 }));
    for await (const chunk of rows as AsyncIterable<Buffer>) yield chunk;
    if (lost) throw lost;
    finished = true;
  } finally {
    if (finished) await client.end().catch(() => undefined);
    // A COPY cut short (the reader stopped, or it failed) leaves the connection mid-protocol, never to be
    // used again: its socket is closed at once, and PostgreSQL ends the statement (tested).
    else (client as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();
  }
}
