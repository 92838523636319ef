/**
 * A streaming .xlsx writer: the smallest SpreadsheetML package Excel, LibreOffice and exceljs open,
 * zipped by ./zip as it is written. One sheet (named after the export), column widths, a bold
 * frozen header row, then one `<row>` per data row: numbers as `<c><v>`, text as inline strings
 * (`t="inlineStr"`, no shared-strings table to hold in memory), empty values as no cell at all.
 *
 * Each batch becomes one XML string, handed to the zip entry in one write; the entry compresses it
 * on the thread pool while the next batch is read and built, and takes the one after only when the
 * output has drained (see ZipEntryWriter.write). Memory holds about two batches whatever the row count.
 */
import type { Writable } from 'node:stream';
import { defused, ROWS_PER_WRITE, Utf8Batch, type CellValue, type ExportSpec } from './common';
import { ZipWriter, type ZipEntryWriter } from './zip';

/**
 * zlib level of the package. Sheet XML is repetitive: level 1 is several times faster than the
 * default 6 for a file about a third larger (measured in bench/export-writer.ts).
 */
export const XLSX_ZLIB_LEVEL = 1;

const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const MAIN_NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL_NS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PKG_REL_NS = 'http://schemas.openxmlformats.org/package/2006/relationships';

const CONTENT_TYPES_XML =
  `${XML_HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
  '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
  '<Default Extension="xml" ContentType="application/xml"/>' +
  '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
  '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>' +
  '<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>' +
  '</Types>';

const ROOT_RELS_XML =
  `${XML_HEAD}<Relationships xmlns="${PKG_REL_NS}">` +
  `<Relationship Id="rId1" Type="${REL_NS}/officeDocument" Target="xl/workbook.xml"/>` +
  '</Relationships>';

const WORKBOOK_RELS_XML =
  `${XML_HEAD}<Relationships xmlns="${PKG_REL_NS}">` +
  `<Relationship Id="rId1" Type="${REL_NS}/worksheet" Target="worksheets/sheet1.xml"/>` +
  `<Relationship Id="rId2" Type="${REL_NS}/styles" Target="styles.xml"/>` +
  '</Relationships>';

/** Style 0: normal; style 1: bold (the header row). The parts Excel insists on when styles exist. */
const STYLES_XML =
  `${XML_HEAD}<styleSheet xmlns="${MAIN_NS}">` +
  '<fonts count="2"><font><sz val="11"/><name val="Calibri"/><family val="2"/></font>' +
  '<font><b/><sz val="11"/><name val="Calibri"/><family val="2"/></font></fonts>' +
  '<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>' +
  '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>' +
  '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
  '<cellXfs count="2"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>' +
  '<xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/></cellXfs>' +
  '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>' +
  '</styleSheet>';

const workbookXml = (sheet: string) =>
  `${XML_HEAD}<workbook xmlns="${MAIN_NS}" xmlns:r="${REL_NS}">` +
  `<sheets><sheet name="${escapeXml(sheet)}" sheetId="1" r:id="rId1"/></sheets></workbook>`;

/**
 * What XML 1.0 cannot hold or a reader would change: markup characters, CR (a parser turns it into
 * LF), control characters, surrogates (paired ones are fine; the slow path checks), U+FFFE/U+FFFF —
 * one character class, which the regex engine scans fast — and `_xHHHH_`, which Excel reads as an
 * escaped character (looked for with indexOf: an alternation in the class's regex would slow it).
 */
// eslint-disable-next-line no-control-regex
const NEEDS_ESCAPE = /[&<>"\r\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]/;
const HEX4_UNDERSCORE = /^[0-9A-Fa-f]{4}_/;
/**
 * Text as XML character data (and attribute values): & < > " escaped, CR as `&#13;`, characters
 * XML 1.0 forbids dropped (C0 controls but tab and LF, lone surrogates, U+FFFE, U+FFFF), and the `_`
 * of a literal `_xHHHH_` written as `_x005F_` so Excel shows it as typed.
 */
