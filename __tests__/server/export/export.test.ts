import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import {
  contentDisposition,
  exportFileName,
  keysetBatches,
  writeExport,
  type ExportSpec,
} from '../../../server/export/export';
import { collect } from './helpers';

interface Row {
  id: number;
  name: string;
  amount: string;
}

/** A fake table of `n` rows read through keysetBatches; counts the reads. */
function table(n: number, batchSize: number) {
  const reads: Array<number | null> = [];
  const fetch = async (after: number | null, limit: number): Promise<Row[]> => {
    reads.push(after);
    const top = after === null ? n : after - 1;
    const out: Row[] = [];
    for (let id = top; id >= 1 && out.length < limit; id -= 1) out.push({ id, name: `名字${id}`, amount: `${id}.5` });
    return out;
  };
  return { reads, batches: keysetBatches(fetch, (r) => r.id, batchSize) };
}

const spec = (batches: AsyncIterable<Row[]>): ExportSpec<Row> => ({
  title: '测试',
  columns: [
    { header: '编号', value: (r) => r.id },
    { header: '名称', value: (r) => r.name },
    { header: '金额', value: (r) => r.amount },
  ],
  batches,
});

describe('server/export', () => {
  it('names the file by title and Shanghai date, with an RFC 5987 filename*', () => {
    // 2026-11-22 16:30 UTC is already the 23rd in Shanghai
    const name = exportFileName('收款方式', 'xlsx', Date.UTC(2026, 10, 22, 16, 30));
    expect(name).toBe('收款方式_20261123.xlsx');
    expect(contentDisposition(name)).toBe(
      'attachment; filename="export_20261123.xlsx"; filename*=UTF-8\'\'%E6%94%B6%E6%AC%BE%E6%96%B9%E5%BC%8F_20261123.xlsx',
    );
    expect(contentDisposition("a'b (1).csv")).toBe(
      "attachment; filename=\"a'b (1).csv\"; filename*=UTF-8''a%27b%20%281%29.csv",
    );
  });

  it('reads keyset batches below the last id until a short batch', async () => {
    const { reads, batches } = table(10, 4);
    const got: number[][] = [];
    for await (const b of batches) got.push(b.map((r) => r.id));
    expect(got).toEqual([
      [10, 9, 8, 7],
      [6, 5, 4, 3],
      [2, 1],
    ]);
    expect(reads).toEqual([null, 7, 3]);
    const exact = table(8, 4);
    for await (const b of exact.batches) expect(b).toHaveLength(4);
    expect(exact.reads).toEqual([null, 5, 1]); // the last read finds nothing
  });

  it('writes 25,000 rows of xlsx that exceljs reads back', async () => {
    const out = new PassThrough();
    const body = collect(out);
    const n = await writeExport(spec(table(25_000, 2000).batches), 'xlsx', out);
    expect(n).toBe(25_000);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(body() as unknown as ArrayBuffer);
    const sheet = wb.getWorksheet('测试')!;
    expect(sheet.rowCount).toBe(25_001);
    expect(sheet.getRow(1).values).toEqual([undefined, '编号', '名称', '金额']);
    expect(sheet.getRow(2).values).toEqual([undefined, 25_000, '名字25000', '25000.5']);
    expect(sheet.getRow(25_001).values).toEqual([undefined, 1, '名字1', '1.5']);
  }, 30_000);

  it('waits for a slow reader: no more batches are read while the response is full', async () => {
    for (const format of ['csv', 'xlsx'] as const) {
      const { reads, batches } = table(200_000, 1000);
      const out = new PassThrough({ highWaterMark: 16 * 1024 });
      const done = writeExport(spec(batches), format, out);
      await new Promise((r) => setTimeout(r, 200));
      // Nobody reads `out`: the writer stops after the buffers fill, far from all 200 batches.
      expect(reads.length).toBeLessThan(20);
      const body = collect(out);
      expect(await done).toBe(200_000);
      expect(reads.length).toBe(201);
      if (format === 'csv') {
        const text = body().toString('utf8');
        expect(text.startsWith('\ufeff编号,名称,金额\r\n200000,名字200000,200000.5\r\n')).toBe(true);
        expect(text.trimEnd().split('\r\n')).toHaveLength(200_001);
      }
    }
  }, 60_000);

  it('stops reading and settles when the client goes away mid-download', async () => {
    for (const format of ['csv', 'xlsx'] as const) {
      const { reads, batches } = table(200_000, 1000);
      const out = new PassThrough({ highWaterMark: 16 * 1024 });
      const done = writeExport(spec(batches), format, out);
      await new Promise((r) => setTimeout(r, 100));
      out.destroy(); // what Fastify does when the client aborts: no 'drain' will ever come
      const n = await done;
      expect(n).toBeLessThan(200_000);
      expect(reads.length).toBeLessThan(30);
    }
  }, 30_000);

  it('defuses cells a spreadsheet would run as formulas, but not numbers', async () => {
    const rows = [{ id: 1, name: '=HYPERLINK("x")', amount: '-12.5' }];
    const out = new PassThrough();
    const body = collect(out);
    await writeExport(
      spec(
        (async function* () {
          yield rows;
        })(),
      ),
      'csv',
      out,
    );
    expect(body().toString('utf8')).toBe('\ufeff编号,名称,金额\r\n1,"\'=HYPERLINK(""x"")",-12.5\r\n');
  });
});
