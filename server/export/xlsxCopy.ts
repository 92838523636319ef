/**
 * The .xlsx of an export made from PostgreSQL's own CSV of its rows (ExportSpec.copy, server/db/pgCopy.ts):
 * the same sheet as the writer over `batches` (./xlsx.ts writeXlsx), cell for cell and byte for byte,
 * at less CPU — as ./csvCopy.ts does for the CSV.
 *
 * A column with `field` copies that field's bytes into its inline string when they are plain: unquoted
 * by PostgreSQL, not a formula's start, and nothing escapeXml would change (no & < > ", no control
 * character but tab, no `_x`, no U+FFFE/U+FFFF). Anything else takes the batch writer's own `cell`:
 * decoded, defused, escaped. The other columns' values are written by `cell` as the batch writer does.
 */
import type { Writable } from 'node:stream';
import { FORMULA_START, type CopyRows, type ExportSpec } from './common';
import { Bytes, WRITE_BYTES } from './bytes';
import { eachCopyRow, textOf } from './pgCsvRow';
import { cell, closeSheet, openSheet, refAttrsOf, tooManyRows, XLSX_MAX_ROWS } from './xlsx';

/** Bytes that end the fast path: what escapeXml or defused would change, or must look at again. */
const CAREFUL = new Uint8Array(256);
for (let b = 0; b < 0x20; b++) if (b !== 0x09) CAREFUL[b] = 1; // controls (LF and CR come quoted anyway)
for (const b of [0x22, 0x26, 0x3c, 0x3e]) CAREFUL[b] = 1; // " & < >
CAREFUL[0x5f] = 2; // _ : careful when `_x` follows (Excel's escaped character)
CAREFUL[0xef] = 3; // EF BF BE / EF BF BF: U+FFFE, U+FFFF

const INLINE = ' t="inlineStr"><is><t>';
const INLINE_KEPT = ' t="inlineStr"><is><t xml:space="preserve">';
const CELL_END = '</t></is></c>';

/**
 * Whether the field `[s, e)` of `buf`, written as it is, is what the batch writer writes for its text:
 * nothing to escape, drop or defuse.
 */
function plain(buf: Buffer, s: number, e: number): boolean {
  if (FORMULA_START[buf[s]] === 1) return false;
  for (let k = s; k < e; k++) {
    const c = CAREFUL[buf[k]];
    if (c === 0) continue;
    if (c === 1) return false;
    if (c === 2) {
      if (buf[k + 1] === 0x78 && k + 1 < e) return false;
    } else if (k + 2 < e && buf[k + 1] === 0xbf && (buf[k + 2] === 0xbe || buf[k + 2] === 0xbf)) {
      return false;
    }
  }
  return true;
}

/** Writes the export as .xlsx from `copy`'s rows (ends `out`); resolves with the number of data rows. */
export async function writeXlsxFromCopy<R>(spec: ExportSpec<R>, copy: CopyRows, out: Writable): Promise<number> {
  const { columns } = spec;
  const shows = columns.map((c) => {
    const i = c.field;
    if (i === undefined) return -1;
    // An int field's value is a number cell (<v>), not the inline string its bytes would make.
    if (!(Number.isInteger(i) && i >= 0 && i < copy.fields.length) || copy.fields[i] === 'int') {
      throw new RangeError(`no text field ${i} to show`);
    }
    return i;
  });
  const steps = { shows, values: columns.map((c) => c.value), refAttrs: refAttrsOf(columns.length) };
  const { zip, sheet } = await openSheet(spec, out);
  const output = new Bytes();
  let rows = 0;
  try {
    rows = await eachCopyRow(
      copy,
      out,
      (buf, fields, row, index) => {
        if (index + 1 >= XLSX_MAX_ROWS) throw tooManyRows();
        // Locals, not the closure's variables, in the loop below (as in csvCopy.ts).
        const { shows, values, refAttrs } = steps;
        const bytes = output;
        const { start, end, flags } = fields;
        const r = String(index + 2);
        // The row's text between copied fields is gathered as a string and encoded in one write: a call
        // per cell costs more than the characters.
        let text = `<row r="${r}">`;
        let gap = true;
        for (let k = 0; k < shows.length; k++) {
          const i = shows[k];
          if (i >= 0) {
            const s = start[i];
            const e = end[i];
            if (s === e) {
              gap = true; // NULL, or an empty string (`""`): no cell, as the batch writer's
              continue;
            }
            if (flags[i] === 0 && plain(buf, s, e)) {
              text += gap ? `<c${refAttrs[k]}${r}"` : '<c';
              // textCell's xml:space where a reader would trim the text
              text += buf[s] <= 0x20 || buf[e - 1] <= 0x20 ? INLINE_KEPT : INLINE;
              bytes.utf8(text);
              bytes.copy(buf, s, e);
              text = CELL_END;
              gap = false;
              continue;
            }
          }
          const c = cell(gap ? `${refAttrs[k]}${r}"` : '', i >= 0 ? textOf(buf, fields, i) : values[k](row as R));
          gap = c === '';
          text += c;
        }
        bytes.utf8(`${text}</row>`);
      },
      // sheet.write() resolves once the deflater took the chunk before; each take() is a buffer of its own.
      () => (output.used >= WRITE_BYTES ? sheet.write(output.take()) : undefined),
    );
    if (!out.destroyed && output.used > 0) await sheet.write(output.take());
  } catch (err) {
    sheet.abort();
    if (out.destroyed) return rows; // the client left meanwhile: nothing to report
    throw err;
  }
  await closeSheet(zip, sheet, out); // drops the sheet if the client left
  return rows;
}
