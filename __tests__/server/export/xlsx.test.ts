import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import { keysetBatches, sendExport, writeExport, type ExportSpec } from '../../../server/export/export';
import { columnLetters, escapeXml, sheetName, XLSX_MAX_ROWS } from '../../../server/export/xlsx';
import { collect, soffice, xlsxToCsv } from './helpers';

interface Row {
  id: number;
  text: string | null | undefined;
  amount: string;
}

const columns: ExportSpec<Row>['columns'] = [
  { header: '编号', width: 8, value: (r) => r.id },
  { header: '内容', width: 40, value: (r) => r.text },
  { header: '金额', value: (r) => r.amount },
];

const once = <T>(rows: T[]) =>
  (async function* () {
    if (rows.length) yield rows;
  })();

async function xlsxOf<R>(spec: ExportSpec<R>): Promise<{ body: Buffer; n: number }> {
  const out = new PassThrough();
  const body = collect(out);
  const n = await writeExport(spec, 'xlsx', out);
  return { body: body(), n };
}

async function load(body: Buffer) {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(body as unknown as ArrayBuffer);
  return wb;
}

/** Rows as exceljs reads them back: [row][column], 0-based, empty cells as null. */
function values(sheet: ExcelJS.Worksheet, cols: number): unknown[][] {
  const out: unknown[][] = [];
  sheet.eachRow({ includeEmpty: true }, (row, n) => {
    out[n - 1] = Array.from({ length: cols }, (_, i) => row.getCell(i + 1).value ?? null);
  });
  return out;
}

/** Every kind of cell the writer must get right. */
const TRICKY: Row[] = [
  { id: 1, text: '中文，全角标点。', amount: '0.00' },
  { id: -2.5, text: 'a & b < c > d "q" \'s', amount: '-12.50' },
  { id: 0, text: '=SUM(A1:A2)', amount: '123456789012345678.99' },
  { id: 4, text: '+86 138 0000 0000', amount: '+5' },
  { id: 5, text: '@me', amount: '1e5' },
  { id: 6, text: '-', amount: '-0.5' },
  { id: 7, text: '\tindented', amount: '' },
  { id: 8, text: '  both ends  ', amount: 'x' },
  { id: 9, text: 'line1\nline2\r\nline3', amount: '' },
  { id: 10, text: 'ctl\u0000\u0001\u0008\u000b\u001f gone\ufffe\uffff', amount: '' },
  { id: 11, text: 'emoji 😀 kept, lone \ud800 and \udc00 dropped', amount: '' },
  { id: 12, text: null, amount: '' },
  { id: 13, text: undefined, amount: '' },
  { id: 14, text: '', amount: '7' },
  { id: Number.NaN, text: 'not a number id', amount: '' },
];

