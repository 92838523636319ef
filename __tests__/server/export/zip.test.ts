import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { PassThrough } from 'node:stream';
import zlib from 'node:zlib';
import { ZipWriter } from '../../../server/export/zip';
import { Utf8Batch } from '../../../server/export/common';
import { collect } from './helpers';

interface Parsed {
  name: string;
  flags: number;
  data: Buffer;
}

/**
 * An independent reader of what ZipWriter writes: walks the central directory from the end record,
 * checks each local header and (when flagged) data descriptor against it, inflates and checks CRC.
 */
function readZip(zip: Buffer): Parsed[] {
  const end = zip.length - 22;
  expect(zip.readUInt32LE(end)).toBe(0x06054b50);
  const count = zip.readUInt16LE(end + 10);
  const cdSize = zip.readUInt32LE(end + 12);
  const cdStart = zip.readUInt32LE(end + 16);
  expect(cdStart + cdSize).toBe(end);
  const out: Parsed[] = [];
  let p = cdStart;
  for (let i = 0; i < count; i++) {
    expect(zip.readUInt32LE(p)).toBe(0x02014b50);
    const flags = zip.readUInt16LE(p + 8);
    expect(zip.readUInt16LE(p + 10)).toBe(8); // DEFLATE
    const crc = zip.readUInt32LE(p + 16);
    const csize = zip.readUInt32LE(p + 20);
    const size = zip.readUInt32LE(p + 24);
    const nameLen = zip.readUInt16LE(p + 28);
    const extraLen = zip.readUInt16LE(p + 30);
    const commentLen = zip.readUInt16LE(p + 32);
    const local = zip.readUInt32LE(p + 42);
    const name = zip.subarray(p + 46, p + 46 + nameLen).toString('utf8');
    p += 46 + nameLen + extraLen + commentLen;

    expect(zip.readUInt32LE(local)).toBe(0x04034b50);
    expect(zip.readUInt16LE(local + 6)).toBe(flags);
    const lNameLen = zip.readUInt16LE(local + 26);
    const lExtraLen = zip.readUInt16LE(local + 28);
    expect(zip.subarray(local + 30, local + 30 + lNameLen).toString('utf8')).toBe(name);
    const dataStart = local + 30 + lNameLen + lExtraLen;
    if (flags & 0x0008) {
      expect([zip.readUInt32LE(local + 14), zip.readUInt32LE(local + 18), zip.readUInt32LE(local + 22)]).toEqual([
        0, 0, 0,
      ]);
      const d = dataStart + csize;
      expect(zip.readUInt32LE(d)).toBe(0x08074b50);
      expect([zip.readUInt32LE(d + 4), zip.readUInt32LE(d + 8), zip.readUInt32LE(d + 12)]).toEqual([crc, csize, size]);
    } else {
      expect([zip.readUInt32LE(local + 14), zip.readUInt32LE(local + 18), zip.readUInt32LE(local + 22)]).toEqual([
        crc,
        csize,
        size,
      ]);
    }
    const data = zlib.inflateRawSync(zip.subarray(dataStart, dataStart + csize));
    expect(data.length).toBe(size);
    expect(zlib.crc32(data)).toBe(crc);
    out.push({ name, flags, data });
  }
  return out;
}

