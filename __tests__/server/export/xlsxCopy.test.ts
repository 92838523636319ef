/**
 * The .xlsx made from PostgreSQL's own CSV (server/export/xlsxCopy.ts) must hold the batch writer's sheet
 * exactly: the same XML, cell for cell, on the same rows encoded as PostgreSQL encodes them, cut into
 * chunks anywhere (the real COPY is compared in csvCopy.test.ts's PostgreSQL block and the routes' tests).
 */
import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import { writeExport, type ExportSpec } from '../../../server/export/export';
import { batchSpec, chunked, FIELDS, pgCsv, ROWS, sheetXml, type Row } from './copyRows';
import { collect } from './helpers';

async function xlsxOf(spec: ExportSpec<Row>): Promise<Buffer> {
  const out = new PassThrough();
  const body = collect(out);
  await writeExport(spec, 'xlsx', out);
  return body();
}

describe('xlsx from PostgreSQL-style CSV', () => {
  const bytes = Buffer.from(pgCsv(ROWS));
  const copyOf = (cuts: number[], rows = bytes): ExportSpec<Row> => ({
    ...batchSpec([]),
    copy: { fields: FIELDS, chunks: chunked(rows, cuts) },
  });

  it('holds the batch writer sheet, in one chunk or cut anywhere', async () => {
    const file = await xlsxOf(batchSpec(ROWS));
    const want = sheetXml(file);
    // the rows do reach every careful path: defused, escaped, dropped, xml:space, a gap before a cell
    for (const part of ["'=SUM(A1)", 'a &amp; b &lt;c&gt; d&gt;e', '_x005F_x0041_ excel', 'space="preserve"']) {
      expect(want).toContain(part);
    }
    for (const dropped of ['\ufffe', '\uffff', '\u0001', '\u0007']) expect(want).not.toContain(dropped);
    expect(want).toMatch(/<\/c><c r="[A-Z]+\d+"/);
    expect(sheetXml(await xlsxOf(copyOf([])))).toBe(want);
    for (let cut = 1; cut < bytes.length; cut += 3) expect(sheetXml(await xlsxOf(copyOf([cut])))).toBe(want);
    const everyByte = Array.from({ length: bytes.length - 1 }, (_, i) => i + 1);
    const cutEverywhere = await xlsxOf(copyOf(everyByte));
    expect(sheetXml(cutEverywhere)).toBe(want);

    // And it opens as the same workbook.
    const books = await Promise.all(
      [file, cutEverywhere].map(async (b) => {
        const wb = new ExcelJS.Workbook();
        await wb.xlsx.load(b as unknown as ArrayBuffer);
        return wb.getWorksheet('测试')!.getSheetValues();
      }),
    );
    expect(books[1]).toEqual(books[0]);
    expect(books[0]).toHaveLength(ROWS.length + 2); // [empty, header, rows…]
  });

  it('holds the batch writer sheet over many writes (past the output buffer, chunks of 64 KiB)', async () => {
    const many = Array.from({ length: 40 }, (_, k) => ROWS.map((r): Row => [r[0] + 1000 * k, ...r.slice(1)] as Row))
      .flat()
      .sort((x, y) => y[0] - x[0]);
    const csv = Buffer.from(pgCsv(many));
    const cuts = Array.from({ length: Math.floor(csv.length / 65536) }, (_, i) => (i + 1) * 65536);
    const want = sheetXml(await xlsxOf(batchSpec(many)));
    expect(Buffer.byteLength(want)).toBeGreaterThan(600_000); // more than two writes of 256 KiB
    expect(sheetXml(await xlsxOf(copyOf(cuts, csv)))).toBe(want);
  });

  it('refuses rows that are not its fields, or a COPY that fails midway, and writes no end to the file', async () => {
    const failing = (spec: ExportSpec<Row>) => {
      const out = new PassThrough();
      const body = collect(out);
      return {
        result: writeExport(spec, 'xlsx', out),
        // The package's end (central directory) is never written: a reader sees no whole file.
        whole: () => body().includes(Buffer.from([0x50, 0x4b, 0x05, 0x06])),
      };
    };
    for (const text of ['1,2,x,a,b\n', '1,2,x,a,b,c,d\n', '1,2,x,a,b,c', '1x,2,x,a,b,c\n']) {
      const f = failing(copyOf([], Buffer.from(text)));
      await expect(f.result).rejects.toThrow();
      expect(f.whole()).toBe(false);
    }
    const many = Buffer.from(pgCsv(Array.from({ length: 40 }, () => ROWS).flat()));
    const f = failing({
      ...batchSpec([]),
      copy: {
        fields: FIELDS,
        chunks: async function* () {
          // several writes' worth, in chunks of 64 KiB, then the failure
          const cuts = Array.from({ length: Math.floor(many.length / 65536) }, (_, i) => (i + 1) * 65536);
          yield* chunked(many, cuts)();
          throw new Error('division by zero');
        },
      },
    });
    await expect(f.result).rejects.toThrow('division by zero');
    expect(f.whole()).toBe(false);
  });

  it('refuses to show an int field as text (the batch writer writes it as a number)', async () => {
    const spec = batchSpec([]);
    const shown = { ...spec, columns: [{ header: '数', field: 1, value: (r: Row) => r[1] }] };
    await expect(xlsxOf({ ...shown, copy: { fields: FIELDS, chunks: chunked(bytes, []) } })).rejects.toThrow(
      /no text field 1/,
    );
  });

  it('writes nothing more once the file is gone', async () => {
    const many = Buffer.from(pgCsv(Array.from({ length: 40 }, () => ROWS).flat()));
    const out = new PassThrough();
    let seen = 0;
    out.on('data', (c: Buffer) => {
      seen += c.length;
      if (seen > 300) out.destroy();
    });
    const n = await writeExport(
      copyOf(
        Array.from({ length: 200 }, (_, i) => (i + 1) * 100),
        many,
      ),
      'xlsx',
      out,
    );
    expect(n).toBeLessThan(40 * ROWS.length);
  });
});