describe('server/export/xlsx', () => {
  it('escapes XML text and keeps what a reader would change', () => {
    expect(escapeXml('plain 中文')).toBe('plain 中文');
    expect(escapeXml('a&b<c>d"e\'f')).toBe("a&amp;b&lt;c&gt;d&quot;e'f");
    expect(escapeXml('x\ry\nz\tw')).toBe('x&#13;y\nz\tw');
    expect(escapeXml('\u0000a\u0007b\u001fc\ufffed\uffff')).toBe('abcd');
    expect(escapeXml('😀\ud800x\udc00')).toBe('😀x');
    expect(escapeXml('_x0041_ and _x00e9_ and _xZZ_ and _x12_')).toBe(
      '_x005F_x0041_ and _x005F_x00e9_ and _xZZ_ and _x12_',
    );
  });

  it('names the sheet by Excel rules', () => {
    expect(sheetName('收款方式')).toBe('收款方式');
    expect(sheetName('a/b\\c[d]e:f*g?h')).toBe('a_b_c_d_e_f_g_h');
    expect(sheetName('一二三四五六七八九十'.repeat(4))).toHaveLength(31);
    expect(sheetName(`${'x'.repeat(30)}😀`)).toBe('x'.repeat(30)); // no half character
    expect(sheetName("'quoted'")).toBe('quoted');
    expect(sheetName('')).toBe('Sheet1');
    expect(sheetName('History')).toBe('History_');
    expect([1, 26, 27, 52, 53, 702, 703, 16384].map(columnLetters)).toEqual([
      'A',
      'Z',
      'AA',
      'AZ',
      'BA',
      'ZZ',
      'AAA',
      'XFD',
    ]);
  });

  it('writes every cell so exceljs reads it back: numbers, text, escaping, defusing, empty cells', async () => {
    const { body, n } = await xlsxOf({ title: '测试/导出[1]', columns, batches: once(TRICKY) });
    expect(n).toBe(TRICKY.length);
    const wb = await load(body);
    expect(wb.worksheets.map((s) => s.name)).toEqual(['测试_导出_1_']);
    const sheet = wb.worksheets[0];
    expect(sheet.columns.map((c) => c.width)).toEqual([8, 40, 16]);
    expect([sheet.getCell('A1').font?.bold, sheet.getCell('A2').font?.bold]).toEqual([true, undefined]);
    const got = values(sheet, 3);
    expect(got).toEqual([
      ['编号', '内容', '金额'],
      [1, '中文，全角标点。', '0.00'],
      [-2.5, 'a & b < c > d "q" \'s', '-12.50'],
      [0, "'=SUM(A1:A2)", '123456789012345678.99'], // money stays an exact decimal string
      [4, "'+86 138 0000 0000", '+5'],
      [5, "'@me", '1e5'],
      [6, "'-", '-0.5'],
      [7, "'\tindented", null],
      [8, '  both ends  ', 'x'],
      [9, 'line1\nline2\r\nline3', null],
      [10, 'ctl gone', null],
      [11, 'emoji 😀 kept, lone  and  dropped', null],
      [12, null, null],
      [13, null, null],
      [14, null, '7'],
      ['NaN', 'not a number id', null],
    ]);
  });

  it('writes the header alone for no rows', async () => {
    const { body, n } = await xlsxOf({ title: '空', columns, batches: once<Row>([]) });
    expect(n).toBe(0);
    const sheet = (await load(body)).getWorksheet('空')!;
    expect(sheet.rowCount).toBe(1);
    expect(values(sheet, 3)).toEqual([['编号', '内容', '金额']]);
  });

  it('numbers rows on across batches of odd sizes', async () => {
    const fetch = async (after: number | null, limit: number): Promise<Row[]> => {
      const top = after === null ? 10_007 : after - 1;
      const out: Row[] = [];
      for (let id = top; id >= 1 && out.length < limit; id -= 1)
        out.push({ id, text: id % 3 ? `名字${id}` : `=${id}`, amount: `${id}.${id % 100}` });
      return out;
    };
    const { body, n } = await xlsxOf({ title: '多批', columns, batches: keysetBatches(fetch, (r) => r.id, 333) });
    expect(n).toBe(10_007);
    const got = values((await load(body)).getWorksheet('多批')!, 3);
    expect(got).toHaveLength(10_008);
    for (let r = 1; r < got.length; r++) {
      const id = 10_008 - r;
      expect(got[r]).toEqual([id, id % 3 ? `名字${id}` : `'=${id}`, `${id}.${id % 100}`]);
    }
  }, 30_000);

  it('stops reading when the client goes away, and settles', async () => {
    let reads = 0;
    const fetch = async (after: number | null, limit: number): Promise<Row[]> => {
      reads++;
      const top = after === null ? 500_000 : after - 1;
      return Array.from({ length: Math.min(limit, top) }, (_, i) => ({
        id: top - i,
        text: '随机文本'.repeat(8),
        amount: '1',
      }));
    };
    const out = new PassThrough({ highWaterMark: 16 * 1024 });
    const done = writeExport({ title: 'x', columns, batches: keysetBatches(fetch, (r) => r.id, 1000) }, 'xlsx', out);
    out.resume(); // a client reading for a while
    await new Promise((r) => setTimeout(r, 150));
    out.destroy();
    const n = await done;
    expect(n).toBeLessThan(500_000);
    const afterAbort = reads;
    await new Promise((r) => setTimeout(r, 100));
    expect(reads).toBe(afterAbort);
  });

  it('fails rather than write more rows than one Excel sheet holds', async () => {
    const ids = (async function* () {
      for (let from = 0; from < XLSX_MAX_ROWS; from += 1000) yield Array.from({ length: 1000 }, (_, i) => from + i);
    })();
    const out = new PassThrough();
    out.resume();
    await expect(
      writeExport({ title: 'x', columns: [{ header: '编号', value: (id: number) => id }], batches: ids }, 'xlsx', out),
    ).rejects.toThrow('more than 1048575 data rows');
  }, 60_000);

  it('fails with the batch error, and sendExport cuts the download', async () => {
    const failing = (async function* () {
      yield [{ id: 1, text: 'a', amount: '1' }];
      throw new Error('database went away');
    })();
    const out = new PassThrough();
    out.resume();
    await expect(writeExport({ title: 'x', columns, batches: failing }, 'xlsx', out)).rejects.toThrow(
      'database went away',
    );

    let sent: PassThrough | undefined;
    const logged: unknown[] = [];
    const reply = {
      log: { error: (...a: unknown[]) => logged.push(a) },
      header() {
        return reply;
      },
      send(s: PassThrough) {
        sent = s;
        return reply;
      },
    };
    const again = (async function* () {
      yield [{ id: 1, text: 'a', amount: '1' }];
      throw new Error('database went away');
    })();
    // The export reads through the context's reader (a connection of its own), closed once it ends.
    let closed = 0;
    const reader = { db: 'reader' as never, kind: 'sqlite' as const, close: async () => void closed++ };
    const ctx = { db: 'main' as never, clock: { now: () => 0 }, reader: () => reader } as never;
    let builtOn: unknown;
    await sendExport(
      reply as never,
      ctx,
      (c) => {
        builtOn = c.db;
        return { title: 'x', columns, batches: again };
      },
      'xlsx',
    );
    expect(builtOn).toBe('reader');
    const err = await new Promise<Error>((resolve) => {
      sent!.on('error', resolve);
      sent!.resume();
    });
    expect(err.message).toBe('database went away');
    expect(logged).toHaveLength(1);
    await new Promise((r) => setImmediate(r));
    expect(closed).toBe(1);
  });

  it('closes the reader when the spec cannot be built, and answers that error', async () => {
    let closed = 0;
    const reader = { db: 'reader' as never, kind: 'sqlite' as const, close: async () => void closed++ };
    const ctx = { db: 'main' as never, clock: { now: () => 0 }, reader: () => reader } as never;
    await expect(sendExport({} as never, ctx, () => Promise.reject(new Error('筛选条件有误')), 'csv')).rejects.toThrow(
      '筛选条件有误',
    );
    expect(closed).toBe(1);
  });

  (soffice ? it : it.skip)(
    'opens in LibreOffice: converted to CSV it shows the same cells',
    async () => {
      const { body } = await xlsxOf({
        title: '测试',
        columns,
        batches: once([...TRICKY.slice(0, 9), { id: 99, text: 'literal _x0041_ stays', amount: '' }]),
      });
      const csv = xlsxToCsv(body);
      expect(csv.split('\n').slice(0, 4)).toEqual([
        '"编号","内容","金额"',
        '1,"中文，全角标点。","0.00"',
        '-2.5,"a & b < c > d ""q"" \'s","-12.50"',
        '0,"\'=SUM(A1:A2)","123456789012345678.99"',
      ]);
      expect(csv).toContain('8,"  both ends  ","x"');
      expect(csv).toContain('99,"literal _x0041_ stays",');
    },
    120_000,
  );
});
