import { build, dbKind, type TestApp } from '../../helpers';
import { actingAs, opLogCount, opLogs } from '../system/fixtures';
import { makeMember, makeZone, zoneRow } from './fixtures';

// Building an app on PostgreSQL under a busy machine can take more than the default 5 s.
jest.setTimeout(60_000);

describe(`zones (${dbKind})`, () => {
  let t: TestApp;
  let token: string;
  const list = (query: Record<string, unknown> = {}, tk = token) =>
    t.call('GET', '/v1/admin/zone/list', { token: tk, query });
  const opt = (body: Record<string, unknown>, tk = token) => t.call('POST', '/v1/admin/zone/opt', { token: tk, body });

  beforeAll(async () => {
    t = await build();
    token = await t.login();
  });
  afterAll(() => t.close());

  it('creates, updates, disables, enables and deletes a zone, one op-log row each', async () => {
    const leader = await makeMember(t, { nickname: '带头人' });
    const before = await opLogCount(t);
    const created = await opt({ action: 'create', name: '华东专区', leaderUid: leader.uid, sort: 5 });
    expect(created).toMatchObject({ code: 200, data: { id: expect.any(Number) } });
    const id = created.data.id;
    expect(await zoneRow(t, id)).toMatchObject({ name: '华东专区', leader_uid: leader.uid, sort: 5, status: 1 });
    const r = await list({ name: '华东' });
    expect(r.data).toMatchObject({ total: 1 });
    expect(r.data.list[0]).toEqual({
      id,
      name: '华东专区',
      leaderUid: leader.uid,
      leaderNickname: '带头人',
      memberCount: 0,
      status: 1,
      sort: 5,
      createdAt: expect.any(Number),
      updatedAt: expect.any(Number),
    });
    expect(await opt({ action: 'update', id, name: '华东一区', leaderUid: '', sort: 1 })).toMatchObject({ code: 200 });
    expect(await zoneRow(t, id)).toMatchObject({ name: '华东一区', leader_uid: null, sort: 1 });
    expect(await opt({ action: 'disable', id })).toMatchObject({ code: 200 });
    expect(await opt({ action: 'disable', id })).toMatchObject({ code: 409, msg: '专区已停用' });
    expect((await list({ status: 0 })).data.list.map((z: { id: number }) => z.id)).toEqual([id]);
    expect(await opt({ action: 'enable', id })).toMatchObject({ code: 200 });
    expect(await opt({ action: 'enable', id })).toMatchObject({ code: 409, msg: '专区已启用' });
    expect(await opt({ action: 'delete', id })).toMatchObject({ code: 200 });
    expect(await zoneRow(t, id)).toBeUndefined();
    expect(await opt({ action: 'delete', id })).toMatchObject({ code: 404, msg: '专区不存在' });
    const logs = (await opLogs(t)).slice(before);
    expect(logs.map((l) => l.permission_code)).toEqual(Array(5).fill('zone:opt'));
    expect(logs.map((l) => l.summary)).toEqual([
      '新增专区 华东专区',
      `修改专区 华东专区：名称 华东专区 → 华东一区，负责人 ${leader.uid} → 无，排序 5 → 1`,
      '停用专区 华东一区',
      '启用专区 华东一区',
      '删除专区 华东一区',
    ]);
  });

  it('refuses a duplicate name, an unknown leader, a missing id or name, and a zone with members', async () => {
    const a = await makeZone(t, '重名专区');
    const b = await makeZone(t, '另一专区');
    await makeMember(t, { zoneId: b });
    const before = await opLogCount(t);
    expect(await opt({ action: 'create', name: '重名专区' })).toMatchObject({ code: 400, msg: '专区名称已存在' });
    expect(await opt({ action: 'create', name: ' ' })).toMatchObject({ code: 400, msg: '专区名称不能为空' });
    expect(await opt({ action: 'create' })).toMatchObject({ code: 400, msg: '专区名称不能为空' });
    expect(await opt({ action: 'create', name: '新专区', leaderUid: '99999999' })).toMatchObject({
      code: 400,
      msg: '负责人不存在',
    });
    expect(await opt({ action: 'update', id: b, name: '重名专区' })).toMatchObject({
      code: 400,
      msg: '专区名称已存在',
    });
    expect(await opt({ action: 'update', id: a, leaderUid: '99999999' })).toMatchObject({
      code: 400,
      msg: '负责人不存在',
    });
    expect(await opt({ action: 'update', name: 'x' })).toMatchObject({ code: 400, msg: '专区ID不能为空' });
    expect(await opt({ action: 'update', id: 99999, name: 'x' })).toMatchObject({ code: 404, msg: '专区不存在' });
    expect(await opt({ action: 'delete', id: b })).toMatchObject({ code: 409, msg: '该专区下还有会员，不能删除' });
    expect(await opt({ action: 'rename', id: b })).toMatchObject({ code: 400, msg: '操作取值无效' });
    expect(await opt({ action: 'create', name: '排序', sort: -1 })).toMatchObject({ code: 400, msg: '排序不能小于0' });
    expect(await opLogCount(t)).toBe(before);
    expect(await zoneRow(t, b)).toMatchObject({ name: '另一专区', member_count: 1 });
  });

  it('lists by sort then id, pages, and refuses bad filters', async () => {
    const r = await list({ size: 2 });
    expect(r.data.list).toHaveLength(2);
    const all = (await list({ size: 100 })).data.list as Array<{ sort: number; id: number }>;
    const sorted = [...all].sort((x, y) => x.sort - y.sort || x.id - y.id);
    expect(all).toEqual(sorted);
    expect((await list({ name: '%' })).data.total).toBe(0);
    expect(await list({ status: 2 })).toMatchObject({ code: 400, msg: '状态取值无效' });
    expect(await list({ sort: 'name' })).toMatchObject({ code: 400, msg: '排序字段取值无效' });
  });

  it('answers 403 without zone:view or zone:opt', async () => {
    const viewer = await actingAs(t, 'zoneviewer', ['zone:view']);
    const nobody = await actingAs(t, 'zonenobody', ['member:view']);
    expect(await list({}, nobody.token)).toMatchObject({ code: 403, msg: '无权限' });
    expect((await list({}, viewer.token)).code).toBe(200);
    const before = await opLogCount(t);
    expect(await opt({ action: 'create', name: '无权专区' }, viewer.token)).toMatchObject({ code: 403, msg: '无权限' });
    expect(await opLogCount(t)).toBe(before);
  });
});
