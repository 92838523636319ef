import { PassThrough } from 'node:stream';
import { formatTime } from '../../../domain/time';
import { exportTimeFormatter, keysetBatches, writeExport, type ExportSpec } from '../../../server/export/export';
import { collect } from './helpers';

interface Row {
  id: number;
  text: string | null | undefined;
  amount: string;
}

const columns: ExportSpec<Row>['columns'] = [
  { header: '编号', value: (r) => r.id },
  { header: '内容', value: (r) => r.text },
  { header: '金额', value: (r) => r.amount },
];

async function csvOf(batches: AsyncIterable<Row[]>, out = new PassThrough()) {
  const body = collect(out);
  const n = await writeExport({ title: '测试', columns, batches }, 'csv', out);
  return { n, text: body().toString('utf8') };
}

/** What the writer must produce, the slow obvious way (RFC 4180 quoting, formula defusing). */
function reference(rows: Row[]): string {
  const cell = (v: string | number | null | undefined) => {
    if (v === null || v === undefined) return '';
    let s = String(v);
    if (typeof v === 'string' && /^[=+\-@\t\r]/.test(s) && !/^[+-]?\d+(\.\d+)?$/.test(s)) s = `'${s}`;
    return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
  };
  return `\ufeff编号,内容,金额\r\n${rows.map((r) => `${cell(r.id)},${cell(r.text)},${cell(r.amount)}\r\n`).join('')}`;
}

describe('server/export CSV', () => {
  it('quotes, defuses and leaves empty what it must', async () => {
    const rows: Row[] = [
      { id: 1, text: '中文,逗号', amount: '-12.50' },
      { id: 2, text: 'say "hi"', amount: '+3' },
      { id: 3, text: 'two\nlines', amount: '0.00' },
      { id: 4, text: 'cr\ronly', amount: '' },
      { id: 5, text: '=1+2', amount: '-' },
      { id: 6, text: '@x', amount: '+86 138' },
      { id: 7, text: '\tx', amount: '-1e5' },
      { id: -8.5, text: null, amount: '1.' },
      { id: 9, text: undefined, amount: '' },
      { id: 10, text: '', amount: '123456789012345678.99' },
    ];
    const { n, text } = await csvOf(
      (async function* () {
        yield rows;
      })(),
    );
    expect(n).toBe(rows.length);
    expect(text).toBe(reference(rows));
    expect(text.split('\r\n').slice(0, 9)).toEqual([
      '\ufeff编号,内容,金额',
      '1,"中文,逗号",-12.50',
      '2,"say ""hi""",+3',
      '3,"two\nlines",0.00',
      '4,"cr\ronly",',
      "5,'=1+2,'-",
      "6,'@x,'+86 138",
      "7,'\tx,'-1e5",
      '-8.5,,1.',
    ]);
  });

  it('writes the header alone for no rows', async () => {
    const { n, text } = await csvOf((async function* () {})());
    expect([n, text]).toEqual([0, '\ufeff编号,内容,金额\r\n']);
  });

  it('writes each batch in one write, in order, across many batches', async () => {
    const all: Row[] = [];
    const fetch = async (after: number | null, limit: number): Promise<Row[]> => {
      const top = after === null ? 5_003 : after - 1;
      const out: Row[] = [];
      for (let id = top; id >= 1 && out.length < limit; id -= 1) {
        const r = { id, text: id % 4 ? `名字${id}` : `=x,"${id}"`, amount: `${id}.${id % 10}` };
        out.push(r);
        all.push(r);
      }
      return out;
    };
    const out = new PassThrough();
    const writes: number[] = [];
    const write = out.write.bind(out);
    out.write = ((chunk: string) => {
      writes.push(chunk.length);
      return write(chunk);
    }) as typeof out.write;
    const { n, text } = await csvOf(
      keysetBatches(fetch, (r) => r.id, 500),
      out,
    );
    expect(n).toBe(5_003);
    expect(text).toBe(reference(all));
    expect(writes).toHaveLength(1 + 11); // the header, then one write per batch (10 full + 3 rows)
  });

  it('stops reading when the client goes away', async () => {
    let reads = 0;
    const fetch = async (after: number | null, limit: number): Promise<Row[]> => {
      reads++;
      const top = after === null ? 1_000_000 : after - 1;
      return Array.from({ length: Math.min(limit, top) }, (_, i) => ({ id: top - i, text: '文本', amount: '1' }));
    };
    const out = new PassThrough({ highWaterMark: 16 * 1024 });
    const done = writeExport({ title: 'x', columns, batches: keysetBatches(fetch, (r) => r.id, 1000) }, 'csv', out);
    await new Promise((r) => setTimeout(r, 100)); // nobody reads: the writer waits for a drain
    expect(reads).toBeLessThan(4);
    out.destroy(); // what Fastify does when the client aborts: no 'drain' will ever come
    expect(await done).toBeLessThan(1_000_000);
    const afterAbort = reads;
    await new Promise((r) => setTimeout(r, 50));
    expect(reads).toBe(afterAbort);
  });
});

describe('exportTimeFormatter', () => {
  it('formats exactly like formatTime, across days, years and null', () => {
    const fmt = exportTimeFormatter();
    const values: Array<number | null | undefined> = [null, undefined, 0, -1, -86_400_001, 1_795_474_777_758];
    // Shanghai midnight and the milliseconds around it, a leap day, and a random walk backwards in time
    const midnight = Date.UTC(2026, 10, 22, 16, 0, 0);
    values.push(
      midnight - 1,
      midnight,
      midnight + 1,
      Date.UTC(2028, 1, 29, 15, 59, 59, 999),
      Date.UTC(2028, 1, 29, 16),
    );
    let t = Date.UTC(2027, 0, 1);
    for (let i = 0; i < 20_000; i++) values.push((t -= Math.floor(Math.random() * 30_000_000)));
    for (const v of values) expect(fmt(v)).toBe(formatTime(v));
  });
});