const hasPython = (() => {
  try {
    execFileSync('python3', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

describe('server/export/zip', () => {
  it('writes whole files and streamed entries that an independent reader inflates with matching CRCs', async () => {
    const out = new PassThrough();
    const body = collect(out);
    const zip = new ZipWriter(out, { level: 1, modified: new Date(2026, 10, 23, 12, 34, 56) });
    await zip.file('[Content_Types].xml', '<Types/>');
    await zip.file('目录/说明.txt', Buffer.from('中文内容'));
    const e = zip.entry('xl/worksheets/sheet1.xml');
    const parts: string[] = [];
    for (let i = 0; i < 50; i++) {
      const part = `<row r="${i}">${'数据'.repeat(i * 100)}</row>`;
      parts.push(part);
      await e.write(i % 2 ? part : Buffer.from(part));
    }
    await e.end();
    const empty = zip.entry('empty.xml');
    await empty.end();
    await zip.finish();
    expect(out.writableEnded).toBe(true);

    const zipped = body();
    const files = readZip(zipped);
    expect(files.map((f) => f.name)).toEqual([
      '[Content_Types].xml',
      '目录/说明.txt',
      'xl/worksheets/sheet1.xml',
      'empty.xml',
    ]);
    expect(files.map((f) => f.flags)).toEqual([0x0800, 0x0800, 0x0808, 0x0808]); // UTF-8 names; descriptors when streamed
    expect(files[0].data.toString()).toBe('<Types/>');
    expect(files[1].data.toString()).toBe('中文内容');
    expect(files[2].data.toString()).toBe(parts.join(''));
    expect(files[3].data.length).toBe(0);
    // MS-DOS time and date in the local header: 12:34:56 → 56/2 s, 2026-11-23
    expect(zipped.readUInt16LE(10)).toBe((12 << 11) | (34 << 5) | 28);
    expect(zipped.readUInt16LE(12)).toBe(((2026 - 1980) << 9) | (11 << 5) | 23);

    if (hasPython) {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zip-test-'));
      try {
        fs.writeFileSync(path.join(dir, 'a.zip'), zipped);
        const check = execFileSync(
          'python3',
          [
            '-c',
            'import sys, zipfile; z = zipfile.ZipFile(sys.argv[1]); print(z.testzip(), len(z.namelist()))',
            'a.zip',
          ],
          { encoding: 'utf8', cwd: dir },
        );
        expect(check.trim().split(' ')).toEqual(['None', '4']); // every CRC checks out
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    }
  });

  it('is done with a chunk when write() resolves, small chunks too: the caller may write into it again', async () => {
    const out = new PassThrough();
    const body = collect(out);
    const zip = new ZipWriter(out, { level: 1 });
    const e = zip.entry('sheet.xml');
    // Utf8Batch in recycle mode (as the xlsx sheet uses it): take() hands out the buffer written
    // again two takes later. Chunks of ~1 KB stay far below the deflater's 16 KiB buffer.
    const batch = new Utf8Batch(true);
    let text = '';
    for (let i = 0; i < 60; i++) {
      for (let r = 0; r < 20; r++) {
        const row = `<row r="${i * 20 + r}">${'数'.repeat((i + r) % 17)}</row>`;
        text += row;
        batch.add(row);
      }
      await e.write(batch.take());
    }
    await e.end();
    await zip.finish();
    const [sheet] = readZip(body());
    expect(sheet.data.toString()).toBe(text);
  });

  it('waits for the reader: a streamed entry takes a chunk only when the output has drained', async () => {
    const out = new PassThrough({ highWaterMark: 16 * 1024 });
    const zip = new ZipWriter(out, { level: 1 });
    const e = zip.entry('big.bin');
    // incompressible data fills the output at once; nobody reads it
    let written = 0;
    const chunks = Array.from({ length: 100 }, () => randomBytes(64 * 1024));
    const writer = (async () => {
      for (const c of chunks) {
        await e.write(c);
        written++;
      }
    })();
    await new Promise((r) => setTimeout(r, 200));
    expect(written).toBeLessThan(5);
    const body = collect(out);
    await writer;
    await e.end();
    await zip.finish();
    expect(readZip(body())[0].data.equals(Buffer.concat(chunks))).toBe(true);
  });

  it('lets go when the output is destroyed mid-entry: pending writes resolve, nothing more is written', async () => {
    const out = new PassThrough({ highWaterMark: 1024 });
    const zip = new ZipWriter(out, { level: 1 });
    const e = zip.entry('big.bin');
    const pending = (async () => {
      for (let i = 0; i < 50 && !out.destroyed; i++) await e.write(Buffer.alloc(256 * 1024, i));
    })();
    await new Promise((r) => setTimeout(r, 50));
    out.destroy();
    await pending; // resolves: the deflater was destroyed with the output
    e.abort();
    await zip.finish(); // writes nothing to a destroyed output, and does not hang
    expect(out.destroyed).toBe(true);
  });

  it('refuses a second entry while one is open, and finish() before it ends', async () => {
    const zip = new ZipWriter(new PassThrough());
    const e = zip.entry('a');
    expect(() => zip.entry('b')).toThrow(/another entry is open/);
    await expect(zip.finish()).rejects.toThrow(/still open/);
    e.abort();
  });
});
