/** What the export tests share: collecting a stream's bytes, and LibreOffice as an independent reader. */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { PassThrough } from 'node:stream';

/** Collects what `out` emits; call the result for the bytes so far. */
export function collect(out: PassThrough): () => Buffer {
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  return () => Buffer.concat(chunks);
}

/** LibreOffice's command on this machine, if any (the tests that open files in it skip without). */
export const soffice = ['soffice', 'libreoffice'].find((cmd) => {
  try {
    execFileSync(cmd, ['--version'], { stdio: 'ignore', timeout: 60_000 });
    return true;
  } catch {
    return false;
  }
});

/** The .xlsx opened in LibreOffice and saved as CSV (UTF-8, every text cell quoted). */
export function xlsxToCsv(xlsx: Buffer): string {
  if (!soffice) throw new Error('LibreOffice is not installed');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'xlsx-lo-'));
  try {
    fs.writeFileSync(path.join(dir, 't.xlsx'), xlsx);
    execFileSync(
      soffice,
      [
        `-env:UserInstallation=file://${dir}/profile`,
        '--headless',
        '--convert-to',
        'csv:Text - txt - csv (StarCalc):44,34,76,1',
        '--outdir',
        dir,
        path.join(dir, 't.xlsx'),
      ],
      { stdio: 'ignore', timeout: 100_000 },
    );
    return fs.readFileSync(path.join(dir, 't.csv'), 'utf8');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
