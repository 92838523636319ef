import zlib from 'node:zlib';
import { addPaymentMethod } from '../../../server/modules/payments/payments.service';
import { build, dbKind, type TestApp } from '../helpers';
import { addMember } from '../modules/deposits/fixtures';

jest.setTimeout(60_000);

/** The compression decision of an export route (ExportCompression): CSV cheaply, xlsx never. */
describe(`export compression (${dbKind})`, () => {
  let t: TestApp;
  let token: string;

  beforeAll(async () => {
    t = await build();
    token = await t.login();
    const memberId = await addMember(t);
    for (let i = 0; i < 40; i += 1)
      await addPaymentMethod(t.app.ctx, {
        memberId,
        type: 1,
        holder: `持卡人${i}`,
        account: `62220212345678${String(i).padStart(2, '0')}`,
        bank: '工商银行',
        branch: '北京分行',
      });
  });
  afterAll(() => t.close());

  const get = (format: string, acceptEncoding?: string) =>
    t.app.inject({
      method: 'GET',
      url: '/v1/admin/payment/export',
      query: { format },
      headers: { authorization: token, ...(acceptEncoding ? { 'accept-encoding': acceptEncoding } : {}) },
    });

  it('compresses CSV with Brotli or gzip as the client accepts, the same bytes inside', async () => {
    const plain = await get('csv');
    expect(plain.headers['content-encoding']).toBeUndefined();
    const text = plain.rawPayload.toString('utf8');
    expect(text.trimEnd().split('\r\n')).toHaveLength(41);

    const br = await get('csv', 'gzip, deflate, br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(zlib.brotliDecompressSync(br.rawPayload).toString('utf8')).toBe(text);

    const gz = await get('csv', 'gzip, deflate');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gz.rawPayload).toString('utf8')).toBe(text);
  });

  it('never compresses xlsx (its parts are DEFLATE already)', async () => {
    const res = await get('xlsx', 'gzip, deflate, br');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.rawPayload.subarray(0, 4)).toEqual(Buffer.from([0x50, 0x4b, 0x03, 0x04])); // a ZIP local header
  });
});
