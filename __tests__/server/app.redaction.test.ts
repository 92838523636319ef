/** Secrets never reach a log: the request log is captured and searched for every secret sent. */
import { sql } from 'kysely';
import { redactUrl } from '../../server/app';
import { build, dbKind, ADMIN_PASSWORD, type TestApp } from './helpers';

describe(`request log redaction (${dbKind})`, () => {
  let t: TestApp;
  let lines: string[];
  const log = () => lines.join('');
  beforeEach(async () => {
    lines = [];
    t = await build({ logStream: { write: (l) => lines.push(l) } });
  });
  afterEach(async () => {
    await t.close();
  });

  it('logs requests, but never a login body or a token', async () => {
    const token = await t.login('admin', ADMIN_PASSWORD);
    expect((await t.call('GET', '/v1/admin/user/menu', { token })).code).toBe(200);
    await t.call('POST', '/v1/admin/user/login', { body: { username: 'admin', password: 'Typo12345x' } });
    expect(log()).toContain('/v1/admin/user/menu');
    expect(log()).toContain('/v1/admin/user/login');
    expect(log()).not.toContain(ADMIN_PASSWORD);
    expect(log()).not.toContain('Typo12345x');
    expect(log()).not.toContain(token);
  });

  it('keeps the password route’s query string out of the log, on success and on refusal', async () => {
    const token = await t.login();
    const wrong = await t.call('GET', '/v1/admin/user/password', {
      token,
      query: { oldPassword: 'NotMine123', newPassword: 'Secret9876Zz' },
    });
    expect(wrong.code).toBe(400);
    const done = await t.call('GET', '/v1/admin/user/password', {
      token,
      query: { oldPassword: ADMIN_PASSWORD, newPassword: 'Fresh4567Qq' },
    });
    expect(done.code).toBe(200);
    expect(log()).toContain('/v1/admin/user/password?[REDACTED]');
    for (const secret of ['NotMine123', 'Secret9876Zz', ADMIN_PASSWORD, 'Fresh4567Qq', 'oldPassword', 'newPassword']) {
      expect(log()).not.toContain(secret);
    }
  });

  it('redacts spellings of the path that miss the route, and secret-named parameters anywhere', async () => {
    const token = await t.login();
    for (const url of [
      '/v1/admin/user/password/?oldPassword=Leak0001a&newPassword=Leak0002b',
      '/V1/admin/user/password?oldPassword=Leak0003c',
      '/v1/admin//user/password?oldPassword=Leak0004d',
      '/v1/admin/user/%70assword?oldPassword=Leak0005e',
      '/v1/admin/user/list?page=1&password=Leak0006f&token=Leak0007g',
      '/v1/admin/nothing?new%50assword=Leak0008h',
    ]) {
      await t.app.inject({ method: 'GET', url, headers: { authorization: token } });
    }
    expect(log()).toContain('/v1/admin/user/list?page=1&password=[REDACTED]&token=[REDACTED]');
    expect(log()).not.toMatch(/Leak000\d/);
  });

  it('redacts a credential sent as a query parameter, whatever its case or encoding', async () => {
    const token = await t.login();
    const urls = [
      `/v1/admin/user/menu?Authorization=Leak0101a`,
      `/v1/admin/user/menu?authorization=Leak0102b&page=1`,
      `/v1/admin/user/menu?AUTHORIZATION=Bearer%20Leak0103c`,
      `/v1/admin/user/menu?TOKEN=Leak0104d`,
      `/v1/admin/user/menu?Token=Leak0105e`,
      `/v1/admin/user/menu?access_token=Leak0106f`,
      `/v1/admin/user/menu?%41uthorization=Leak0107g`,
      `/v1/admin/user/menu?%61%75%74%68orization=Leak0108h`,
      `/v1/admin/user/menu?to%6Ben=Leak0109i`,
      `/v1/admin/user/menu?to%6Ben%ZZ=Leak0110j`,
      `/v1/admin/user/menu?%E4%74oken=Leak0111k`,
      `/v1/admin/user/menu?api_key=Leak0112l&apiKey=Leak0113m`,
      `/v1/admin/user/menu?x=1&Authorization`,
      // A name that is not just a name may carry the secret itself.
      `/v1/admin/user/menu?Authorization%3A%20Bearer%20Leak0114n`,
      `/v1/admin/user/menu?Authorization:Bearer+Leak0115o=1`,
    ];
    for (const url of urls) await t.app.inject({ method: 'GET', url, headers: { authorization: token } });
    expect(log()).not.toMatch(/Leak01\d\d/);
    expect(log()).toContain('/v1/admin/user/menu?Authorization=[REDACTED]');
    expect(log()).toContain('/v1/admin/user/menu?authorization=[REDACTED]&page=1');
    expect(log()).toContain('/v1/admin/user/menu?%41uthorization=[REDACTED]');
    expect(log()).toContain('/v1/admin/user/menu?x=1&Authorization=[REDACTED]');
  });

  it('keeps secrets out of the error log of an unexpected failure', async () => {
    await sql`drop table login_attempt`.execute(t.db.db);
    const r = await t.call('POST', '/v1/admin/user/login', { body: { username: 'admin', password: 'Crash1234x' } });
    expect(r.code).toBe(500);
    expect(log()).toContain('login_attempt');
    expect(log()).not.toContain('Crash1234x');
  });

  it('redactUrl leaves ordinary URLs alone', () => {
    expect(redactUrl('/v1/admin/user/list?page=2&username=alice')).toBe('/v1/admin/user/list?page=2&username=alice');
    expect(redactUrl('/v1/admin/user/password')).toBe('/v1/admin/user/password');
    expect(redactUrl('/v1/admin/user/list?keyword=a%ZZ&page=1')).toBe('/v1/admin/user/list?keyword=a%ZZ&page=1');
    expect(redactUrl('/v1/admin/x?Bearer%20abc')).toBe('/v1/admin/x?[REDACTED]');
  });
});
