/**
 * The check the COPY exports' tests share: a route's CSV is, byte for byte, what the batch writer makes
 * of the same query, its xlsx holds the batch writer's sheet, and on PostgreSQL both came from COPY (a
 * spy on copyCsv sees each).
 */
import { PassThrough } from 'node:stream';
import type { ExportCtx } from '../../server/context';
import * as pgCopy from '../../server/db/pgCopy';
import { writeExport, type ExportFormat, type ExportSpec } from '../../server/export/export';
import { sheetXml } from './export/copyRows';
import { dbKind, type TestApp } from './helpers';

/** The file the batch writer makes of `spec` (the rows read by keyset batches, never by COPY). */
export async function csvFromBatches(
  spec: ExportSpec<any> | Promise<ExportSpec<any>>,
  format: ExportFormat = 'csv',
): Promise<Buffer> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  await writeExport(await spec, format, out);
  return Buffer.concat(chunks);
}

/**
 * For each query: GET `url` as CSV with `token`, and expect the batch writer's bytes for the same query
 * (`specOf` is the route's export, called without a COPY source, so it reads batches); then as xlsx,
 * and expect the batch writer's sheet. Returns the route's CSVs, one per query.
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
      const get = async (format: ExportFormat) => {
        const res = await t.app.inject({
          method: 'GET',
          url,
          query: { ...Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)])), format },
          headers: { authorization: token },
        });
        expect({ query, format, status: res.statusCode }).toEqual({ query, format, status: 200 });
        return [res.rawPayload, await csvFromBatches(specOf({ db: t.db.db, kind: t.db.kind }, query), format)];
      };
      const [csv, csvBatches] = await get('csv');
      expect({ query, csv: csv.toString('utf8') }).toEqual({ query, csv: csvBatches.toString('utf8') });
      csvs.push(csv.toString('utf8'));
      const [xlsx, xlsxBatches] = await get('xlsx');
      expect({ query, sheet: sheetXml(xlsx) }).toEqual({ query, sheet: sheetXml(xlsxBatches) });
    }
    expect(copies).toHaveBeenCalledTimes(dbKind === 'postgres' ? 2 * queries.length : 0);
  } finally {
    copies.mockRestore();
  }
  return csvs;
}
