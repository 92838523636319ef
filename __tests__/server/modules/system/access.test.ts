/**
 * Access control over the whole route table, generated from the routes the app registers: a route
 * added by any module later is covered without touching this file. Every /v1 route must declare a
 * permission or say it needs only a session (or nothing: login). For each route with a permission,
 * a manager whose role holds everything but it gets 403 无权限 and nothing in the database moves;
 * a manager whose role holds it gets through the permission check.
 */
import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import { allPermissions, isPermissionCode, permissionByCode } from '../../../../domain/permissions';
import type { RouteDeclaration } from '../../../../server/plugins/auth';
import { build, dbKind, type TestApp } from '../../helpers';
import { addManager, addRole, sessionOf } from './fixtures';

/**
 * The only routes anyone may call without a session: the login, and an upload, whose credential is its
 * one-use ticket from `GET oss` (a session route) — uploads.routes.test.ts refuses a forged one.
 */
const PUBLIC_ROUTES = [
  'POST /v1/admin/user/login',
  // The login's code step (issue 15): it carries the password step's one-time challenge instead.
  'POST /v1/admin/user/login/totp',
  'PUT /v1/admin/oss/upload/:token',
];

/** Method + path of every registered /v1 route, read from the router itself (not from the auth plugin). */
function routerRoutes(app: FastifyInstance): string[] {
  const out = new Set<string>();
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const m = /(\/v1\/\S*) \(([A-Z, ]+)\)/.exec(line);
    if (!m) continue;
    for (const method of m[2].split(',').map((s) => s.trim())) if (method !== 'HEAD') out.add(`${method} ${m[1]}`);
  }
  return [...out].sort();
}

const key = (r: RouteDeclaration) => `${r.method} ${r.url}`;
const codesOf = (r: RouteDeclaration) => (r.permission === undefined ? [] : [r.permission].flat());

type Input = { query?: Record<string, unknown>; body?: unknown };
let seq = 0;
const uniq = (prefix: string) => `${prefix}${String(++seq).padStart(4, '0')}`;

/**
 * Inputs that succeed for the system module's routes, so the matrix proves both that a refused call
 * would have changed something and that an allowed one goes through. Other routes get no input: an
 * allowed caller then meets validation (400), which is past the permission check.
 */
const SAMPLES: Record<string, (t: TestApp) => Promise<Input>> = {
  'GET /v1/admin/user/list': async () => ({}),
  'GET /v1/admin/user/opt/list': async () => ({}),
  'GET /v1/admin/role/list': async () => ({}),
  'POST /v1/admin/user/create': async (t) => ({
    body: { username: uniq('user'), password: 'Sample1234', roleId: await addRole(t, uniq('样本角色')) },
  }),
  'POST /v1/admin/user/delete': async (t) => ({
    body: { id: await addManager(t, uniq('gone'), await addRole(t, uniq('样本角色'))) },
  }),
  'POST /v1/admin/role/create': async () => ({ body: { name: uniq('新角色') } }),
  // A grant the caller holds (everyone holds the always-granted page): one may grant only that.
  'POST /v1/admin/role/bind': async (t) => ({
    body: { roleId: await addRole(t, uniq('样本角色')), permissionIds: [permissionByCode.get('password:update')!.id] },
  }),
  'GET /v1/admin/role/delete': async (t) => ({ query: { roleId: await addRole(t, uniq('样本角色')) } }),
};

/** Every row of every table, as one string: equal before and after means nothing changed. */
async function snapshot(t: TestApp): Promise<string> {
  const tables =
    dbKind === 'postgres'
      ? (
          await sql<{ name: string }>`select table_name as name from information_schema.tables
            where table_schema = current_schema() and table_type = 'BASE TABLE' order by 1`.execute(t.db.db)
        ).rows
      : (
          await sql<{ name: string }>`select name from sqlite_master
            where type = 'table' and name not like 'sqlite_%' order by 1`.execute(t.db.db)
        ).rows;
  const parts: string[] = [];
  for (const { name } of tables) {
    const rows = (await sql<Record<string, unknown>>`select * from ${sql.table(name)}`.execute(t.db.db)).rows;
    parts.push(
      `${name}:${rows
        .map((r) => JSON.stringify(r))
        .sort()
        .join('\n')}`,
    );
  }
  return parts.join('\n\n');
}

