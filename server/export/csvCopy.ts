/**
 * The CSV of an export made from PostgreSQL's own CSV of its rows (ExportSpec.copy, server/db/pgCopy.ts):
 * the same bytes as the writer over `batches` (./export.ts writeCsv), at a fraction of its CPU.
 *
 * The batch writer's rows arrive as strings pg decoded from UTF-8, which the writer formats, checks
 * and encodes back to UTF-8: most of an export's CPU for fields it shows unchanged (names, addresses,
 * numbers of things). Here each row is split where PostgreSQL's CSV puts its commas, a column with
 * `field` copies that field's bytes, and only the fields the other columns format (ids, times, amounts,
 * codes) become values. A copied field whose first character a spreadsheet would read as a formula,
 * or which PostgreSQL quoted (a comma, a quote, CR or LF in it), takes the batch writer's own path:
 * decoded, then csvCell; an empty one (NULL, or `""`) writes nothing, as csvCell does.
 */
import type { Writable } from 'node:stream';
import {
  csvCell,
  csvHeaderLine,
  drained,
  ended,
  FORMULA_START,
  type CellValue,
  type CopyCell,
  type CopyRows,
  type ExportColumn,
  type ExportSpec,
} from './common';
import { Bytes, WRITE_BYTES } from './bytes';
import { eachCopyRow, rowDecoder, textOf } from './pgCsvRow';

const QUOTE = 0x22;
const COMMA = 0x2c;
const LF = 0x0a;
const CR = 0x0d;

/** Texts up to this length have their csvCell bytes kept (CsvBytes.careful), at most this many at once. */
const KNOWN_LENGTH = 16;
const KNOWN_TEXTS = 256;

/** Bytes, and csvCell's bytes of a value written in place. */
class CsvBytes extends Bytes {
  /**
   * Appends csvCell(v): the same bytes, written in one pass when the text is ASCII with nothing to
   * quote or defuse (numbers, times, amounts, codes).
   */
  cell(v: CellValue): void {
    if (typeof v !== 'string' || v === '' || FORMULA_START[v.charCodeAt(0) & 0xff] === 1) {
      this.careful(v);
      return;
    }
    const n = v.length;
    this.room(n);
    const buf = this.buf;
    const u0 = this.used;
    let u = u0;
    for (let k = 0; k < n; k++) {
      const c = v.charCodeAt(k);
      if (c >= 0x80 || c === QUOTE || c === COMMA || c === CR || c === LF) {
        this.used = u0;
        this.careful(v);
        return;
      }
      buf[u++] = c;
    }
    this.used = u;
  }

  /** csvCell's bytes of short texts met before (labels: 已完成, 虚拟商品…), by text. */
  private known = new Map<string, Buffer>();

  /** Appends csvCell(v) for any value: a short text's bytes are kept and copied the next time. */
  private careful(v: CellValue): void {
    if (typeof v !== 'string' || v.length > KNOWN_LENGTH) {
      this.text(csvCell(v));
      return;
    }
    let b = this.known.get(v);
    if (b === undefined) {
      if (this.known.size >= KNOWN_TEXTS) this.known.clear();
      b = Buffer.from(csvCell(v));
      this.known.set(v, b);
    }
    this.copy(b, 0, b.length);
  }
}

/**
 * The columns in order, as what writes them: `cell[k]` from the row's bytes, else `value[k]`, or (both
 * null there) a run of shown fields that lie side by side in the row as in the file (fields
 * `first[k]`…`last[k]`, commas included, copied as one block when none of them needs csvCell's care).
 */
interface Steps<R> {
  cell: (CopyCell | null)[];
  value: (ExportColumn<R>['value'] | null)[];
  first: number[];
  last: number[];
}

function stepsOf<R>(columns: readonly ExportColumn<R>[], n: number): Steps<R> {
  const steps: Steps<R> = { cell: [], value: [], first: [], last: [] };
  for (const c of columns) {
    const i = c.field;
    const k = steps.value.length - 1;
    if (i === undefined) {
      steps.cell.push(c.csv ?? null);
      steps.value.push(c.value);
      steps.first.push(-1);
      steps.last.push(-1);
    } else if (!(Number.isInteger(i) && i >= 0 && i < n)) {
      throw new RangeError(`no field ${i}`);
    } else if (k >= 0 && steps.value[k] === null && steps.last[k] === i - 1) {
      steps.last[k] = i;
    } else {
      steps.cell.push(null);
      steps.value.push(null);
      steps.first.push(i);
      steps.last.push(i);
    }
  }
  return steps;
}

/** Writes the export as CSV from `copy`'s rows (ends `out`); resolves with the number of data rows. */
export async function writeCsvFromCopy<R>(spec: ExportSpec<R>, copy: CopyRows, out: Writable): Promise<number> {
  const steps = stepsOf(spec.columns, copy.fields.length);
  const output = new CsvBytes();
  // The row's values are decoded only for a row where a column asks `value` (none has a `cell`, or one
  // declined): with a cell for every computed column most rows never become strings and numbers.
  const decode = rowDecoder(copy.fields);
  out.write(csvHeaderLine(spec.columns));
  const count = await eachCopyRow(
    copy,
    out,
    (buf, fields, row) => {
      // Locals, not the closure's variables, in the loop below: reading those measured 15–20 % slower.
      const { cell, value, first, last } = steps;
      const bytes = output;
      const { start, end, flags } = fields;
      let decoded = false;
      for (let k = 0; k < value.length; k++) {
        if (k > 0) bytes.byte(COMMA);
        const write = cell[k];
        if (write !== null && write(buf, fields, bytes)) continue;
        const fn = value[k];
        if (fn !== null) {
          if (!decoded) decode(buf, fields, row);
          decoded = true;
          bytes.cell(fn(row as R));
          continue;
        }
        const a = first[k];
        const b = last[k];
        let plain = true;
        for (let i = a; i <= b && plain; i++) {
          // Unquoted and not a formula's start: csvCell would give these bytes back as they are.
          plain = flags[i] === 0 && (start[i] === end[i] || FORMULA_START[buf[start[i]]] === 0);
        }
        if (plain) {
          bytes.copy(buf, start[a], end[b]);
          continue;
        }
        for (let i = a; i <= b; i++) {
          if (i > a) bytes.byte(COMMA);
          if (start[i] === end[i]) continue; // NULL, or an empty string (`""`): csvCell writes nothing
          if (flags[i] === 0 && FORMULA_START[buf[start[i]]] === 0) bytes.copy(buf, start[i], end[i]);
          else bytes.text(csvCell(textOf(buf, fields, i)));
        }
      }
      bytes.byte(CR);
      bytes.byte(LF);
    },
    () => (output.used >= WRITE_BYTES ? flush(output, out) : undefined),
    false,
  );
  if (!out.destroyed && output.used > 0) await flush(output, out);
  await ended(out);
  return count;
}

/** Hands the bytes so far to `out` once it has drained. */
async function flush(bytes: Bytes, out: Writable): Promise<void> {
  await drained(out);
  if (!out.destroyed) out.write(bytes.take());
}
