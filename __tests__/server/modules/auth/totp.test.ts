/**
 * The second factor (issue 15): binding, the login's code step, replay, throttle, step-up and its
 * expiry, recovery codes, unbinding, the super manager's reset, the role requirement and the walk over
 * every route that moves money.
 */
import { randomBytes } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { STEP_UP_CODES, TotpLogCodes } from '../../../../domain/totp';
import { requestWithdrawal } from '../../../../server/modules/withdrawals/requestWithdrawal.service';
import { decryptSecret } from '../../../../server/modules/auth/totp.codes';
import { build, dbKind, type TestApp } from '../../helpers';
import { addMember, credit, trc20Address } from '../deposits/fixtures';
import { actingAs, addManager, addRole, opLogs, PASSWORD } from '../system/fixtures';
import { WITHDRAW_SETTING } from '../withdrawals/fixtures';

const KEY = randomBytes(32);
const STEP = 30_000;

/** What an authenticator app shows for `secret` at time `at`. */
const codeAt = (secret: string, at: number) =>
  new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate({ timestamp: at });

describe(`authenticator codes (${dbKind})`, () => {
  let t: TestApp;
  let admin: string;
  const call = (url: string, token: string, body?: unknown) => t.call('POST', url, { token, body });

  /** Binds an authenticator for the session `token`; returns the secret and the recovery codes. */
  async function bind(token: string) {
    const setup = await call('/v1/admin/user/totp/setup', token);
    expect(setup.code).toBe(200);
    const { secret } = setup.data;
    const enable = await call('/v1/admin/user/totp/enable', token, { code: codeAt(secret, t.clock.now()) });
    expect(enable).toMatchObject({ code: 200 });
    return { secret: secret as string, recoveryCodes: enable.data.recoveryCodes as string[] };
  }
  /** Moves to the next 30 s step (a code may be taken once). */
  const nextStep = () => t.clock.advance(STEP);

  async function passwordStep(username: string, password = PASSWORD) {
    return t.call('POST', '/v1/admin/user/login', { body: { username, password } });
  }

  beforeEach(async () => {
    t = await build({ config: { totpKey: KEY, stepUpSeconds: 300 } });
    admin = await t.login();
  });
  afterEach(() => t.close());

  it('without TOTP_KEY nobody can bind, and says why', async () => {
    const plain = await build();
    try {
      const token = await plain.login();
      expect(await plain.call('GET', '/v1/admin/user/totp', { token })).toMatchObject({
        code: 200,
        data: { available: false, bound: false },
      });
      expect(await plain.call('POST', '/v1/admin/user/totp/setup', { token })).toMatchObject({
        code: 409,
        msg: '服务器未配置 TOTP_KEY，暂不能绑定身份验证器，请联系系统管理员',
      });
      expect(await plain.db.db.selectFrom('manager_totp').selectAll().execute()).toEqual([]);
    } finally {
      await plain.close();
    }
  });

  it('binds with a QR code and a first code; the secret is stored encrypted; ten recovery codes shown once', async () => {
    const setup = await call('/v1/admin/user/totp/setup', admin);
    expect(setup.data.uri).toMatch(/^otpauth:\/\/totp\/.*admin\?.*secret=[A-Z2-7]+/);
    expect(decodeURIComponent(setup.data.uri)).toContain('issuer=后台管理控制台');
    expect(setup.data.qr).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(Buffer.from(setup.data.qr.split(',')[1], 'base64').toString()).toContain('<svg');
    const row = await t.db.db.selectFrom('manager_totp').selectAll().executeTakeFirstOrThrow();
    expect(row.secret_enc).not.toContain(setup.data.secret);
    expect(decryptSecret(KEY, Number(row.manager_id), row.secret_enc)).toBe(setup.data.secret);
    // Another manager's id does not open it (the id is bound into the ciphertext).
    expect(() => decryptSecret(KEY, Number(row.manager_id) + 1, row.secret_enc)).toThrow();
    expect(row.confirmed_at).toBeNull();

    expect(await call('/v1/admin/user/totp/enable', admin, { code: '000000' })).toMatchObject({
      code: 400,
      msg: '验证码错误，请输入身份验证器中当前的6位验证码',
    });
    const ok = await call('/v1/admin/user/totp/enable', admin, { code: codeAt(setup.data.secret, t.clock.now()) });
    expect(ok.code).toBe(200);
    expect(ok.data.recoveryCodes).toHaveLength(10);
    expect(new Set(ok.data.recoveryCodes).size).toBe(10);
    for (const c of ok.data.recoveryCodes) expect(c).toMatch(/^[0-9A-HJKMNP-TV-Z]{5}-[0-9A-HJKMNP-TV-Z]{5}$/);
    const hashes = await t.db.db.selectFrom('totp_recovery').select('code_hash').execute();
    expect(hashes).toHaveLength(10);
    for (const h of hashes) expect(ok.data.recoveryCodes.join()).not.toContain(h.code_hash);
    expect(await t.call('GET', '/v1/admin/user/totp', { token: admin })).toMatchObject({
      data: { available: true, bound: true, recoveryLeft: 10, boundAt: t.clock.now() },
    });
    expect(await call('/v1/admin/user/totp/setup', admin)).toMatchObject({
      code: 409,
      msg: '已绑定身份验证器，如需更换请先解绑',
    });
    expect((await opLogs(t)).map((l) => l.permission_code)).toContain(TotpLogCodes.bind);
  });

  it('login asks for a code after the password; the challenge is good once; a code is taken once', async () => {
    const { secret } = await bind(admin);
    nextStep();
    const first = await t.call('POST', '/v1/admin/user/login', {
      body: { username: 'admin', password: 'Lz-console 2026' },
    });
    expect(first).toMatchObject({ code: 200, data: { username: 'admin' } });
    expect(first.data.token).toBeUndefined();
    const { challenge } = first.data;
    expect(challenge).toEqual(expect.any(String));
    // The challenge is not a session.
    expect(await t.call('GET', '/v1/admin/user/menu', { token: challenge })).toMatchObject({ code: 301 });

    const code = codeAt(secret, t.clock.now());
    const done = await t.call('POST', '/v1/admin/user/login/totp', { body: { challenge, code } });
    expect(done).toMatchObject({ code: 200, data: { username: 'admin', token: expect.any(String) } });
    expect(await t.call('GET', '/v1/admin/user/menu', { token: done.data.token })).toMatchObject({ code: 200 });
    // The same challenge again: spent.
    expect(await t.call('POST', '/v1/admin/user/login/totp', { body: { challenge, code } })).toMatchObject({
      code: 400,
      msg: '登录已超时，请重新输入用户名和密码',
    });
    // The same code on a new challenge: replayed.
    const again = await t.call('POST', '/v1/admin/user/login', {
      body: { username: 'admin', password: 'Lz-console 2026' },
    });
    expect(
      await t.call('POST', '/v1/admin/user/login/totp', { body: { challenge: again.data.challenge, code } }),
    ).toMatchObject({ code: 400, msg: '该验证码已使用过，请等待身份验证器显示下一个验证码' });
    // The next step's code works (and one step ahead is accepted for a clock a little fast).
    expect(
      await t.call('POST', '/v1/admin/user/login/totp', {
        body: { challenge: again.data.challenge, code: codeAt(secret, t.clock.now() + STEP) },
      }),
    ).toMatchObject({ code: 200 });
  });

  it('a challenge expires after five minutes and dies after five wrong codes', async () => {
    const { secret } = await bind(admin);
    nextStep();
    const pw = () =>
      t.call('POST', '/v1/admin/user/login', { body: { username: 'admin', password: 'Lz-console 2026' } });
    const late = (await pw()).data.challenge;
    t.clock.advance(5 * 60_000 + 1);
    expect(
      await t.call('POST', '/v1/admin/user/login/totp', {
        body: { challenge: late, code: codeAt(secret, t.clock.now()) },
      }),
    ).toMatchObject({ code: 400, msg: '登录已超时，请重新输入用户名和密码' });
    const c = (await pw()).data.challenge;
    for (let i = 0; i < 5; i++) {
      expect(
        await t.call('POST', '/v1/admin/user/login/totp', { body: { challenge: c, code: '123456' } }),
      ).toMatchObject({
        code: 400,
      });
    }
    expect(
      await t.call('POST', '/v1/admin/user/login/totp', {
        body: { challenge: c, code: codeAt(secret, t.clock.now()) },
      }),
    ).toMatchObject({ code: 400, msg: '登录已超时，请重新输入用户名和密码' });
  });

  it('wrong codes are throttled per manager across challenges; each is logged; a right one clears the count', async () => {
    const { secret } = await bind(admin);
    nextStep();
    const pw = async () =>
      (await t.call('POST', '/v1/admin/user/login', { body: { username: 'admin', password: 'Lz-console 2026' } })).data
        .challenge;
    let c = await pw();
    for (let i = 0; i < 5; i++) {
      if (i === 3) c = await pw(); // a new challenge does not reset the manager's count
      const r = await t.call('POST', '/v1/admin/user/login/totp', { body: { challenge: c, code: '111111' } });
      expect(r.code).toBe(400);
    }
    c = await pw();
    const refused = await t.call('POST', '/v1/admin/user/login/totp', {
      body: { challenge: c, code: codeAt(secret, t.clock.now()) },
    });
    expect(refused).toMatchObject({ code: 429, msg: '验证码错误次数过多，请1分钟后再试' });
    expect((await opLogs(t)).map((l) => l.permission_code)).toContain(TotpLogCodes.throttle);
    t.clock.advance(60_000);
    c = await pw();
    expect(
      await t.call('POST', '/v1/admin/user/login/totp', {
        body: { challenge: c, code: codeAt(secret, t.clock.now()) },
      }),
    ).toMatchObject({ code: 200 });
    expect(await t.db.db.selectFrom('totp_attempt').selectAll().execute()).toEqual([]);
    // Each wrong code is in the op log, from where it came.
    const failed = (await opLogs(t)).filter((l) => l.permission_code === TotpLogCodes.codeFailed);
    expect(failed).toHaveLength(5);
    expect(failed[0].summary).toMatch(/^登录验证失败（来自 .+）：验证码错误/);
  });

  it('recovery codes log in once each, in any case and with or without the dash', async () => {
    const { recoveryCodes } = await bind(admin);
    const pw = async () =>
      (await t.call('POST', '/v1/admin/user/login', { body: { username: 'admin', password: 'Lz-console 2026' } })).data
        .challenge;
    const typed = recoveryCodes[0].replace('-', '').toLowerCase();
    expect(
      await t.call('POST', '/v1/admin/user/login/totp', { body: { challenge: await pw(), recoveryCode: typed } }),
    ).toMatchObject({ code: 200 });
    expect(
      await t.call('POST', '/v1/admin/user/login/totp', {
        body: { challenge: await pw(), recoveryCode: recoveryCodes[0] },
      }),
    ).toMatchObject({ code: 400, msg: '恢复码错误或已使用' });
    expect(await t.call('GET', '/v1/admin/user/totp', { token: admin })).toMatchObject({ data: { recoveryLeft: 9 } });
    expect(await t.call('POST', '/v1/admin/user/login/totp', { body: { challenge: await pw() } })).toMatchObject({
      code: 400,
      msg: '请输入验证码或恢复码',
    });
  });

  describe('step-up before money moves', () => {
    let memberId: number;
    beforeEach(async () => {
      memberId = await addMember(t);
      await credit(t, memberId, 'USDT', '10000');
      await t.call('POST', '/v1/admin/withdraw/setting', { token: admin, body: { type: 1, ...WITHDRAW_SETTING } });
    });
    const ask = async () =>
      (
        await requestWithdrawal(t.app.ctx, {
          memberId,
          type: 1,
          amount: '100',
          chain: 'TRC20',
          address: trc20Address(),
        })
      ).id;

    it('a manager without an authenticator is not asked', async () => {
      const id = await ask();
      expect(await call('/v1/admin/withdraw/opt', admin, { id, action: 'approve' })).toMatchObject({ code: 200 });
    });

    it('asks again once the last code is older than STEP_UP_SECONDS; a wrong step-up is in the op log', async () => {
      const { secret } = await bind(admin); // binding counts as a fresh code for this session
      const a = await ask();
      expect(await call('/v1/admin/withdraw/opt', admin, { id: a, action: 'approve' })).toMatchObject({ code: 200 });
      t.clock.advance(300_001);
      const b = await ask();
      expect(await call('/v1/admin/withdraw/opt', admin, { id: b, action: 'approve' })).toMatchObject({
        code: 428,
        msg: '该操作需要验证身份，请输入身份验证器中的6位验证码',
      });
      expect(
        (await t.db.db.selectFrom('withdrawal').select('status').where('id', '=', b).executeTakeFirstOrThrow()).status,
      ).toBe(0);
      // Reading is never asked.
      expect(await t.call('GET', '/v1/admin/withdraw/list', { token: admin, query: { type: 1 } })).toMatchObject({
        code: 200,
      });
      expect(await call('/v1/admin/user/totp/verify', admin, { code: '000000' })).toMatchObject({ code: 400 });
      const failed = (await opLogs(t)).filter((l) => l.permission_code === TotpLogCodes.stepUpFailed);
      expect(failed).toHaveLength(1);
      expect(failed[0].summary).toContain('验证码错误');
      expect(await call('/v1/admin/user/totp/verify', admin, { code: codeAt(secret, t.clock.now()) })).toMatchObject({
        code: 200,
      });
      expect(await call('/v1/admin/withdraw/opt', admin, { id: b, action: 'approve' })).toMatchObject({ code: 200 });
      // The step-up belongs to the session: another session of the same manager is still asked.
      nextStep();
      const pw = await t.call('POST', '/v1/admin/user/login', {
        body: { username: 'admin', password: 'Lz-console 2026' },
      });
      const other = (
        await t.call('POST', '/v1/admin/user/login/totp', {
          body: { challenge: pw.data.challenge, code: codeAt(secret, t.clock.now()) },
        })
      ).data.token;
      t.clock.advance(300_001);
      const c = await ask();
      expect(await call('/v1/admin/withdraw/opt', other, { id: c, action: 'approve' })).toMatchObject({ code: 428 });
    });

    it('two step-ups racing with the same code: exactly one is accepted', async () => {
      const { secret } = await bind(admin);
      nextStep();
      const code = codeAt(secret, t.clock.now());
      const results = await Promise.all([
        call('/v1/admin/user/totp/verify', admin, { code }),
        call('/v1/admin/user/totp/verify', admin, { code }),
      ]);
      expect(results.map((r) => r.code).sort()).toEqual([200, 400]);
    });
  });

  it('unbinds with a code or a recovery code, and logs it; the password alone logs in again', async () => {
    const { secret, recoveryCodes } = await bind(admin);
    nextStep();
    expect(await call('/v1/admin/user/totp/disable', admin, { code: '000000' })).toMatchObject({ code: 400 });
    expect(await call('/v1/admin/user/totp/disable', admin, { code: codeAt(secret, t.clock.now()) })).toMatchObject({
      code: 200,
    });
    expect(await t.db.db.selectFrom('totp_recovery').selectAll().execute()).toEqual([]);
    expect((await passwordStep('admin', 'Lz-console 2026')).data.token).toEqual(expect.any(String));
    const again = await bind(admin);
    expect(again.recoveryCodes).not.toContain(recoveryCodes[0]);
    expect(await call('/v1/admin/user/totp/disable', admin, { recoveryCode: again.recoveryCodes[3] })).toMatchObject({
      code: 200,
    });
    const codes = (await opLogs(t)).map((l) => l.permission_code);
    expect(codes.filter((c) => c === TotpLogCodes.unbind)).toHaveLength(2);
  });

  it('the super manager resets a manager’s authenticator (with a step-up); nobody else may', async () => {
    const roleId = await addRole(t, '财务', ['manager:view', 'manager:create']);
    const aliceId = await addManager(t, 'alice', roleId);
    const alice = (await passwordStep('alice')).data.token;
    await bind(alice);
    const bob = await actingAs(t, 'bob', ['manager:view', 'manager:create']);
    expect(await call('/v1/admin/user/totp/reset', bob.token, { id: aliceId })).toMatchObject({
      code: 403,
      msg: '只有超级管理员可以重置身份验证器',
    });
    const list = await t.call('GET', '/v1/admin/user/list', { token: admin, query: { username: 'alice' } });
    expect(list.data.list[0]).toMatchObject({ username: 'alice', totpOn: true });
    // The reset is a step-up action: the super manager with an authenticator gives a fresh code.
    const { secret } = await bind(admin);
    t.clock.advance(300_001);
    expect(await call('/v1/admin/user/totp/reset', admin, { id: aliceId })).toMatchObject({ code: 428 });
    expect(await call('/v1/admin/user/totp/verify', admin, { code: codeAt(secret, t.clock.now()) })).toMatchObject({
      code: 200,
    });
    expect(await call('/v1/admin/user/totp/reset', admin, { id: aliceId })).toMatchObject({ code: 200 });
    // Her sessions end; the password alone logs her in again.
    expect(await t.call('GET', '/v1/admin/user/menu', { token: alice })).toMatchObject({ code: 302 });
    expect((await passwordStep('alice')).data.token).toEqual(expect.any(String));
    expect(await call('/v1/admin/user/totp/reset', admin, { id: aliceId })).toMatchObject({
      code: 409,
      msg: '管理员 alice 未绑定身份验证器',
    });
    expect((await opLogs(t)).find((l) => l.permission_code === TotpLogCodes.reset)).toMatchObject({
      username: 'admin',
      summary: '重置 alice 的身份验证器',
    });
  });

  it('a role that requires an authenticator: its managers may only bind (and log out) until they have one', async () => {
    const saved = await call('/v1/admin/role/create', admin, { name: '出纳', requireTotp: true });
    expect(saved.code).toBe(200);
    const roleId = saved.data.id;
    await t.call('POST', '/v1/admin/role/bind', {
      token: admin,
      body: { roleId, permissionIds: [] },
    });
    const roles = await t.call('GET', '/v1/admin/role/list', { token: admin, query: { name: '出纳' } });
    expect(roles.data.list[0]).toMatchObject({ name: '出纳', requireTotp: true });
    await addManager(t, 'carol', roleId);
    const carol = (await passwordStep('carol')).data.token;
    expect(await t.call('GET', '/v1/admin/welcome', { token: carol })).toMatchObject({
      code: 426,
      msg: '所属角色要求绑定身份验证器，请先完成绑定',
    });
    expect(await t.call('GET', '/v1/admin/user/menu', { token: carol })).toMatchObject({ code: 200 });
    expect(await t.call('GET', '/v1/admin/user/totp', { token: carol })).toMatchObject({
      data: { required: true, bound: false },
    });
    await bind(carol);
    expect(await t.call('GET', '/v1/admin/welcome', { token: carol })).toMatchObject({ code: 200 });
    // An edit that leaves requireTotp out keeps it.
    await call('/v1/admin/role/create', admin, { id: roleId, name: '出纳二' });
    const after = await t.db.db
      .selectFrom('role')
      .select('require_totp')
      .where('id', '=', roleId)
      .executeTakeFirstOrThrow();
    expect(after.require_totp).toBe(1);
  });

  it('the password login cannot touch the code counts: failures for a user name like the key change nothing', async () => {
    const { secret } = await bind(admin);
    nextStep();
    const adminRow = await t.db.db
      .selectFrom('manager')
      .select('id')
      .where('username', '=', 'admin')
      .executeTakeFirstOrThrow();
    for (const name of [`manager#${adminRow.id}`, `totp#${adminRow.id}`]) {
      for (let i = 0; i < 12; i++) await passwordStep(name, 'wrong password');
    }
    const pw = await passwordStep('admin', 'Lz-console 2026');
    expect(
      await t.call('POST', '/v1/admin/user/login/totp', {
        body: { challenge: pw.data.challenge, code: codeAt(secret, t.clock.now()) },
      }),
    ).toMatchObject({ code: 200 });
  });

  it('a challenge is taken while its proof is checked: a code and a recovery code at once give one session', async () => {
    const { secret, recoveryCodes } = await bind(admin);
    nextStep();
    const pw = await passwordStep('admin', 'Lz-console 2026');
    const results = await Promise.all([
      t.call('POST', '/v1/admin/user/login/totp', {
        body: { challenge: pw.data.challenge, code: codeAt(secret, t.clock.now()) },
      }),
      t.call('POST', '/v1/admin/user/login/totp', {
        body: { challenge: pw.data.challenge, recoveryCode: recoveryCodes[0] },
      }),
    ]);
    expect(results.map((r) => r.code).sort()).toEqual([200, 400]);
    const left = await t.call('GET', '/v1/admin/user/totp', { token: admin });
    // Whichever won, at most one proof was spent.
    expect(left.data.recoveryLeft).toBeGreaterThanOrEqual(9);
  });

  it('binding ends the manager’s other sessions (they were opened with the password alone)', async () => {
    const other = await t.login();
    await bind(admin);
    expect(await t.call('GET', '/v1/admin/user/menu', { token: other })).toMatchObject({ code: 302 });
    expect(await t.call('GET', '/v1/admin/user/menu', { token: admin })).toMatchObject({ code: 200 });
  });

  it('deleting a manager deletes his authenticator; a manager created after him starts unbound', async () => {
    const roleId = await addRole(t, '临时', []);
    const id = await addManager(t, 'dave', roleId);
    const dave = (await passwordStep('dave')).data.token;
    await bind(dave);
    expect(await call('/v1/admin/user/delete', admin, { id })).toMatchObject({ code: 200 });
    for (const table of ['manager_totp', 'totp_recovery'] as const) {
      expect(await t.db.db.selectFrom(table).selectAll().where('manager_id', '=', id).execute()).toEqual([]);
    }
    const next = await addManager(t, 'erin', roleId);
    const erin = (await passwordStep('erin')).data.token;
    expect(await t.call('GET', '/v1/admin/user/totp', { token: erin })).toMatchObject({ data: { bound: false } });
    expect((await call('/v1/admin/user/totp/setup', erin)).code).toBe(200);
    if (dbKind === 'sqlite') expect(next).toBe(id); // SQLite gave erin dave's id: nothing of his is left
  });

  it('a role may require an authenticator only when the server can bind one', async () => {
    const plain = await build();
    try {
      const token = await plain.login();
      expect(
        await plain.call('POST', '/v1/admin/role/create', { token, body: { name: '出纳', requireTotp: true } }),
      ).toMatchObject({ code: 409, msg: '服务器未配置 TOTP_KEY，不能要求绑定身份验证器' });
      expect(await plain.call('POST', '/v1/admin/role/create', { token, body: { name: '出纳' } })).toMatchObject({
        code: 200,
      });
    } finally {
      await plain.close();
    }
  });

  it('a manager whose role requires an authenticator cannot unbind it; a throttled step-up is logged', async () => {
    const saved = await call('/v1/admin/role/create', admin, { name: '出纳', requireTotp: true });
    await addManager(t, 'frank', saved.data.id);
    const frank = (await passwordStep('frank')).data.token;
    const { secret } = await bind(frank);
    nextStep();
    expect(await call('/v1/admin/user/totp/disable', frank, { code: codeAt(secret, t.clock.now()) })).toMatchObject({
      code: 409,
      msg: '所属角色要求绑定身份验证器，不能解绑',
    });
    for (let i = 0; i < 5; i++) await call('/v1/admin/user/totp/verify', frank, { code: '000000' });
    expect(await call('/v1/admin/user/totp/verify', frank, { code: codeAt(secret, t.clock.now()) })).toMatchObject({
      code: 429,
    });
    const rows = (await opLogs(t)).filter((l) => l.permission_code === TotpLogCodes.stepUpFailed);
    expect(rows).toHaveLength(6);
    expect(rows[5].summary).toContain('验证码错误次数过多');
  });

  it('every POST route that moves money declares step-up (the walk fails when one forgets)', () => {
    const moneyRoutes = t.app.routeTable.filter(
      (r) => r.method === 'POST' && [r.permission ?? []].flat().some((code) => STEP_UP_CODES.has(code)),
    );
    // The actions issue 15 names, by URL: none may drop out of the list unnoticed.
    expect(moneyRoutes.map((r) => r.url).sort()).toEqual(
      [
        '/v1/admin/deposit/account/opt',
        '/v1/admin/deposit/opt',
        '/v1/admin/deposit/setting',
        '/v1/admin/match/opt',
        '/v1/admin/member/opt',
        '/v1/admin/order/opt',
        '/v1/admin/payment/opt',
        '/v1/admin/role/bind',
        '/v1/admin/role/create',
        '/v1/admin/user/create',
        '/v1/admin/user/totp/reset',
        '/v1/admin/withdraw/account',
        '/v1/admin/withdraw/opt',
        '/v1/admin/withdraw/opt/batch',
        '/v1/admin/withdraw/setting',
      ].sort(),
    );
    for (const r of moneyRoutes) expect({ url: r.url, stepUp: r.stepUp }).toEqual({ url: r.url, stepUp: true });
    // And the server refuses to start with a money route that forgets it.
    const { default: auth } = require('../../../../server/plugins/auth');
    const fastify = require('fastify')();
    fastify.register(auth, { ctx: t.app.ctx });
    fastify.register(async (app: any) => {
      app.post('/v1/admin/withdraw/forgot', { config: { permission: 'withdraw:audit' } }, async () => ({}));
    });
    return expect(fastify.ready()).rejects.toThrow(/moves money and must declare config.stepUp/);
  });
});
