import type { FastifyInstance } from 'fastify';
import { Messages } from '../../../../domain/codes';
import { buildApp } from '../../../../server/app';
import { LOGIN_MAX_FAILURES, LOGIN_WINDOW_MS } from '../../../../server/modules/auth/attempts';
import { build, dbKind, ADMIN_PASSWORD, type TestApp } from '../../helpers';

const TOO_MANY = { code: 429, msg: Messages.tooManyLogins, data: null };
const BAD = { code: 400, msg: Messages.badCredentials, data: null };

describe(`login throttling (${dbKind})`, () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await build();
  });
  afterEach(async () => {
    await t.close();
  });

  /** Logs in through a local proxy that reports `ip` as the client (or directly from `remote`). */
  async function login(
    username: string,
    password: string,
    from: { ip?: string; remote?: string; app?: FastifyInstance } = {},
  ) {
    const res = await (from.app ?? t.app).inject({
      method: 'POST',
      url: '/v1/admin/user/login',
      payload: { username, password },
      remoteAddress: from.remote ?? '127.0.0.1',
      headers: from.ip ? { 'x-forwarded-for': from.ip } : {},
    });
    return res.json();
  }
  const fail = async (n: number, username = 'admin', from: { ip?: string; remote?: string } = {}) => {
    for (let i = 0; i < n; i++) expect(await login(username, 'Wrong1234', from)).toEqual(BAD);
  };

  it(`refuses the ${LOGIN_MAX_FAILURES + 1}th attempt within 15 minutes with 429, even with the right password`, async () => {
    await fail(LOGIN_MAX_FAILURES, 'admin', { ip: '10.0.0.1' });
    expect(await login('admin', 'Wrong1234', { ip: '10.0.0.1' })).toEqual(TOO_MANY);
    expect(await login('admin', ADMIN_PASSWORD, { ip: '10.0.0.1' })).toEqual(TOO_MANY);
  });

  it('limits only that user name from that address', async () => {
    await fail(LOGIN_MAX_FAILURES, 'admin', { ip: '10.0.0.1' });
    expect(await login('admin', ADMIN_PASSWORD, { ip: '10.0.0.2' })).toMatchObject({ code: 200 });
    expect(await login('someone', 'Wrong1234', { ip: '10.0.0.1' })).toEqual(BAD);
  });

  it('answers an unknown user name exactly as a known one', async () => {
    await fail(LOGIN_MAX_FAILURES, 'ghost001', { ip: '10.0.0.1' });
    expect(await login('ghost001', 'Wrong1234', { ip: '10.0.0.1' })).toEqual(TOO_MANY);
  });

  it('lets the user in again once the window has passed, and not a millisecond before', async () => {
    await fail(LOGIN_MAX_FAILURES, 'admin', { ip: '10.0.0.1' });
    t.clock.advance(LOGIN_WINDOW_MS - 1);
    expect(await login('admin', ADMIN_PASSWORD, { ip: '10.0.0.1' })).toEqual(TOO_MANY);
    t.clock.advance(1);
    expect(await login('admin', ADMIN_PASSWORD, { ip: '10.0.0.1' })).toMatchObject({ code: 200 });
  });

  it('starts a fresh window after one has passed: old failures no longer count', async () => {
    await fail(LOGIN_MAX_FAILURES - 1, 'admin', { ip: '10.0.0.1' });
    t.clock.advance(LOGIN_WINDOW_MS);
    await fail(LOGIN_MAX_FAILURES, 'admin', { ip: '10.0.0.1' });
    expect(await login('admin', 'Wrong1234', { ip: '10.0.0.1' })).toEqual(TOO_MANY);
  });

  it('resets the count on a successful login', async () => {
    await fail(LOGIN_MAX_FAILURES - 1, 'admin', { ip: '10.0.0.1' });
    expect(await login('admin', ADMIN_PASSWORD, { ip: '10.0.0.1' })).toMatchObject({ code: 200 });
    await fail(LOGIN_MAX_FAILURES, 'admin', { ip: '10.0.0.1' });
    expect(await login('admin', 'Wrong1234', { ip: '10.0.0.1' })).toEqual(TOO_MANY);
  });

  it('holds against parallel attempts: no more than the limit get their password checked', async () => {
    const answers = await Promise.all(
      Array.from({ length: 12 }, () => login('admin', 'Wrong1234', { ip: '10.0.0.1' })),
    );
    expect(answers.filter((a) => a.code === 400)).toHaveLength(LOGIN_MAX_FAILURES);
    expect(answers.filter((a) => a.code === 429)).toHaveLength(12 - LOGIN_MAX_FAILURES);
  });

  it('ignores X-Forwarded-For from a client that is not a trusted proxy', async () => {
    // A client on the internet cannot dodge the limit by naming a new address each time.
    for (let i = 0; i < LOGIN_MAX_FAILURES; i++) {
      expect(await login('admin', 'Wrong1234', { remote: '203.0.113.9', ip: `10.9.9.${i}` })).toEqual(BAD);
    }
    expect(await login('admin', ADMIN_PASSWORD, { remote: '203.0.113.9', ip: '10.9.9.99' })).toEqual(TOO_MANY);
  });

  it('keeps the counters in the database: another server process on it sees them', async () => {
    const other = await buildApp({
      ctx: { db: t.db.db, kind: t.db.kind, config: t.config, clock: t.clock },
      web: false,
    });
    await other.ready();
    try {
      await fail(LOGIN_MAX_FAILURES, 'admin', { ip: '10.0.0.1' });
      expect(await login('admin', ADMIN_PASSWORD, { ip: '10.0.0.1', app: other })).toEqual(TOO_MANY);
    } finally {
      await other.close();
    }
  });
});
