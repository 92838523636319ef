/**
 * Several server processes share one database: a bind or a disable made through one is seen by the
 * others at their next request, though each caches role grants. A "process" here is an app with its
 * own database handle (so its own grant cache) on the same database: a file for SQLite, the same
 * schema for PostgreSQL.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import { permissionByCode } from '../../../../domain/permissions';
import { buildApp } from '../../../../server/app';
import { ManualClock } from '../../../../server/clock';
import { loadConfig } from '../../../../server/config';
import { createDb, dropPgSchema, type Db } from '../../../../server/db/dialect';
import { migrateToLatest } from '../../../../server/db/migrate';
import { ensureSuperAdmin, syncPermissions } from '../../../../server/seed/bootstrap';
import { ADMIN_PASSWORD, PG_URL, dbKind } from '../../helpers';

describe(`several processes on one database (${dbKind})`, () => {
  const clock = new ManualClock();
  const config = { ...loadConfig({}, '/tmp/lz-test'), demoData: false };
  const schema = `t_proc_${process.pid}_${Date.now().toString(36)}`;
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'lz-proc-')), 'console.db');
  const url = PG_URL ?? `sqlite:${file}`;
  const handles: Db[] = [];
  const apps: FastifyInstance[] = [];

  async function process_(): Promise<FastifyInstance> {
    const db = createDb(url, { pgSchema: PG_URL ? schema : undefined });
    handles.push(db);
    const app = await buildApp({ ctx: { db: db.db, kind: db.kind, config, clock }, web: false });
    await app.ready();
    apps.push(app);
    return app;
  }
  const call = async (app: FastifyInstance, method: 'GET' | 'POST', url: string, token?: string, body?: object) =>
    (await app.inject({ method, url, payload: body, headers: token ? { authorization: token } : {} })).json();

  let one: FastifyInstance;
  let two: FastifyInstance;
  beforeAll(async () => {
    one = await process_();
    await migrateToLatest(handles[0].db);
    await syncPermissions(handles[0].db);
    await ensureSuperAdmin(handles[0].db, clock.now(), ADMIN_PASSWORD);
    two = await process_();
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    for (const h of handles) await h.close();
    if (PG_URL) await dropPgSchema(PG_URL, schema);
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
  });

  it('sees a bind made through another process at the next request', async () => {
    const admin = (
      await call(one, 'POST', '/v1/admin/user/login', undefined, { username: 'admin', password: ADMIN_PASSWORD })
    ).data.token;
    const role = (await call(one, 'POST', '/v1/admin/role/create', admin, { name: '财务' })).data.id;
    await call(one, 'POST', '/v1/admin/user/create', admin, {
      username: 'cashier1',
      password: 'Cash123456',
      roleId: role,
    });
    const cashier = (
      await call(two, 'POST', '/v1/admin/user/login', undefined, { username: 'cashier1', password: 'Cash123456' })
    ).data.token;
    // Process two caches the role's (empty) grant.
    expect((await call(two, 'GET', '/v1/admin/role/list', cashier)).code).toBe(403);
    const bound = await call(one, 'POST', '/v1/admin/role/bind', admin, {
      roleId: role,
      permissionIds: [permissionByCode.get('role:view')!.id],
    });
    expect(bound.code).toBe(200);
    expect((await call(two, 'GET', '/v1/admin/role/list', cashier)).code).toBe(200);
    // And a disable through process two ends the session process one serves.
    const list = (await call(two, 'GET', '/v1/admin/user/list', admin)).data.list;
    const row = list.find((m: any) => m.username === 'cashier1');
    expect(
      (
        await call(two, 'POST', '/v1/admin/user/create', admin, {
          id: row.id,
          version: row.version,
          username: 'cashier1',
          roleId: role,
          status: 0,
        })
      ).code,
    ).toBe(200);
    expect((await call(one, 'GET', '/v1/admin/role/list', cashier)).code).toBe(302);
    const rows = await sql<{ n: number }>`select count(*) as n from op_log`.execute(handles[1].db);
    expect(Number(rows.rows[0].n)).toBe(4);
  });
});
