/**
 * The per-account login limit, across addresses: an attacker who changes address on every try (a
 * botnet, or a spoofed X-Forwarded-For through a trusted hop) is slowed to one try per growing delay,
 * while the real manager is never locked out for good.
 */
import type { FastifyInstance } from 'fastify';
import { Messages } from '../../../../domain/codes';
import { buildApp } from '../../../../server/app';
import {
  accountDelay,
  ACCOUNT_FIRST_DELAY_MS,
  ACCOUNT_FREE_FAILURES,
  ACCOUNT_MAX_DELAY_MS,
} from '../../../../server/modules/auth/attempts';
import { accountThrottledMessage, THROTTLE_LOG_CODE } from '../../../../server/modules/auth/auth.service';
import { build, dbKind, ADMIN_PASSWORD, type TestApp } from '../../helpers';

const BAD = { code: 400, msg: Messages.badCredentials, data: null };
const throttled = (waitMs: number) => ({ code: 429, msg: accountThrottledMessage(waitMs), data: null });

describe(`login limit per account (${dbKind})`, () => {
  let t: TestApp;
  let nextAddress = 0;
  /** A new address for every try: what a botnet does. */
  const fresh = () => `198.51.${Math.floor(nextAddress / 250)}.${(nextAddress++ % 250) + 1}`;
  beforeEach(async () => {
    t = await build();
    nextAddress = 0;
  });
  afterEach(async () => {
    await t.close();
  });

  async function login(username: string, password: string, ip = fresh(), app: FastifyInstance = t.app) {
    const res = await app.inject({
      method: 'POST',
      url: '/v1/admin/user/login',
      payload: { username, password },
      remoteAddress: '127.0.0.1', // the trusted proxy, which names the client in X-Forwarded-For
      headers: { 'x-forwarded-for': ip },
    });
    return res.json();
  }
  const failFromEverywhere = async (n: number, username = 'admin') => {
    for (let i = 0; i < n; i++) expect(await login(username, 'Wrong12345')).toEqual(BAD);
  };
  const throttleLogs = () =>
    t.db.db.selectFrom('op_log').selectAll().where('permission_code', '=', THROTTLE_LOG_CODE).orderBy('id').execute();

  it('the delay starts after the free tries, doubles, and stops at the cap', () => {
    expect(accountDelay(ACCOUNT_FREE_FAILURES - 1)).toBe(0);
    expect(accountDelay(ACCOUNT_FREE_FAILURES)).toBe(ACCOUNT_FIRST_DELAY_MS);
    expect(accountDelay(ACCOUNT_FREE_FAILURES + 1)).toBe(2 * ACCOUNT_FIRST_DELAY_MS);
    expect(accountDelay(ACCOUNT_FREE_FAILURES + 50)).toBe(ACCOUNT_MAX_DELAY_MS);
    expect(ACCOUNT_MAX_DELAY_MS).toBe(15 * 60_000);
    expect(accountThrottledMessage(30_000)).toBe('该账号登录失败次数过多，请30秒后再试');
    expect(accountThrottledMessage(61_000)).toBe('该账号登录失败次数过多，请2分钟后再试');
    expect(accountThrottledMessage(ACCOUNT_MAX_DELAY_MS)).toBe('该账号登录失败次数过多，请15分钟后再试');
  });

  it(`after ${ACCOUNT_FREE_FAILURES} failures from as many addresses, a new address waits (429, saying how long), even with the right password`, async () => {
    await failFromEverywhere(ACCOUNT_FREE_FAILURES);
    expect(await login('admin', ADMIN_PASSWORD)).toEqual(throttled(ACCOUNT_FIRST_DELAY_MS));
    t.clock.advance(ACCOUNT_FIRST_DELAY_MS - 1000);
    expect(await login('admin', ADMIN_PASSWORD)).toEqual(throttled(1000));
    t.clock.advance(1000);
    expect(await login('admin', ADMIN_PASSWORD)).toMatchObject({ code: 200 });
  });

  it('doubles the wait after each failure in the delay, up to 15 minutes, and a success resets it', async () => {
    await failFromEverywhere(ACCOUNT_FREE_FAILURES);
    let wait = ACCOUNT_FIRST_DELAY_MS;
    for (let i = 0; i < 8; i++) {
      expect(await login('admin', 'Wrong12345')).toEqual(throttled(wait));
      t.clock.advance(wait);
      expect(await login('admin', 'Wrong12345')).toEqual(BAD);
      wait = Math.min(wait * 2, ACCOUNT_MAX_DELAY_MS);
    }
    expect(wait).toBe(ACCOUNT_MAX_DELAY_MS);
    expect(await login('admin', ADMIN_PASSWORD)).toEqual(throttled(ACCOUNT_MAX_DELAY_MS));
    // Never more than the cap: the real manager gets in after it.
    t.clock.advance(ACCOUNT_MAX_DELAY_MS);
    expect(await login('admin', ADMIN_PASSWORD)).toMatchObject({ code: 200 });
    // The success reset the count: the free tries are back.
    await failFromEverywhere(ACCOUNT_FREE_FAILURES);
    expect(await login('admin', 'Wrong12345')).toEqual(throttled(ACCOUNT_FIRST_DELAY_MS));
  });

  it('lets the manager in at once from an address he logged in from before', async () => {
    expect(await login('admin', ADMIN_PASSWORD, '10.1.1.1')).toMatchObject({ code: 200 });
    await failFromEverywhere(ACCOUNT_FREE_FAILURES);
    expect(await login('admin', ADMIN_PASSWORD)).toMatchObject({ code: 429 });
    expect(await login('admin', ADMIN_PASSWORD, '10.1.1.1')).toMatchObject({ code: 200 });
    // ...where the per-address limit still holds.
    for (let i = 0; i < 5; i++) expect(await login('admin', 'Wrong12345', '10.1.1.1')).toEqual(BAD);
    expect(await login('admin', ADMIN_PASSWORD, '10.1.1.1')).toEqual({
      code: 429,
      msg: Messages.tooManyLogins,
      data: null,
    });
  });

  it('keeps the per-address limit as it was', async () => {
    for (let i = 0; i < 5; i++) expect(await login('admin', 'Wrong12345', '10.0.0.7')).toEqual(BAD);
    expect(await login('admin', ADMIN_PASSWORD, '10.0.0.7')).toEqual({
      code: 429,
      msg: Messages.tooManyLogins,
      data: null,
    });
  });

  it('writes the operation log when the limit starts, with the address, and no row per refusal', async () => {
    await failFromEverywhere(ACCOUNT_FREE_FAILURES - 1);
    expect(await throttleLogs()).toHaveLength(0);
    expect(await login('admin', 'Wrong12345', '203.0.113.77')).toEqual(BAD);
    const [row, ...rest] = await throttleLogs();
    expect(rest).toHaveLength(0);
    expect(row).toMatchObject({ username: 'admin', ip: '203.0.113.77', created_at: t.clock.now() });
    expect(row.summary).toContain('203.0.113.77');
    expect(row.summary).toContain(`${ACCOUNT_FREE_FAILURES}次`);
    for (let i = 0; i < 20; i++) expect((await login('admin', 'Wrong12345')).code).toBe(429);
    expect(await throttleLogs()).toHaveLength(1);
    // The next failure in the delay is one more row, from its own address.
    t.clock.advance(ACCOUNT_FIRST_DELAY_MS);
    expect(await login('admin', 'Wrong12345', '203.0.113.78')).toEqual(BAD);
    expect((await throttleLogs()).map((r) => r.ip)).toEqual(['203.0.113.77', '203.0.113.78']);
    // The 操作日志 tab names the event in Chinese, and filters by it.
    t.clock.advance(ACCOUNT_MAX_DELAY_MS);
    const token = await t.login('admin', ADMIN_PASSWORD);
    const logs = await t.call('GET', '/v1/admin/user/opt/list', { token, query: { code: THROTTLE_LOG_CODE } });
    expect(logs.data.list.map((r: { codeTitle: string }) => r.codeTitle)).toEqual(['登录限速', '登录限速']);
  });

  it('answers an unknown user name alike, without an op-log row', async () => {
    await failFromEverywhere(ACCOUNT_FREE_FAILURES, 'ghost001');
    expect(await login('ghost001', 'Wrong12345')).toEqual(throttled(ACCOUNT_FIRST_DELAY_MS));
    expect(await throttleLogs()).toHaveLength(0);
    // Another account is not affected.
    expect(await login('admin', ADMIN_PASSWORD)).toMatchObject({ code: 200 });
  });

  it('checks only one password per slot when attempts arrive in parallel', async () => {
    await failFromEverywhere(ACCOUNT_FREE_FAILURES);
    t.clock.advance(ACCOUNT_FIRST_DELAY_MS);
    const answers = await Promise.all(Array.from({ length: 10 }, () => login('admin', 'Wrong12345')));
    expect(answers.filter((a) => a.code === 400)).toHaveLength(1);
    expect(answers.filter((a) => a.code === 429)).toHaveLength(9);
  });

  it('counts parallel free tries exactly', async () => {
    const answers = await Promise.all(
      Array.from({ length: ACCOUNT_FREE_FAILURES + 6 }, () => login('admin', 'Wrong12345')),
    );
    expect(answers.filter((a) => a.code === 400)).toHaveLength(ACCOUNT_FREE_FAILURES);
    expect(answers.filter((a) => a.code === 429)).toHaveLength(6);
  });

  it('keeps the account state in the database: another server process on it sees it', async () => {
    const other = await buildApp({
      ctx: { db: t.db.db, kind: t.db.kind, config: t.config, clock: t.clock },
      web: false,
    });
    await other.ready();
    try {
      await failFromEverywhere(ACCOUNT_FREE_FAILURES);
      expect(await login('admin', ADMIN_PASSWORD, fresh(), other)).toEqual(throttled(ACCOUNT_FIRST_DELAY_MS));
    } finally {
      await other.close();
    }
  });

  it('forgets old failures after a quiet day', async () => {
    await failFromEverywhere(ACCOUNT_FREE_FAILURES);
    t.clock.advance(24 * 3600_000);
    await failFromEverywhere(ACCOUNT_FREE_FAILURES - 1);
    expect(await login('admin', ADMIN_PASSWORD)).toMatchObject({ code: 200 });
  });
});
