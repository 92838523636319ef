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

/** The only routes anyone may call without a session. */
const PUBLIC_ROUTES = ['POST /v1/admin/user/login'];

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
  'POST /v1/admin/role/bind': async (t) => ({
    body: { roleId: await addRole(t, uniq('样本角色')), permissionIds: [permissionByCode.get('member:view')!.id] },
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