export function escapeXml(s: string): string {
  if (!NEEDS_ESCAPE.test(s) && !s.includes('_x')) return s;
  let out = '';
  let from = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    let rep: string;
    if (c === 38) rep = '&amp;';
    else if (c === 60) rep = '&lt;';
    else if (c === 62) rep = '&gt;';
    else if (c === 34) rep = '&quot;';
    else if (c === 13) rep = '&#13;';
    else if (c === 95 /* _ */ && s.charCodeAt(i + 1) === 120 /* x */ && HEX4_UNDERSCORE.test(s.slice(i + 2, i + 7)))
      rep = '_x005F_';
    else if (c < 32 && c !== 9 && c !== 10) rep = '';
    else if (c === 0xfffe || c === 0xffff) rep = '';
    else if (c >= 0xd800 && c <= 0xdbff) {
      const next = s.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        i++; // a pair: kept as it is
        continue;
      }
      rep = '';
    } else if (c >= 0xdc00 && c <= 0xdfff) rep = '';
    else continue;
    out += s.slice(from, i) + rep;
    from = i + 1;
  }
  return out + s.slice(from);
}

const FORBIDDEN_IN_SHEET_NAME = /[[\]:*?/\\]/g;

/**
 * The sheet's name from the export's title: Excel's rules are at most 31 characters, none of
 * `[ ] : * ? / \`, no apostrophe first or last, not empty, not "History".
 */
export function sheetName(title: string): string {
  let name = title.replace(FORBIDDEN_IN_SHEET_NAME, '_').slice(0, 31);
  const last = name.charCodeAt(name.length - 1);
  if (last >= 0xd800 && last <= 0xdbff) name = name.slice(0, -1); // half a character cut off
  name = name.replace(/^'+|'+$/g, '').trim();
  if (!name) return 'Sheet1';
  return name.toLowerCase() === 'history' ? `${name}_` : name;
}

/** A, B, … Z, AA, AB, … for 1-based column numbers. */
export function columnLetters(n: number): string {
  let s = '';
  for (let k = n; k > 0; k = Math.floor((k - 1) / 26)) s = String.fromCharCode(65 + ((k - 1) % 26)) + s;
  return s;
}

/**
 * One text cell: an inline string, whitespace kept where a reader would trim it. `r` is the cell's
 * reference attribute, or '' when the cell follows the one before it in the row (see writeXlsx).
 */
function textCell(r: string, text: string, style: string): string {
  const t = escapeXml(text);
  const first = t.charCodeAt(0);
  const last = t.charCodeAt(t.length - 1);
  const space = first <= 32 || last <= 32 ? ' xml:space="preserve"' : '';
  return `<c${r}${style} t="inlineStr"><is><t${space}>${t}</t></is></c>`;
}

/** A cell, or '' for an empty value (no cell at all). */
export function cell(r: string, v: CellValue): string {
  if (typeof v === 'number') return Number.isFinite(v) ? `<c${r}><v>${v}</v></c>` : textCell(r, String(v), '');
  return v === null || v === undefined || v === '' ? '' : textCell(r, defused(v), '');
}

/** Rows of an Excel sheet, the header row included: a file with more opens truncated or not at all. */
export const XLSX_MAX_ROWS = 1_048_576;

/**
 * The package up to the sheet's rows: the parts around the sheet, then the sheet's start (column
 * widths, the frozen bold header row). The caller writes the rows to `sheet` and ends with closeSheet,
 * or aborts the sheet when it fails.
 */