async function inject(t: TestApp, route: RouteDeclaration, token: string | undefined, input: Input) {
  const res = await t.app.inject({
    method: route.method as 'GET' | 'POST',
    url: route.url.replace(/:(\w+)/g, '1'),
    query: input.query as Record<string, string>,
    payload: input.body as object,
    headers: token ? { authorization: token } : {},
  });
  const json = String(res.headers['content-type'] ?? '').includes('application/json');
  // A file download (exports) has no envelope: it is a success.
  return json ? (res.json() as { code: number; msg: string }) : { code: res.statusCode, msg: '' };
}

describe(`access control over every /v1 route (${dbKind})`, () => {
  let t: TestApp;
  let table: RouteDeclaration[];
  beforeAll(async () => {
    t = await build();
    table = t.app.routeTable.filter((r) => r.method !== 'HEAD');
  });
  afterAll(async () => {
    await t.close();
  });

  it('finds the system module’s routes among the registered ones', () => {
    const routes = routerRoutes(t.app);
    for (const r of Object.keys(SAMPLES)) expect(routes).toContain(r);
    expect(routes).toEqual(expect.arrayContaining(['GET /v1/admin/user/password', 'GET /v1/admin/user/permissions']));
  });

  it('guards the system module’s routes with the codes DOMAIN.md gives them', () => {
    const of = (k: string) => table.find((r) => key(r) === k);
    expect(
      Object.fromEntries(
        [
          'GET /v1/admin/user/list',
          'POST /v1/admin/user/create',
          'POST /v1/admin/user/delete',
          'GET /v1/admin/user/opt/list',
          'GET /v1/admin/role/list',
          'POST /v1/admin/role/create',
          'POST /v1/admin/role/bind',
          'GET /v1/admin/role/delete',
          'GET /v1/admin/user/password',
          'GET /v1/admin/user/permissions',
        ].map((k) => [k, of(k)?.permission ?? of(k)?.auth]),
      ),
    ).toEqual({
      'GET /v1/admin/user/list': 'manager:view',
      'POST /v1/admin/user/create': 'manager:create',
      'POST /v1/admin/user/delete': 'manager:delete',
      'GET /v1/admin/user/opt/list': 'oplog:view',
      'GET /v1/admin/role/list': 'role:view',
      'POST /v1/admin/role/create': 'role:create',
      'POST /v1/admin/role/bind': 'role:bind',
      'GET /v1/admin/role/delete': 'role:delete',
      // Own password and own codes: any session (with roleId, user/permissions checks role:view itself).
      'GET /v1/admin/user/password': 'session',
      'GET /v1/admin/user/permissions': 'session',
    });
  });

  it('knows the declaration of every route the router has', () => {
    const declared = new Set(table.map(key));
    expect(routerRoutes(t.app).filter((r) => !declared.has(r))).toEqual([]);
  });

  it('has every route declare exactly one known permission list or a session/public mark', () => {
    const bad = table.filter((r) => {
      const codes = codesOf(r);
      if (codes.length && r.auth) return true;
      if (codes.length) return !codes.every(isPermissionCode);
      return r.auth !== 'session' && r.auth !== 'public';
    });
    expect(bad).toEqual([]);
    expect(table.filter((r) => r.auth === 'public').map(key)).toEqual(PUBLIC_ROUTES);
  });

  it('answers 301 to every non-public route called without a session or with an unknown token', async () => {
    const open: string[] = [];
    for (const r of table.filter((x) => x.auth !== 'public')) {
      for (const token of [undefined, 'not-a-token']) {
        const res = await inject(t, r, token, {});
        if (res.code !== 301) open.push(`${key(r)} (${token ?? 'no token'}): ${res.code}`);
      }
    }
    expect(open).toEqual([]);
  });

  it('answers 301 to every non-public route however its path is percent-encoded', async () => {
    // The router decodes paths: a check made on the raw URL would let these through.
    const hex = (c: string) => `%${c.charCodeAt(0).toString(16)}`;
    const open: string[] = [];
    for (const r of table.filter((x) => x.auth !== 'public')) {
      const url = r.url.replace(/:(\w+)/g, '1');
      for (const variant of [
        url.replace('/v1/', `/${hex('v')}1/`),
        url.replace(/.$/, hex),
        url.replace(/[a-z]/g, hex),
      ]) {
        const res = await t.app.inject({ method: r.method as 'GET' | 'POST', url: variant });
        const body = res.json() as { code: number };
        if (body.code !== 301) open.push(`${r.method} ${variant}: ${body.code}`);
      }
    }
    expect(open).toEqual([]);
  });

  it('refuses every permission route to a role lacking it (403, nothing changed) and admits a role holding it', async () => {
    const guarded = table.filter((r) => codesOf(r).length > 0);
    expect(guarded.length).toBeGreaterThanOrEqual(Object.keys(SAMPLES).length);
    const failures: string[] = [];
    for (const r of guarded) {
      const codes = codesOf(r);
      const sample = SAMPLES[key(r)] ?? (async () => ({}));

      const lacking = await addRole(
        t,
        uniq('缺权限'),
        allPermissions.map((p) => p.code).filter((c) => !codes.includes(c)),
      );
      const lackingToken = await sessionOf(t, await addManager(t, uniq('lack'), lacking));
      const input = await sample(t);
      const before = await snapshot(t);
      const refused = await inject(t, r, lackingToken, input);
      if (refused.code !== 403 || refused.msg !== '无权限') {
        failures.push(`${key(r)} without ${codes.join('|')}: ${refused.code} ${refused.msg}`);
      }
      if ((await snapshot(t)) !== before) failures.push(`${key(r)} without ${codes.join('|')}: the database changed`);

      for (const code of codes) {
        const holding = await addRole(t, uniq('有权限'), [code]);
        const token = await sessionOf(t, await addManager(t, uniq('has'), holding));
        const res = await inject(t, r, token, await sample(t));
        if ([403, 301, 302].includes(res.code) || (SAMPLES[key(r)] && res.code !== 200)) {
          failures.push(`${key(r)} with ${code}: ${res.code} ${res.msg}`);
        }
      }
    }
    expect(failures).toEqual([]);
  });
});

