/**
 * Exports made in a worker thread (server/export/send.ts, worker.ts), as the server makes them on a SQLite
 * file or PostgreSQL: the same bytes as in the request's thread for every export and format, compressed
 * by the worker when the client accepts it, a refused input answered as an envelope before any byte, and
 * a worker that stops when its client goes away.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import ExcelJS from 'exceljs';
import { sql } from 'kysely';
import { setExportStallLimit } from '../../../server/export/stall';
import { EXPORT_WORKERS_MAX, exportWorkersRunning, setExportQueueWait } from '../../../server/export/send';
import { requestWithdrawal } from '../../../server/modules/withdrawals/requestWithdrawal.service';
import { build, dbKind, type TestApp } from '../helpers';
import { addMember, credit, trc20Address } from '../modules/deposits/fixtures';
import { WITHDRAW_SETTING } from '../modules/withdrawals/fixtures';

jest.setTimeout(120_000);

const EXPORTS = [
  '/v1/admin/withdraw/export?type=1',
  '/v1/admin/deposit/export',
  '/v1/admin/payment/export',
  '/v1/admin/pledge/export',
  '/v1/admin/order/export',
];

async function sheetValues(body: Buffer): Promise<unknown[][]> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(body as unknown as ArrayBuffer);
  return wb.worksheets[0].getSheetValues().filter(Boolean) as unknown[][];
}

/** Waits (up to 20 s) until no export worker runs; fails if one still does. */
async function allEnded(): Promise<void> {
  const until = Date.now() + 20_000;
  while (exportWorkersRunning() > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
  expect(exportWorkersRunning()).toBe(0);
}

describe(`exports in a worker thread (${dbKind})`, () => {
  let t: TestApp;
  let token: string;
  const get = (url: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url, headers: { authorization: token, ...headers } });
  const inThread = async <T>(f: () => Promise<T>) => {
    t.config.exportWorkers = false;
    try {
      return await f();
    } finally {
      t.config.exportWorkers = true;
    }
  };

  beforeAll(async () => {
    t = await build({ onFile: true, config: { exportWorkers: true } });
    expect(t.app.ctx.dbSource).toBeDefined();
    token = await t.login();
    const r = await t.call('POST', '/v1/admin/withdraw/setting', { token, body: { type: 1, ...WITHDRAW_SETTING } });
    expect(r.code).toBe(200);
    for (let i = 0; i < 3; i++) {
      const memberId = await addMember(t);
      await credit(t, memberId, 'USDT', '10000');
      for (const amount of ['150', '200.5', '987.654321']) {
        await requestWithdrawal(t.app.ctx, { memberId, type: 1, amount, chain: 'TRC20', address: trc20Address() });
      }
    }
  });
  afterAll(() => t.close());

  it('makes the same file as the request thread does, for every export and format', async () => {
    for (const url of EXPORTS) {
      for (const format of ['csv', 'xlsx']) {
        const u = `${url}${url.includes('?') ? '&' : '?'}format=${format}`;
        const worker = await get(u);
        const here = await inThread(() => get(u));
        expect([u, worker.statusCode]).toEqual([u, 200]);
        expect(worker.headers['content-disposition']).toBe(here.headers['content-disposition']);
        expect(worker.headers['content-type']).toBe(here.headers['content-type']);
        if (format === 'csv') expect(worker.rawPayload.equals(here.rawPayload)).toBe(true);
        else expect(await sheetValues(worker.rawPayload)).toEqual(await sheetValues(here.rawPayload));
      }
    }
    const csv = await get('/v1/admin/withdraw/export?type=1&format=csv');
    expect(csv.rawPayload.toString('utf8').trimEnd().split('\r\n')).toHaveLength(10);
  });

  it('compresses a CSV in the worker when the client accepts it, as the route would', async () => {
    const plain = await get('/v1/admin/withdraw/export?type=1&format=csv');
    expect(plain.headers['content-encoding']).toBeUndefined();
    const br = await get('/v1/admin/withdraw/export?type=1&format=csv', { 'accept-encoding': 'br, gzip' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(zlib.brotliDecompressSync(br.rawPayload).equals(plain.rawPayload)).toBe(true);
    const gz = await get('/v1/admin/withdraw/export?type=1&format=csv', { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gz.rawPayload).equals(plain.rawPayload)).toBe(true);
    const xlsx = await get('/v1/admin/withdraw/export?type=1', { 'accept-encoding': 'br' });
    expect(xlsx.headers['content-encoding']).toBeUndefined(); // its parts are deflated already
  });

  it(`runs at most ${EXPORT_WORKERS_MAX} workers at once; the exports past it wait their turn`, async () => {
    let most = 0;
    const watch = setInterval(() => (most = Math.max(most, exportWorkersRunning())), 2);
    try {
      const all = await Promise.all(
        Array.from({ length: EXPORT_WORKERS_MAX + 2 }, () => get('/v1/admin/withdraw/export?type=1&format=csv')),
      );
      const first = all[0].rawPayload;
      expect(all.every((r) => r.statusCode === 200 && r.rawPayload.equals(first))).toBe(true);
    } finally {
      clearInterval(watch);
    }
    expect(most).toBe(EXPORT_WORKERS_MAX);
    await allEnded(); // the last one ends just after its last byte: it closes its connection first
  });

  it('refuses an export that waits for a worker past the limit (429), and runs the rest', async () => {
    setExportQueueWait(1);
    try {
      const all = await Promise.all(
        Array.from({ length: EXPORT_WORKERS_MAX + 1 }, () => get('/v1/admin/withdraw/export?type=1&format=csv')),
      );
      const busy = all.filter((r) => r.headers['content-disposition'] === undefined);
      expect(busy.map((r) => r.json())).toEqual([{ code: 429, msg: '导出任务较多，请稍后再试', data: null }]);
      expect(all.filter((r) => r.headers['content-disposition'] !== undefined)).toHaveLength(EXPORT_WORKERS_MAX);
    } finally {
      setExportQueueWait(30_000);
    }
    await allEnded();
  });

  it('answers a failure before the first byte as an envelope, not as a compressed attachment', async () => {
    const source = t.app.ctx.dbSource;
    t.app.ctx.dbSource = { url: 'sqlite:/nonexistent/lz-console.db' }; // the worker cannot open it
    try {
      const res = await get('/v1/admin/withdraw/export?type=1&format=csv', { 'accept-encoding': 'br' });
      expect(res.json()).toMatchObject({ code: 500 });
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(res.headers['content-disposition']).toBeUndefined();
    } finally {
      t.app.ctx.dbSource = source;
    }
    await allEnded();
  });

  it('answers a refused input with its envelope before any byte, as in the request thread', async () => {
    const bad = await get('/v1/admin/order/export?start=2026-11-02&end=2026-11-01');
    expect(bad.statusCode).toBe(200);
    expect(bad.json()).toEqual({ code: 400, msg: '开始时间不能晚于结束时间', data: null });
    expect(bad.headers['content-disposition']).toBeUndefined();
  });

  it('stops its worker when the client goes away mid-download', async () => {
    // Enough rows that the file is still being made when the client leaves.
    const memberId = await addMember(t);
    await credit(t, memberId, 'USDT', '100000000');
    const address = trc20Address();
    for (let i = 0; i < 3000; i++)
      await requestWithdrawal(t.app.ctx, { memberId, type: 1, amount: '100', chain: 'TRC20', address });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    const got = await new Promise<number>((resolve, reject) => {
      const req = http.get(
        {
          port,
          host: '127.0.0.1',
          path: '/v1/admin/withdraw/export?type=1&format=csv',
          headers: { authorization: token },
        },
        (res) => {
          res.once('data', (chunk: Buffer) => {
            req.destroy();
            resolve(chunk.length);
          });
        },
      );
      req.on('error', (err) => (req.destroyed ? undefined : reject(err)));
    });
    expect(got).toBeGreaterThan(0);
    await allEnded();
  });
  it('cuts a download whose client stops reading, and stops its worker', async () => {
    // A file larger than the sockets' buffers: the test above's 3,000 withdrawals copied into 48,000
    // rows (straight into the table: only the export reads them, and this is the file's last test).
    for (let i = 0; i < 4; i++)
      await sql`insert into withdrawal (member_id, type, asset, amount, fee, actual, chain, address, status,
          remark, created_at)
        select member_id, type, asset, amount, fee, actual, chain, address, status, remark, created_at
        from withdrawal`.execute(t.app.ctx.db);
    setExportStallLimit(300);
    try {
      const { port } = t.app.server.address() as AddressInfo;
      const res = await new Promise<http.IncomingMessage>((resolve, reject) => {
        const req = http.get(
          {
            port,
            host: '127.0.0.1',
            path: '/v1/admin/withdraw/export?type=1&format=csv',
            headers: { authorization: token },
          },
          resolve,
        );
        req.on('error', reject);
      });
      expect(res.statusCode).toBe(200);
      res.pause(); // the client reads nothing more, its connection open
      // Without the cut the worker would wait for the client for as long as the connection lives.
      await allEnded();
      // What the client then reads is a cut file: the connection closes before the last chunk.
      res.on('error', () => undefined);
      const complete = await new Promise<boolean>((resolve) => {
        res.on('close', () => resolve(res.complete));
        res.resume();
      });
      expect(complete).toBe(false);
    } finally {
      setExportStallLimit(120_000);
    }
  });
});
