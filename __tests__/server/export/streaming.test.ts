/**
 * What keeps a million-row export cheap: batches emptied once written, the xlsx batch buffers
 * recycled, and cell references only where a reader needs them.
 */
import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import { Utf8Batch } from '../../../server/export/common';
import { keysetBatches, writeExport, type ExportSpec } from '../../../server/export/export';
import { sheetXml } from './copyRows';
import { collect, soffice, xlsxToCsv } from './helpers';

interface Row {
  id: number;
  a: string | null;
  b: string | null;
  c: string | null;
}

const columns: ExportSpec<Row>['columns'] = [
  { header: '编号', value: (r) => r.id },
  { header: 'A', value: (r) => r.a },
  { header: 'B', value: (r) => r.b },
  { header: 'C', value: (r) => r.c },
];

/** Every pattern of empty cells in a row of four, ids 8..1. */
const GAPS: Row[] = Array.from({ length: 8 }, (_, i) => {
  const id = 8 - i;
  return { id, a: id & 4 ? `a${id}` : null, b: id & 2 ? `b${id}` : '', c: id & 1 ? `c${id}` : null };
});

async function xlsxOf(rows: Row[]): Promise<Buffer> {
  const out = new PassThrough();
  const body = collect(out);
  await writeExport(
    {
      title: '空格',
      columns,
      batches: (async function* () {
        yield rows.map((r) => ({ ...r }));
      })(),
    },
    'xlsx',
    out,
  );
  return body();
}

describe('keysetBatches', () => {
  it.each([false, true])('empties each batch once it has been written (reading ahead: %s)', async (readAhead) => {
    const handed: Row[][] = [];
    const fetch = async (after: number | null, limit: number): Promise<Row[]> => {
      const top = after === null ? 5 : after - 1;
      const out: Row[] = [];
      for (let id = top; id >= 1 && out.length < limit; id--) out.push({ id, a: 'x', b: null, c: null });
      handed.push(out);
      return out;
    };
    const seen: number[][] = [];
    for await (const batch of keysetBatches(fetch, (r) => r.id, 2, readAhead)) {
      const k = seen.length;
      seen.push(batch.map((r) => r.id));
      // reading ahead, the next one (a full batch has a next) is already read; the ones before are emptied
      expect(handed).toHaveLength(readAhead && batch.length === 2 ? k + 2 : k + 1);
      expect(handed.slice(0, k).every((b) => b.length === 0)).toBe(true);
      expect(handed[k]).toBe(batch);
    }
    expect(seen).toEqual([[5, 4], [3, 2], [1]]);
    expect(handed.map((b) => b.length)).toEqual([0, 0, 0]);
  });
});

describe('Utf8Batch', () => {
  it('hands out a new buffer per take by default', () => {
    const u = new Utf8Batch();
    u.add('一二');
    const a = u.take();
    u.add('x');
    const b = u.take();
    expect([a.toString(), b.toString()]).toEqual(['一二', 'x']);
    expect(a.buffer === b.buffer && a.byteOffset === b.byteOffset).toBe(false);
  });

  it('recycles two buffers when asked: the batch after next is written where the last one was', () => {
    const u = new Utf8Batch(true);
    const taken: Buffer[] = [];
    for (const s of ['first batch', '第二批', 'third', '第四']) {
      u.add(s);
      taken.push(u.take());
      expect(taken[taken.length - 1].toString()).toBe(s); // whole when handed out
    }
    expect(taken[2].buffer).toBe(taken[0].buffer);
    expect(taken[3].buffer).toBe(taken[1].buffer);
    expect(taken[1].buffer).not.toBe(taken[0].buffer);
  });
});

describe('xlsx cell references', () => {
  it('puts r only on the first cell of a row and on a cell after an empty one', async () => {
    const xml = sheetXml(await xlsxOf(GAPS));
    const rows = xml.match(/<row r="\d+">.*?<\/row>/g)!;
    expect(rows).toHaveLength(9);
    // id 5: a, (no b), c → A and D carry references, B and C are absent
    expect(rows[4]).toBe(
      '<row r="5"><c r="A5"><v>5</v></c><c t="inlineStr"><is><t>a5</t></is></c>' +
        '<c r="D5" t="inlineStr"><is><t>c5</t></is></c></row>',
    );
    // id 7: every cell, one reference
    expect(rows[2].match(/ r="/g)).toHaveLength(2); // the row's and A7's
  });

  it('reads back cell by cell in exceljs, whatever is empty', async () => {
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load((await xlsxOf(GAPS)) as unknown as ArrayBuffer);
    const got: unknown[][] = [];
    wb.worksheets[0].eachRow({ includeEmpty: true }, (row, n) => {
      got[n - 1] = [1, 2, 3, 4].map((i) => row.getCell(i).value ?? null);
    });
    expect(got).toEqual([['编号', 'A', 'B', 'C'], ...GAPS.map((r) => [r.id, r.a, r.b || null, r.c])]);
  });

  (soffice ? it : it.skip)(
    'opens in LibreOffice with every cell in its column',
    async () => {
      const lines = xlsxToCsv(await xlsxOf(GAPS))
        .trimEnd()
        .split('\n');
      const q = (v: string | null) => (v ? `"${v}"` : '');
      expect(lines).toEqual(['"编号","A","B","C"', ...GAPS.map((r) => `${r.id},${q(r.a)},${q(r.b)},${q(r.c)}`)]);
    },
    120_000,
  );
});
