/**
 * The CSV cells written straight from COPY's bytes (server/export/copyCells.ts) must be csvCell of the
 * column's value exactly, or decline having written nothing: each writer over edge values and a few
 * thousand pseudo-random ones, on fields laid out as PostgreSQL's CSV lays them (splitRow).
 */
import { AssetDecimals, type Asset } from '../../../domain/assets';
import { orderNo, orderNoFormatter, ORDER_ID_DIGITS } from '../../../domain/mallRules';
import { formatAsset } from '../../../domain/money';
import { OrderStatus } from '../../../domain/mall';
import { Bytes } from '../../../server/export/bytes';
import { csvCell, type CellValue, type CopyCell } from '../../../server/export/common';
import {
  copyDayNumberCell,
  copyIntCell,
  copyLabelCell,
  copyMoneyCell,
  copyTimeCell,
  exportTimeFormatter,
} from '../../../server/export/export';
import { splitRow, type Fields } from '../../../server/export/pgCsvRow';

/** A PostgreSQL CSV field: NULL as nothing, text quoted when it has to be (or when asked). */
type Field = string | null | { quoted: string };

const csvField = (v: Field) =>
  v === null
    ? ''
    : typeof v === 'string'
      ? /[",\r\n]/.test(v) || v === ''
        ? `"${v.replace(/"/g, '""')}"`
        : v
      : `"${v.quoted}"`;

/** What `cell` writes of a row of `fields` (between two other fields, so offsets are not 0): null when it declines. */
function written(cell: CopyCell, fields: Field[]): string | null {
  const buf = Buffer.from(`x,${fields.map(csvField).join(',')},y\n`);
  const n = fields.length + 2;
  const f: Fields = { start: new Int32Array(n), end: new Int32Array(n), flags: new Uint8Array(n) };
  expect(splitRow(buf, 0, buf.length, n, f)).toBe(buf.length);
  // The cell reads fields 0… of the row: shift the layout past the leading 'x'.
  const shifted: Fields = { start: f.start.subarray(1), end: f.end.subarray(1), flags: f.flags.subarray(1) };
  const out = new Bytes();
  out.byte(0x21);
  const ok = cell(buf, shifted, out);
  const text = out.take().toString('utf8');
  if (!ok) {
    expect(text).toBe('!'); // nothing written
    return null;
  }
  return text.slice(1);
}

let seed = 11;
const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
const fieldOf = (v: number | null): Field => (v === null ? null : String(v));

describe('copyTimeCell', () => {
  it('writes exportTimeFormatter’s text, NULL as nothing, the day turning at 00:00 Shanghai', () => {
    const cell = copyTimeCell(0);
    const value = exportTimeFormatter();
    const times: (number | null)[] = [null, 0, 1, 999, 1000, Date.UTC(2026, 10, 27, 15, 59, 59, 999)];
    times.push(Date.UTC(2026, 10, 27, 16, 0, 0, 0), Date.UTC(2099, 11, 31, 15, 59, 59), 999_999_999_999_999);
    for (let i = 0; i < 5000; i++)
      times.push(Date.UTC(1990, 0, 1) + (next() % 20000) * 86_400_000 + (next() % 86_400_000));
    for (const t of times) expect([t, written(cell, [fieldOf(t)])]).toEqual([t, csvCell(value(t))]);
  });

  it('declines a sign, a quoted field, a non-digit and more digits than a double holds exactly', () => {
    const cell = copyTimeCell(0);
    for (const f of ['-5', { quoted: '123' }, '12a', '1e5', '1234567890123456']) expect(written(cell, [f])).toBeNull();
  });
});

describe('copyIntCell', () => {
  it('copies the digits String(Number(field)) prints, and declines NULL (which Number makes 0), signs and leading zeros', () => {
    const cell = copyIntCell(1);
    for (const n of [0, 1, 7, 99, 100, 123456789012345]) expect(written(cell, ['a', String(n)])).toBe(csvCell(n));
    for (const f of [null, '-3', '007', '00', '+1', { quoted: '5' }, '1234567890123456']) {
      expect(written(cell, ['a', f])).toBeNull();
    }
  });
});

describe('copyLabelCell', () => {
  it('writes csvCell of each code’s label, unknown codes included', () => {
    const cell = copyLabelCell(0, OrderStatus.label);
    for (const code of [0, 1, 2, 3, 4, 5, 99, 0, 1]) {
      expect(written(cell, [String(code)])).toBe(csvCell(OrderStatus.label(code)));
    }
    const quoting = copyLabelCell(0, (n) => (n === 1 ? '=a,"b"' : ''));
    expect(written(quoting, ['1'])).toBe(csvCell('=a,"b"'));
    expect(written(quoting, ['2'])).toBe('');
    for (const f of [null, '-1', 'x']) expect(written(cell, [f])).toBeNull();
  });
});

describe('copyMoneyCell', () => {
  const cell = copyMoneyCell(0, 1, AssetDecimals);
  const assets = Object.keys(AssetDecimals) as Asset[];

  it('writes formatAsset of the minor units in the asset’s decimals', () => {
    const texts = [
      '0',
      '00',
      '5',
      '10',
      '100',
      '1000',
      '120000',
      '123456',
      '1000000',
      '000123',
      '0000001',
      '999999999999',
    ];
    for (let i = 0; i < 3000; i++) {
      const digits = 1 + (next() % 22);
      let t = '';
      for (let k = 0; k < digits; k++) t += String(next() % (k % 3 === 0 ? 2 : 10)); // zeros often
      texts.push(t);
    }
    for (const asset of assets) {
      for (const t of texts)
        expect([asset, t, written(cell, [t, asset])]).toEqual([asset, t, csvCell(formatAsset(t, asset))]);
    }
  });

  it('declines a sign, a fraction, NULL, a quoted amount and an asset it does not know', () => {
    for (const f of ['-5', '1.5', '', null, { quoted: '12' }, '1e3'])
      expect(written(cell, [f as Field, 'USDT'])).toBeNull();
    for (const a of ['usdt', 'BTC', 'US', null, { quoted: 'USDT' }]) expect(written(cell, ['12', a])).toBeNull();
  });
});

describe('copyDayNumberCell', () => {
  const prefix = (ms: number) => orderNo(0, ms).slice(0, 8);

  it('writes the order number orderNoFormatter writes, ids of every length, days around midnight', () => {
    const cell = copyDayNumberCell(0, 1, prefix, ORDER_ID_DIGITS);
    const value = orderNoFormatter();
    const start = Date.UTC(2015, 0, 1);
    for (let i = 0; i < 5000; i++) {
      const t = start + (next() % 5000) * 86_400_000 + 16 * 3600_000 + ((next() % 3) - 1) * (next() % 60_000);
      const id = next() % 10 ** (1 + (i % 12)) || 1;
      const v: CellValue = value(id, t);
      expect([id, t, written(cell, [String(id), String(t)])]).toEqual([id, t, csvCell(v)]);
    }
    expect(written(cell, ['123456789012', String(start)])).toBe(value(123456789012, start));
    // a time with leading zeros is the same instant (Number('007') is 7): written, not declined
    expect(written(cell, ['5', `00${start}`])).toBe(value(5, start));
  });

  it('declines NULL, signs and leading zeros in either field', () => {
    const cell = copyDayNumberCell(0, 1, prefix, ORDER_ID_DIGITS);
    for (const [id, t] of [
      [null, '1'],
      ['1', null],
      ['-1', '1'],
      ['007', '1'],
      ['1', '-1'],
      [{ quoted: '1' }, '1'],
    ] as [Field, Field][]) {
      expect(written(cell, [id, t])).toBeNull();
    }
  });
});
