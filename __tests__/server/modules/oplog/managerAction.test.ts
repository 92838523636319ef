import type { Actor, Ctx } from '../../../../server/context';
import { badInput, conflict } from '../../../../server/errors';
import {
  BATCH_PARALLEL,
  changed,
  changeList,
  managerAction,
  runBatch,
} from '../../../../server/modules/oplog/managerAction';
import { insertRole } from '../../../../server/modules/system/roles.repository';
import { build, dbKind, type TestApp } from '../../helpers';

describe(`managerAction and runBatch (${dbKind})`, () => {
  let t: TestApp;
  let ctx: Ctx;
  const actor: Actor = { managerId: 1, username: 'admin', ip: '10.0.0.7' };
  beforeEach(async () => {
    t = await build();
    ctx = t.app.ctx;
  });
  afterEach(async () => {
    await t.close();
  });

  const opLogs = () =>
    t.db.db.selectFrom('op_log').selectAll().where('permission_code', 'like', 'test:%').orderBy('id').execute();
  const roleNamed = (name: string) =>
    t.db.db.selectFrom('role').select('id').where('name', '=', name).executeTakeFirst();
  const addRole = (id: number | string) =>
    managerAction(ctx, actor, async ({ trx, now }) => {
      const roleId = await insertRole(trx, { name: `r${id}`, remark: '', now });
      return { result: roleId, log: { code: 'test:add', target: `role#${roleId}`, summary: `新增 r${id}` } };
    });

  it('commits the change with its op-log row: who, code, target, summary, IP and time', async () => {
    const id = await addRole('a');
    expect(await roleNamed('ra')).toEqual({ id: expect.anything() });
    expect(await opLogs()).toEqual([
      expect.objectContaining({
        manager_id: expect.anything(),
        username: 'admin',
        permission_code: 'test:add',
        target: `role#${id}`,
        summary: '新增 ra',
        ip: '10.0.0.7',
      }),
    ]);
    const [row] = await opLogs();
    expect(Number(row.manager_id)).toBe(1);
    expect(Number(row.created_at)).toBe(t.clock.now());
  });

  it('writes no op-log row and keeps none of the change when the change throws', async () => {
    await expect(
      managerAction(ctx, actor, async ({ trx, now }) => {
        await insertRole(trx, { name: 'rolledBack', remark: '', now });
        throw conflict('已处理');
      }),
    ).rejects.toThrow('已处理');
    expect(await roleNamed('rolledBack')).toBeUndefined();
    expect(await opLogs()).toEqual([]);
  });

  it("applies the counter moves after the op-log row, and a failing one undoes the action's whole transaction", async () => {
    const seen: number[] = [];
    await managerAction(ctx, actor, async ({ trx, counts }) => {
      counts.add(async () => {
        const n = await trx.selectFrom('op_log').select('id').where('permission_code', '=', 'test:last').execute();
        seen.push(n.length);
      });
      return { result: undefined, log: { code: 'test:last', target: 'x', summary: 'x' } };
    });
    expect(seen).toEqual([1]);

    await expect(
      managerAction(ctx, actor, async ({ trx, now, counts }) => {
        await insertRole(trx, { name: 'lastFails', remark: '', now });
        counts.add(async () => {
          throw badInput('计数失败');
        });
        return { result: undefined, log: { code: 'test:fails', target: 'x', summary: 'x' } };
      }),
    ).rejects.toThrow('计数失败');
    expect(await roleNamed('lastFails')).toBeUndefined();
    expect((await opLogs()).map((r) => r.permission_code)).toEqual(['test:last']);
  });

  it('stamps the given time when one is passed', async () => {
    await managerAction(
      ctx,
      actor,
      async () => ({ result: 0, log: { code: 'test:at', target: 'x', summary: 'x' } }),
      42,
    );
    expect(Number((await opLogs())[0].created_at)).toBe(42);
  });

  it('answers a batch per id, in the order given, each id once and in its own transaction', async () => {
    const r = await runBatch(ctx, [3, 1, 2, 3, 4], async (id) => {
      if (id % 2 === 0) {
        await managerAction(ctx, actor, async ({ trx, now }) => {
          await insertRole(trx, { name: `r${id}`, remark: '', now });
          throw conflict(`#${id} 已处理`);
        });
      }
      return addRole(id);
    });
    expect(r).toEqual({
      succeeded: [3, 1],
      failed: [
        { id: 2, msg: '#2 已处理' },
        { id: 4, msg: '#4 已处理' },
      ],
    });
    expect((await opLogs()).map((l) => l.summary).sort()).toEqual(['新增 r1', '新增 r3']);
    expect(await roleNamed('r2')).toBeUndefined();
  });

  it(`runs at most ${BATCH_PARALLEL[dbKind]} ids at once on ${dbKind}`, async () => {
    let running = 0;
    let most = 0;
    const ids = Array.from({ length: 20 }, (_, i) => i + 1);
    const r = await runBatch(ctx, ids, async () => {
      most = Math.max(most, ++running);
      await new Promise((resolve) => setTimeout(resolve, 5));
      running--;
    });
    expect(r.succeeded).toEqual(ids);
    expect(most).toBe(BATCH_PARALLEL[dbKind]);
  });

  it('stops at an unexpected error and throws it once the running ids settle', async () => {
    const started: number[] = [];
    const boom = new Error('connection lost');
    await expect(
      runBatch(ctx, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12], async (id) => {
        started.push(id);
        if (id === 1) throw boom;
        await new Promise((resolve) => setTimeout(resolve, 5));
      }),
    ).rejects.toBe(boom);
    // Only the ids already taken by a worker ran: none after the error was seen.
    expect(started.length).toBeLessThanOrEqual(BATCH_PARALLEL[dbKind]);
  });

  it("lists an edit's changes, or says there were none", () => {
    expect(changeList([changed('名称', 'a', 'b'), changed('状态', '启用', '启用'), '重置密码'], '（无变化）')).toBe(
      '：名称 a→b，重置密码',
    );
    expect(changeList([changed('名称', 'a', 'a'), false], '（无变化）')).toBe('（无变化）');
    expect(changeList([])).toBe('');
  });
});
