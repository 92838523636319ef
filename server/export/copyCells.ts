/**
 * Columns a CSV made from COPY (./csvCopy.ts) writes straight from the row's bytes (ExportColumn.csv):
 * times, amounts, labels and counts, without a string per cell. Each gives the bytes csvCell would give
 * of the column's `value`, or declines (returns false, having written nothing) for what it does not
 * handle — NULL where the value is not '', a sign, a quoted field, an unknown asset — and the writer then
 * decodes the row and asks `value`. The batch writer and the xlsx keep `value`; the route tests compare
 * the CSV from COPY with the batch writer's bytes, and __tests__/server/export/copyCells.test.ts each
 * writer with csvCell(value) over edge values.
 */
import { SHANGHAI_OFFSET } from '../../domain/time';
import { csvCell, DATES_KEPT, dateTextOfDay, DAY_MS, remembered, type CopyCell } from './common';
import type { Fields } from './pgCsvRow';

export type { CopyCell } from './common';

const ZERO = 0x30;
const DOT = 0x2e;
const COLON = 0x3a;

/** Digits the writers read as a number: past 15 a value may not be exact in a double, so they decline. */
const MAX_DIGITS = 15;

/** Whether field `i` is NULL (nothing between the commas, unquoted). */
export const isNull = (f: Fields, i: number) => f.flags[i] === 0 && f.start[i] === f.end[i];

/**
 * Field `i` as a number when it is 1–15 unquoted digits (what PostgreSQL prints of a non-negative
 * integer); -1 for anything else, NULL included.
 */
export function digitsOf(buf: Buffer, f: Fields, i: number): number {
  let p = f.start[i];
  const e = f.end[i];
  if (f.flags[i] !== 0 || p === e || e - p > MAX_DIGITS) return -1;
  let n = 0;
  for (; p < e; p++) {
    const d = buf[p] - ZERO;
    if (d < 0 || d > 9) return -1;
    n = n * 10 + d;
  }
  return n;
}

/** Whether field `i` has a zero before other digits (which String(Number(text)) would not print). */
const leadingZero = (buf: Buffer, f: Fields, i: number) => buf[f.start[i]] === ZERO && f.end[i] - f.start[i] > 1;

/** Writes `n` (0–99) in two digits at `u` of `b`. */
function twoDigits(b: Buffer, u: number, n: number): void {
  const tens = Math.floor(n / 10);
  b[u] = ZERO + tens;
  b[u + 1] = ZERO + n - 10 * tens;
}

/** `f`'s text of each key as bytes, kept by key (remembered). */
const bytesBy = (f: (k: number) => string, keep?: number) => remembered((k: number) => Buffer.from(f(k)), keep);

/** A time column (ms since the epoch in field `i`), as exportTimeFormatter's text: '' for NULL. */
export function copyTimeCell(i: number): CopyCell {
  const dateOf = bytesBy(dateTextOfDay, DATES_KEPT);
  return (buf, f, out) => {
    if (isNull(f, i)) return true;
    const ms = digitsOf(buf, f, i);
    if (ms < 0) return false;
    const local = ms + SHANGHAI_OFFSET;
    const d = Math.floor(local / DAY_MS);
    const date = dateOf(d);
    const s = Math.floor((local - d * DAY_MS) / 1000);
    const m = Math.floor(s / 60);
    // "YYYY-MM-DD " then "HH:mm:ss", written in place
    const n = date.length;
    out.room(n + 8);
    const b = out.buf;
    let u = out.used;
    for (let k = 0; k < n; k++) b[u++] = date[k];
    twoDigits(b, u, Math.floor(m / 60));
    b[u + 2] = COLON;
    twoDigits(b, u + 3, m % 60);
    b[u + 5] = COLON;
    twoDigits(b, u + 6, s - 60 * m);
    out.used = u + 8;
    return true;
  };
}

/** A count or a plain integer in field `i` (a value of Number(field)): its digits as they are. */
export function copyIntCell(i: number): CopyCell {
  return (buf, f, out) => {
    // NULL (Number(null) is 0), a sign, too long, or a leading zero String(Number(…)) would drop
    if (digitsOf(buf, f, i) < 0 || leadingZero(buf, f, i)) return false;
    out.copy(buf, f.start[i], f.end[i]);
    return true;
  };
}

