/**
 * What the tests of the writers from COPY share (csvCopy.test.ts, xlsxCopy.test.ts): rows with every
 * awkward text in shown fields, their columns, the rows as PostgreSQL's COPY (format csv) writes them,
 * and the sheet XML of an .xlsx.
 */
import zlib from 'node:zlib';
import { shownColumn, type CopyRows, type ExportColumn, type ExportSpec } from '../../../server/export/export';

/** id, n (int or null), code (text), a, b, c (shown as they are). */
export type Row = [number, number | null, string | null, string | null, string | null, string | null];
export const FIELDS: CopyRows['fields'] = ['int', 'int', 'text', 'bytes', 'bytes', 'bytes'];

export const TEXTS: (string | null)[] = [
  'plain',
  '中文,逗号',
  'say "hi"',
  '""',
  'two\nlines',
  'cr\rhere',
  'crlf\r\n',
  '=SUM(A1)',
  '+86 138',
  '-12.50',
  '-',
  '@home',
  '\tlead tab',
  'trail tab\t',
  '',
  null,
  '\\.',
  'back\\slash',
  'emoji 😀',
  'x'.repeat(100),
  '长地址'.repeat(40),
  "it's",
  ' spaced ',
  ',',
  '"',
  // what an xlsx cell escapes, drops or keeps with xml:space
  'a & b <c> d>e',
  'a<b',
  'a>b',
  'x&y',
  '_x0041_ excel',
  'snake_x',
  'under_',
  '\u0001ctrl\u001f',
  '\ufffe',
  'non\uffffchar',
  '（全角）\uffef',
  'nbsp\u00a0',
  ' lead',
  'trail ',
  '\u0007',
  // copied as they are: no XML escape, and not whitespace a reader trims
  '\u007f',
  'nel\u0085',
  '\u3000全角空格',
  ' ',
];

/** Rows covering every text in every shown field, next to others and alone. */
export const ROWS: Row[] = TEXTS.map((t, i): Row => {
  const other = TEXTS[(i * 7 + 3) % TEXTS.length];
  return [
    1000 - i,
    i % 3 === 0 ? null : i * 1_000_003 - 40,
    i % 4 === 0 ? 'USDT' : t,
    t,
    other,
    TEXTS[(i * 5 + 1) % TEXTS.length],
  ];
});

export const columns: ExportColumn<Row>[] = [
  { header: '编号', value: (r) => r[0] * 2 },
  shownColumn<Row>('甲', 10, 3),
  shownColumn<Row>('乙', 10, 4),
  { header: '代码', value: (r) => (r[2] === null ? null : `${r[2]}!`) },
  shownColumn<Row>('丙', 10, 5),
  { header: '数', value: (r) => r[1] },
  { header: '标签', value: (r) => (r[0] % 2 ? '已完成' : '待发货') },
  { header: '合', value: (r) => `${r[2] ?? ''},${r[1] ?? ''}` },
  shownColumn<Row>('甲again', 10, 3),
];

/** A field as PostgreSQL's COPY … (format csv) writes it. */
export function pgField(v: string | number | null): string {
  if (v === null) return '';
  const s = String(v);
  return s === '' || s === '\\.' || /[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}
export const pgCsv = (rows: Row[]) => rows.map((r) => `${r.map(pgField).join(',')}\n`).join('');

export const batchSpec = (rows: Row[]): ExportSpec<Row> => ({
  title: '测试',
  columns,
  batches: (async function* () {
    yield rows.slice(0, 7);
    yield rows.slice(7);
  })(),
});

export const chunked = (bytes: Buffer, cuts: number[]) =>
  async function* () {
    let at = 0;
    for (const c of [...cuts, bytes.length]) {
      yield bytes.subarray(at, c);
      at = c;
    }
  };

/** The sheet part's XML, inflated from the package (the entry right after its local header). */
export function sheetXml(zip: Buffer): string {
  const name = Buffer.from('xl/worksheets/sheet1.xml');
  const at = zip.indexOf(name);
  return zlib.inflateRawSync(zip.subarray(at + name.length)).toString('utf8');
}
