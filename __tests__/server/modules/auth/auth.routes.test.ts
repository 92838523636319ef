import { sql } from 'kysely';
import { Messages } from '../../../../domain/codes';
import { ADMIN_PASSWORD, build, dbKind, type TestApp } from '../../helpers';

describe(`auth routes (${dbKind})`, () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await build();
  });
  afterEach(async () => {
    await t.close();
  });

  it('logs in with the right password and returns a token and the user name', async () => {
    const r = await t.call('POST', '/v1/admin/user/login', { body: { username: 'admin', password: ADMIN_PASSWORD } });
    expect(r.code).toBe(200);
    expect(r.data.username).toBe('admin');
    expect(r.data.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('refuses a wrong password and an unknown user with the same 400', async () => {
    const a = await t.call('POST', '/v1/admin/user/login', { body: { username: 'admin', password: 'nope1234' } });
    const b = await t.call('POST', '/v1/admin/user/login', { body: { username: 'ghost', password: 'nope1234' } });
    expect(a).toEqual({ code: 400, msg: Messages.badCredentials, data: null });
    expect(b).toEqual(a);
  });

  it('names the missing field in Chinese', async () => {
    const r = await t.call('POST', '/v1/admin/user/login', { body: { username: 'admin' } });
    expect(r).toEqual({ code: 400, msg: '密码不能为空', data: null });
    const r2 = await t.call('POST', '/v1/admin/user/login', { body: { username: 'admin', password: 12 } });
    expect(r2.code).toBe(400);
  });

  it('answers 301 without a token, with an unknown token, and after logout', async () => {
    expect((await t.call('GET', '/v1/admin/user/menu')).code).toBe(301);
    expect((await t.call('GET', '/v1/admin/user/menu', { token: 'bogus' })).code).toBe(301);
    const token = await t.login();
    expect((await t.call('GET', '/v1/admin/user/menu', { token })).code).toBe(200);
    expect((await t.call('POST', '/v1/admin/user/logout', { token })).code).toBe(200);
    expect((await t.call('GET', '/v1/admin/user/menu', { token })).code).toBe(301);
  });

  it('expires a token after the idle time, and keeps it alive while used', async () => {
    const token = await t.login();
    const idle = t.config.tokenIdleHours * 3600_000;
    t.clock.advance(idle - 1000);
    expect((await t.call('GET', '/v1/admin/user/menu', { token })).code).toBe(200);
    t.clock.advance(idle - 1000);
    expect((await t.call('GET', '/v1/admin/user/menu', { token })).code).toBe(200);
    t.clock.advance(idle + 1);
    expect(await t.call('GET', '/v1/admin/user/menu', { token })).toMatchObject({
      code: 301,
      msg: Messages.sessionExpired,
    });
  });

  it('answers 302 for a session ended by logging in past the session limit', async () => {
    const first = await t.login();
    for (let i = 0; i < t.config.maxSessions; i++) await t.login();
    expect(await t.call('GET', '/v1/admin/user/menu', { token: first })).toMatchObject({
      code: 302,
      msg: Messages.sessionEnded,
    });
  });

  it('gives the super manager the whole menu tree with icon keys and layouts', async () => {
    const token = await t.login();
    const r = await t.call('GET', '/v1/admin/user/menu', { token });
    expect(r.code).toBe(200);
    const system = r.data.find((m: any) => m.name === 'systemLayout');
    expect(system).toMatchObject({ title: '系统管理', layout: '/layout/systemLayout' });
    expect(system.sub.map((s: any) => s.layout)).toEqual([
      '/layout/systemLayout/managerLayout',
      '/layout/systemLayout/roleLayout',
      '/layout/systemLayout/passwordLayout',
    ]);
  });

  it('wraps an unexpected error as 500 without the detail, which goes to the log', async () => {
    await t.close();
    const lines: string[] = [];
    t = await build({ logStream: { write: (l) => lines.push(l) } });
    await sql`drop table login_attempt`.execute(t.db.db);
    const r = await t.call('POST', '/v1/admin/user/login', { body: { username: 'admin', password: ADMIN_PASSWORD } });
    expect(r).toEqual({ code: 500, msg: Messages.busy, data: null });
    expect(lines.join('')).toContain('login_attempt');
  });

  it('answers an unknown API path with code 404', async () => {
    expect(await t.call('GET', '/v1/admin/nothing')).toEqual({ code: 404, msg: Messages.apiNotFound, data: null });
  });
});
