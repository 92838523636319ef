import { randomBytes } from 'node:crypto';
import zlib from 'node:zlib';
import { GzipBody } from '../../../server/export/gzipBody';

describe('GzipBody', () => {
  it.each([1, 3, 7, 8, 9, 64, 100_000])(
    'takes the DEFLATE body and the CRC-32 out of gzip output handed over %i bytes at a time',
    (step) => {
      const data = Buffer.concat([Buffer.from('中文，'.repeat(500)), randomBytes(5000)]);
      const gz = zlib.gzipSync(data, { level: 1 });
      const body = new GzipBody();
      const parts: Buffer[] = [];
      for (let i = 0; i < gz.length; i += step) parts.push(...body.take(gz.subarray(i, i + step)));
      const deflate = Buffer.concat(parts);
      expect(deflate.equals(gz.subarray(10, gz.length - 8))).toBe(true);
      expect(zlib.inflateRawSync(deflate).equals(data)).toBe(true);
      expect(body.crcOf(data.length)).toBe(zlib.crc32(data));
      expect(() => body.crcOf(data.length + 1)).toThrow(/trailer does not match/);
    },
  );
});