/**
 * Privilege self-escalation (issue 10): a manager grants only what he holds, never changes or binds
 * his own role, acts only on roles and managers within his own permissions, and the super role is a
 * super manager's alone. Every refusal leaves the whole database as it was.
 */
describe(`no privilege self-escalation (${dbKind})`, () => {
  let t: TestApp;
  let admin: string;
  beforeEach(async () => {
    t = await build();
    admin = await t.login();
  });
  afterEach(async () => {
    await t.close();
  });

  const idOf = (code: string) => permissionByCode.get(code)!.id;
  const PW = 'Sample12345x';
  /** System management without role binding, the way a personnel clerk would be set up. */
  const HR = ['system', 'manager:view', 'manager:create', 'manager:delete', 'role:view', 'role:create', 'role:delete'];
  /** What the clerk lacks: paying out withdrawals. */
  const PAYER = ['system', 'manager:view', 'withdraw', 'withdraw:view', 'withdraw:audit', 'withdraw:pay'];

  const call = (token: string, method: 'GET' | 'POST', url: string, input: Input) =>
    t.call(method, url, { token, body: input.body as object, query: input.query });
  const saveManager = (token: string, body: Record<string, unknown>) =>
    call(token, 'POST', '/v1/admin/user/create', { body });
  const bind = (token: string, roleId: number, codes: string[]) =>
    call(token, 'POST', '/v1/admin/role/bind', { body: { roleId, permissionIds: codes.map(idOf) } });
  const saveRole = (token: string, body: Record<string, unknown>) =>
    call(token, 'POST', '/v1/admin/role/create', { body });
  const deleteRole = (token: string, roleId: number) =>
    call(token, 'GET', '/v1/admin/role/delete', { query: { roleId } });
  const ownCodes = async (token: string) =>
    (await t.call('GET', '/v1/admin/user/permissions', { token })).data.codes as string[];
  const superRoleId = async () =>
    Number((await t.db.db.selectFrom('role').select('id').where('is_super', '=', 1).executeTakeFirstOrThrow()).id);
  const adminId = async () =>
    Number(
      (await t.db.db.selectFrom('manager').select('id').where('username', '=', 'admin').executeTakeFirstOrThrow()).id,
    );

  /** Expects `refusal` and that it changed nothing at all. */
  async function refused(act: () => Promise<unknown>, refusal: { code: number; msg: unknown }) {
    const before = await snapshot(t);
    expect(await act()).toEqual({ ...refusal, data: null });
    expect(await snapshot(t)).toBe(before);
  }

  async function manager(username: string, codes: string[]) {
    const roleId = await addRole(t, `角色-${username}`, codes);
    const id = await addManager(t, username, roleId);
    return { id, roleId, token: await sessionOf(t, id) };
  }

  it('a manager holding manager:create cannot change his own role, to a wider one or any other (400)', async () => {
    const hr = await manager('hrstaff1', HR);
    const wider = await addRole(t, '财务主管', [...new Set([...HR, ...PAYER])]);
    const narrower = await addRole(t, '只读', ['system', 'manager:view']);
    for (const roleId of [wider, narrower]) {
      await refused(() => saveManager(hr.token, { id: hr.id, version: 1, username: 'hrstaff1', roleId }), {
        code: 400,
        msg: '不能修改自己的角色',
      });
    }
    expect(await ownCodes(hr.token)).not.toContain('withdraw:pay');
    // His own name, on his own role, is still his to edit.
    expect((await saveManager(hr.token, { id: hr.id, version: 1, username: 'hrstaff2', roleId: hr.roleId })).code).toBe(
      200,
    );
  });

  it('not even a super manager changes his own role', async () => {
    await addManager(t, 'boss0001', await superRoleId());
    const plain = await addRole(t, '财务');
    const me = await adminId();
    await refused(() => saveManager(admin, { id: me, version: 1, username: 'admin', roleId: plain }), {
      code: 400,
      msg: '不能修改自己的角色',
    });
  });

  it('a manager gives another manager only a role whose permissions he holds (403)', async () => {
    const hr = await manager('hrstaff1', HR);
    const wider = await addRole(t, '财务主管', PAYER);
    // The group heading is no permission of its own: the message names the pages and actions.
    const msg = '不能授予自己没有的权限：提现审核、审核提现、确认打款';
    await refused(() => saveManager(hr.token, { username: 'mole0001', password: PW, roleId: wider }), {
      code: 403,
      msg,
    });
    const clerk = await addManager(t, 'clerk001', await addRole(t, '文员', ['system', 'manager:view']));
    await refused(() => saveManager(hr.token, { id: clerk, version: 1, username: 'clerk001', roleId: wider }), {
      code: 403,
      msg,
    });
    // A role within his own permissions, his own included, is his to give.
    const same = await addRole(t, '人事', HR);
    expect((await saveManager(hr.token, { username: 'hrstaff2', password: PW, roleId: same })).code).toBe(200);
    expect((await saveManager(hr.token, { username: 'hrstaff3', password: PW, roleId: hr.roleId })).code).toBe(200);
    expect((await saveManager(hr.token, { id: clerk, version: 1, username: 'clerk001', roleId: same })).code).toBe(200);
  });

  it('a manager holding role:bind cannot bind his own role, nor grant another role what he lacks', async () => {
    const binder = await manager('binder01', ['system', 'role:view', 'role:bind', 'member', 'member:view']);
    const all = allPermissions.map((p) => p.code);
    await refused(() => bind(binder.token, binder.roleId, all), { code: 400, msg: '不能为自己的角色分配权限' });
    // Not even the same set again: his own role is for someone else to bind.
    await refused(() => bind(binder.token, binder.roleId, ['member:view']), {
      code: 400,
      msg: '不能为自己的角色分配权限',
    });
    expect(await ownCodes(binder.token)).toEqual([
      'system',
      'role:view',
      'role:bind',
      'password:update',
      'member',
      'member:view',
    ]);

    const other = await addRole(t, '客服', ['member', 'member:view']);
    await refused(() => bind(binder.token, other, ['member:view', 'member:adjust']), {
      code: 403,
      msg: '不能授予自己没有的权限：调整余额',
    });
    await refused(() => bind(binder.token, other, all), {
      code: 403,
      msg: expect.stringMatching(
        /^不能授予自己没有的权限：管理员、新增\/编辑管理员、删除管理员、查看操作日志、新增\/编辑角色等\d+项$/,
      ),
    });
    // Within what he holds (and the page everyone holds) he binds as he likes.
    expect(await bind(binder.token, other, ['role:view', 'password:update'])).toMatchObject({ code: 200 });
    expect(await bind(binder.token, other, [])).toMatchObject({ code: 200 });
  });

  it('a non-super manager acts only on roles within his own permissions (403)', async () => {
    const hr = await manager('hrstaff1', [...HR, 'role:bind']);
    const payer = await addRole(t, '出纳', PAYER);
    const unused = await addRole(t, '出纳备用', PAYER);
    await addManager(t, 'cashier1', payer);
    // Stripping a wider role is refused like widening one: it holds what he cannot judge.
    await refused(() => bind(hr.token, payer, ['manager:view']), {
      code: 403,
      msg: '该角色拥有你没有的权限，不能修改',
    });
    await refused(() => saveRole(hr.token, { id: payer, name: '临时工' }), {
      code: 403,
      msg: '该角色拥有你没有的权限，不能修改',
    });
    await refused(() => deleteRole(hr.token, unused), { code: 403, msg: '该角色拥有你没有的权限，不能删除' });
    // The super manager may.
    expect((await saveRole(admin, { id: payer, name: '出纳组' })).code).toBe(200);
    expect((await deleteRole(admin, unused)).code).toBe(200);
  });

  it('only a super manager touches the super role: rename, bind, delete (403)', async () => {
    const hr = await manager('hrstaff1', [...HR, 'role:bind']);
    const sup = await superRoleId();
    const superOnly = { code: 403, msg: '只有超级管理员可以修改超级角色' };
    await refused(() => saveRole(hr.token, { id: sup, name: '普通角色' }), superOnly);
    await refused(() => saveRole(hr.token, { id: sup, name: '超级管理员', remark: '改备注' }), superOnly);
    await refused(() => bind(hr.token, sup, []), superOnly);
    await refused(() => deleteRole(hr.token, sup), superOnly);
    // For a super manager the old answers stand: he may rename it, never bind or delete it.
    expect((await saveRole(admin, { id: sup, name: '总管理员' })).code).toBe(200);
    await refused(() => bind(admin, sup, []), { code: 400, msg: '超级管理员角色不可修改' });
    await refused(() => deleteRole(admin, sup), { code: 400, msg: '超级管理员角色不可删除' });
  });

  it('a non-super manager may not edit, disable or delete a manager who holds more than he does (403)', async () => {
    const hr = await manager('hrstaff1', HR);
    const payer = await addRole(t, '出纳', PAYER);
    const cashier = await addManager(t, 'cashier1', payer);
    const base = { id: cashier, version: 1, username: 'cashier1', roleId: payer };
    const editBeyond = { code: 403, msg: '该管理员拥有你没有的权限，不能修改' };
    await refused(() => saveManager(hr.token, { ...base, password: 'Hijack12345x' }), editBeyond);
    await refused(() => saveManager(hr.token, { ...base, status: 0 }), editBeyond);
    await refused(() => saveManager(hr.token, { ...base, username: 'cashier2' }), editBeyond);
    // Moving him to a role within the clerk's reach would strip him of what the clerk cannot judge.
    await refused(() => saveManager(hr.token, { ...base, roleId: hr.roleId }), editBeyond);
    await refused(() => call(hr.token, 'POST', '/v1/admin/user/delete', { body: { id: cashier } }), {
      code: 403,
      msg: '该管理员拥有你没有的权限，不能删除',
    });
    // The super admin above all: his password stays his (the refusal names the super rule).
    const sup = { id: await adminId(), version: 1, username: 'admin', roleId: await superRoleId() };
    await refused(() => saveManager(hr.token, { ...sup, password: 'Hijack12345x' }), {
      code: 403,
      msg: '只有超级管理员可以管理超级管理员',
    });
    // A manager within his permissions is his to edit and delete.
    const clerk = await addManager(t, 'clerk001', await addRole(t, '文员', ['system', 'manager:view']));
    expect(
      (await saveManager(hr.token, { id: clerk, version: 1, username: 'clerk001', roleId: hr.roleId, status: 0 })).code,
    ).toBe(200);
    expect((await call(hr.token, 'POST', '/v1/admin/user/delete', { body: { id: clerk } })).code).toBe(200);
  });
});
