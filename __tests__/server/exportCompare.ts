/**
 * The check the COPY exports' tests share: a route's CSV is, byte for byte, what the batch writer makes
 * of the same query, and on PostgreSQL the route's came from COPY (a spy on copyCsv sees each).
 */
import { PassThrough } from 'node:stream';
import type { ExportCtx } from '../../server/context';
import * as pgCopy from '../../server/db/pgCopy';
import { writeExport, type ExportSpec } from '../../server/export/export';
import { dbKind, type TestApp } from './helpers';

/** The CSV the batch writer makes of `spec` (the rows read by keyset batches, never by COPY). */
export async function csvFromBatches(spec: ExportSpec<any> | Promise<ExportSpec<any>>): Promise<Buffer> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  await writeExport(await spec, 'csv', out);
  return Buffer.concat(chunks);
}

/**
 * For each query: GET `url` as CSV with `token`, and expect the batch writer's bytes for the same query
 * (`specOf` is the route's export, called without a COPY source, so it reads batches). Returns the
 * route's CSVs, one per query.
 */
export async function expectCopyMatchesBatches<Q extends Record<string, string | number>>(
  t: TestApp,
  token: string,
  url: string,
  specOf: (ctx: ExportCtx, q: Q) => ExportSpec<any> | Promise<ExportSpec<any>>,
  queries: Q[],
): Promise<string[]> {
  const copies = jest.spyOn(pgCopy, 'copyCsv');
  const csvs: string[] = [];
  try {
    for (const query of queries) {
      const res = await t.app.inject({
        method: 'GET',
        url,
        query: { ...Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)])), format: 'csv' },
        headers: { authorization: token },
      });
      expect({ query, status: res.statusCode }).toEqual({ query, status: 200 });
      const batches = await csvFromBatches(specOf({ db: t.db.db, kind: t.db.kind }, query));
      expect({ query, csv: res.rawPayload.toString('utf8') }).toEqual({ query, csv: batches.toString('utf8') });
      csvs.push(res.rawPayload.toString('utf8'));
    }
    expect(copies).toHaveBeenCalledTimes(dbKind === 'postgres' ? queries.length : 0);
  } finally {
    copies.mockRestore();
  }
  return csvs;
}