export async function openSheet<R>(
  spec: ExportSpec<R>,
  out: Writable,
): Promise<{ zip: ZipWriter; sheet: ZipEntryWriter }> {
  const { columns } = spec;
  const zip = new ZipWriter(out, { level: XLSX_ZLIB_LEVEL });
  await zip.file('[Content_Types].xml', CONTENT_TYPES_XML);
  await zip.file('_rels/.rels', ROOT_RELS_XML);
  await zip.file('xl/workbook.xml', workbookXml(sheetName(spec.title)));
  await zip.file('xl/_rels/workbook.xml.rels', WORKBOOK_RELS_XML);
  await zip.file('xl/styles.xml', STYLES_XML);
  const sheet = zip.entry('xl/worksheets/sheet1.xml');
  try {
    const cols = columns
      .map((c, i) => `<col min="${i + 1}" max="${i + 1}" width="${c.width ?? 16}" customWidth="1"/>`)
      .join('');
    const header = columns.map((c, i) => textCell(` r="${columnLetters(i + 1)}1"`, defused(c.header), ' s="1"'));
    await sheet.write(
      `${XML_HEAD}<worksheet xmlns="${MAIN_NS}" xmlns:r="${REL_NS}">` +
        '<sheetViews><sheetView workbookViewId="0">' +
        '<pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/></sheetView></sheetViews>' +
        (cols ? `<cols>${cols}</cols>` : '') +
        `<sheetData><row r="1">${header.join('')}</row>`,
    );
  } catch (err) {
    sheet.abort();
    throw err;
  }
  return { zip, sheet };
}

/** Ends the sheet and the package once the rows are written; drops the sheet if `out` is gone. */
export async function closeSheet(zip: ZipWriter, sheet: ZipEntryWriter, out: Writable): Promise<void> {
  if (out.destroyed) {
    sheet.abort(); // the client went away: nothing left to finish
    return;
  }
  try {
    await sheet.write('</sheetData></worksheet>');
    await sheet.end();
  } catch (err) {
    sheet.abort();
    throw err;
  }
  await zip.finish();
}

/** The error for a sheet past XLSX_MAX_ROWS. */
export const tooManyRows = () =>
  new Error(`xlsx: more than ${XLSX_MAX_ROWS - 1} data rows, past what one Excel sheet holds`);

/**
 * The `r="B` part of each column's cell reference (the row number and closing quote follow). A cell
 * carries its reference (r="B7") only when it is the first of its row or follows an empty column (no
 * cell); otherwise it is the next column, as ECMA-376 §18.3.1.4 allows and Excel, LibreOffice and
 * exceljs read it. A fifth of the sheet's bytes less to build, deflate and check.
 */
export const refAttrsOf = (n: number) => Array.from({ length: n }, (_, i) => ` r="${columnLetters(i + 1)}`);

/**
 * Writes the whole export as .xlsx to `out` (ends it); resolves with the number of data rows. More rows
 * than a sheet holds fail the export (the download is cut) rather than hand over a file Excel refuses.
 */
export async function writeXlsx<R>(spec: ExportSpec<R>, out: Writable): Promise<number> {
  const values = spec.columns.map((c) => c.value);
  const { zip, sheet } = await openSheet(spec, out);
  let count = 0;
  try {
    let r = 1;
    const bytes = new Utf8Batch(true); // sheet.write() resolves once the deflater took the batch before
    const refAttrs = refAttrsOf(values.length);
    for await (const batch of spec.batches) {
      if (out.destroyed) break;
      if (r + batch.length > XLSX_MAX_ROWS) throw tooManyRows();
      let chunk = '';
      for (let k = 0; k < batch.length; k++) {
        const row = batch[k];
        const n = String(++r);
        let xml = `<row r="${n}">`;
        let gap = true;
        for (let i = 0; i < values.length; i++) {
          const c = cell(gap ? `${refAttrs[i]}${n}"` : '', values[i](row));
          gap = c === '';
          xml += c;
        }
        chunk += `${xml}</row>`;
        if (k % ROWS_PER_WRITE === ROWS_PER_WRITE - 1) {
          bytes.add(chunk);
          chunk = '';
        }
      }
      if (chunk) bytes.add(chunk);
      count += batch.length;
      await sheet.write(bytes.take());
      if (out.destroyed) break;
    }
  } catch (err) {
    sheet.abort();
    throw err;
  }
  await closeSheet(zip, sheet, out);
  return count;
}