/** A label by an integer code in field `i` (label(Number(field))): csvCell's bytes of each code's label, kept. */
export function copyLabelCell(i: number, label: (code: number) => string): CopyCell {
  const bytesOf = bytesBy((code) => csvCell(label(code)), 256);
  return (buf, f, out) => {
    const code = digitsOf(buf, f, i);
    if (code < 0) return false;
    const b = bytesOf(code);
    out.copy(b, 0, b.length);
    return true;
  };
}

/**
 * An amount: minor units (the integer text money() selects) in field `i`, in the decimals of the asset
 * named in field `assetField`, as formatMinor writes it ("12.5", "0.0001", "3"). Declines a negative or
 * non-integer text and an asset not in `decimals`.
 */
export function copyMoneyCell(i: number, assetField: number, decimals: Readonly<Record<string, number>>): CopyCell {
  const names = Object.keys(decimals).map((name) => Buffer.from(name));
  const places = Object.values(decimals);
  /** The decimals of the asset field's name (its bytes compared in place); -1 for a name not known. */
  const placesOf = (buf: Buffer, f: Fields): number => {
    if (f.flags[assetField] !== 0) return -1;
    const s = f.start[assetField];
    const n = f.end[assetField] - s;
    for (let a = 0; a < names.length; a++) {
      const name = names[a];
      if (name.length !== n) continue;
      let k = 0;
      while (k < n && buf[s + k] === name[k]) k++;
      if (k === n) return places[a];
    }
    return -1;
  };
  return (buf, f, out) => {
    let p = f.start[i];
    const e = f.end[i];
    if (f.flags[i] !== 0 || p === e) return false;
    for (let q = p; q < e; q++) if (buf[q] < ZERO || buf[q] > ZERO + 9) return false;
    const dec = placesOf(buf, f);
    if (dec < 0) return false;
    while (p < e - 1 && buf[p] === ZERO) p++; // leading zeros, one kept
    let last = e; // the fraction's end, its trailing zeros left out
    const cut = e - dec; // where the point goes (before p: "0." and zeros first)
    while (last > Math.max(cut, p) && buf[last - 1] === ZERO) last--;
    if (cut <= p) {
      out.byte(ZERO);
      if (last > p) {
        out.byte(DOT);
        for (let z = cut; z < p; z++) out.byte(ZERO);
        out.copy(buf, p, last);
      }
      return true;
    }
    out.copy(buf, p, cut);
    if (last > cut) {
      out.byte(DOT);
      out.copy(buf, cut, last);
    }
    return true;
  };
}

/**
 * A text made of a day's prefix and a number padded to `width` digits (an order's number: its Shanghai
 * date and its id), as `${prefixOf(ms)}${String(n).padStart(width, '0')}` writes it, where `prefixOf`
 * depends only on the Shanghai day of `ms` (field `timeField`): each day's prefix is kept, the number
 * (field `numberField`) copied after the zeros it lacks.
 */
export function copyDayNumberCell(
  numberField: number,
  timeField: number,
  prefixOf: (ms: number) => string,
  width: number,
): CopyCell {
  const prefix = bytesBy((d) => prefixOf(d * DAY_MS - SHANGHAI_OFFSET));
  return (buf, f, out) => {
    const ms = digitsOf(buf, f, timeField);
    if (ms < 0 || digitsOf(buf, f, numberField) < 0 || leadingZero(buf, f, numberField)) return false;
    const day = prefix(Math.floor((ms + SHANGHAI_OFFSET) / DAY_MS));
    const s = f.start[numberField];
    const e = f.end[numberField];
    const zeros = Math.max(0, width - (e - s));
    out.room(day.length + zeros + e - s);
    const b = out.buf;
    let u = out.used;
    for (let k = 0; k < day.length; k++) b[u++] = day[k];
    for (let k = 0; k < zeros; k++) b[u++] = ZERO;
    for (let k = s; k < e; k++) b[u++] = buf[k];
    out.used = u;
    return true;
  };
}
