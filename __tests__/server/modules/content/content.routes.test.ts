import { build, dbKind, type TestApp } from '../../helpers';
import { actingAs, opLogs } from '../system/fixtures';

describe(`notices and texts (${dbKind})`, () => {
  let t: TestApp;
  let token: string;
  const call = (method: 'GET' | 'POST', url: string, body?: Record<string, unknown>, tk = token) =>
    method === 'GET' ? t.call('GET', url, { token: tk, query: body }) : t.call('POST', url, { token: tk, body });
  const opt = (body: Record<string, unknown>, tk = token) => call('POST', '/v1/admin/notice/opt', body, tk);
  const create = async (over: Record<string, unknown> = {}) => {
    const r = await opt({ action: 'create', title: '系统升级通知', content: '<p>今晚 <b>22:00</b> 升级</p>', ...over });
    expect(r.code).toBe(200);
    return r.data as { id: number; status: number };
  };

  beforeEach(async () => {
    t = await build();
    token = await t.login();
  });
  afterEach(() => t.close());

  it('creates a draft with the content sanitized, publishes, takes offline, edits and deletes, each in the op log', async () => {
    const n = await create({
      content:
        '<p onclick="x()">好<img src="javascript:alert(1)"><a href="javascript:alert(1)">链接</a></p><script>alert(1)</script>',
      pinned: true,
    });
    expect(n).toMatchObject({ status: 0, pinned: true, publishedAt: null, title: '系统升级通知' });
    expect((n as unknown as { content: string }).content).toBe('<p>好<a>链接</a></p>');

    t.clock.advance(1000);
    const pub = await opt({ action: 'publish', id: n.id });
    expect(pub.data).toMatchObject({ status: 1, publishedAt: t.clock.now() });
    // A published notice cannot be edited or deleted until it is offline.
    const edit = await opt({ action: 'update', id: n.id, title: '新标题', content: '<p>x</p>' });
    expect(edit).toMatchObject({ code: 409, msg: '已发布的公告不能直接编辑，请先下线' });
    expect(await opt({ action: 'delete', id: n.id })).toMatchObject({
      code: 409,
      msg: '已发布的公告不能删除，请先下线',
    });
    expect(await opt({ action: 'publish', id: n.id })).toMatchObject({ code: 409, msg: '该公告已发布' });

    expect((await opt({ action: 'offline', id: n.id })).data).toMatchObject({ status: 2 });
    expect(await opt({ action: 'offline', id: n.id })).toMatchObject({ code: 409, msg: '只有已发布的公告可以下线' });
    const edited = await opt({
      action: 'update',
      id: n.id,
      title: '新标题',
      content: '<p>x</p>',
      pinned: false,
      publish: true,
    });
    expect(edited.data).toMatchObject({ title: '新标题', content: '<p>x</p>', pinned: false, status: 1 });
    await opt({ action: 'offline', id: n.id });
    expect((await opt({ action: 'delete', id: n.id })).data).toBeNull();
    expect(await opt({ action: 'publish', id: n.id })).toMatchObject({ code: 404, msg: '公告不存在' });

    const logs = (await opLogs(t)).filter((l) => l.permission_code === 'notice:opt').map((l) => l.summary);
    expect(logs).toEqual([
      `新增公告 #${n.id}「系统升级通知」（置顶）（草稿）`,
      `发布公告 #${n.id}「系统升级通知」`,
      `下线公告 #${n.id}「系统升级通知」`,
      `编辑公告 #${n.id}「系统升级通知」：标题 系统升级通知→新标题，内容已修改，置顶 是→否，并发布`,
      `下线公告 #${n.id}「新标题」`,
      `删除公告 #${n.id}「新标题」（已下线）`,
    ]);
  });

  it('refuses empty content, a missing id and unknown fields with messages naming them', async () => {
    expect(await opt({ action: 'create', title: '标题', content: '<p> </p><script>x</script>' })).toMatchObject({
      code: 400,
      msg: '内容不能为空',
    });
    expect(await opt({ action: 'create', title: '  ', content: '<p>x</p>' })).toMatchObject({
      code: 400,
      msg: '请填写标题',
    });
    expect(await opt({ action: 'publish' })).toMatchObject({ code: 400, msg: '请指定公告ID' });
    const long = await opt({ action: 'create', title: 'x'.repeat(101), content: '<p>x</p>' });
    expect(long.code).toBe(400);
    expect(long.msg).toContain('标题');
    const bad = await opt({ action: 'archive', id: 1 });
    expect(bad.code).toBe(400);
    expect(bad.msg).toContain('操作');
    const ctl = await opt({ action: 'create', title: '标\u0007题', content: '<p>x</p>' });
    expect(ctl.code).toBe(400);
    expect(ctl.msg).toContain('标题');
    expect(await opt({ action: 'create', title: '图', content: '<p><img src="/uploads/a/b.webp"></p>' })).toMatchObject(
      {
        code: 200,
      },
    );
  });

  it('lists pinned first, newest first, filtered by title and status, with exact totals', async () => {
    const a = await create({ title: '活动公告 A' });
    const b = await create({ title: '活动公告 B', pinned: true });
    const c = await create({ title: '维护通知' });
    await opt({ action: 'publish', id: c.id });
    let r = await call('GET', '/v1/admin/notice/list');
    expect(r.data.list.map((n: { id: number }) => n.id)).toEqual([b.id, c.id, a.id]);
    expect(r.data.total).toBe(3);
    r = await call('GET', '/v1/admin/notice/list', { keyword: '活动', size: 1 });
    expect(r.data).toMatchObject({ total: 2, page: 1, size: 1 });
    expect(r.data.list[0].id).toBe(b.id);
    r = await call('GET', '/v1/admin/notice/list', { status: 1 });
    expect(r.data.list.map((n: { id: number }) => n.id)).toEqual([c.id]);
    r = await call('GET', '/v1/admin/notice/list', { keyword: '%' });
    expect(r.data.total).toBe(0);
  });

  it('refuses an edit over a newer version, and keeps 置顶 when an edit leaves it out', async () => {
    const n = (await create({ pinned: true })) as unknown as { id: number; updatedAt: number };
    t.clock.advance(1000);
    const first = await opt({
      action: 'update',
      id: n.id,
      title: '甲改的',
      content: '<p>甲</p>',
      updatedAt: n.updatedAt,
    });
    expect(first.data).toMatchObject({ title: '甲改的', pinned: true, updatedAt: t.clock.now() });
    const second = await opt({
      action: 'update',
      id: n.id,
      title: '乙改的',
      content: '<p>乙</p>',
      updatedAt: n.updatedAt,
    });
    expect(second).toMatchObject({ code: 409, msg: '公告已被其他管理员修改，请刷新后再编辑' });
    // Two editors racing on the same version: one wins.
    const v = first.data.updatedAt;
    t.clock.advance(1000);
    const race = await Promise.all(
      [1, 2, 3, 4].map((i) =>
        opt({ action: 'update', id: n.id, title: `第${i}版`, content: '<p>x</p>', updatedAt: v }),
      ),
    );
    expect(race.filter((r) => r.code === 200)).toHaveLength(1);
    expect(race.filter((r) => r.code === 409)).toHaveLength(3);
  });

  it('gives one winner when two managers publish (or delete) the same notice at once', async () => {
    const n = await create();
    const results = await Promise.all(Array.from({ length: 10 }, () => opt({ action: 'publish', id: n.id })));
    expect(results.filter((r) => r.code === 200)).toHaveLength(1);
    expect(results.filter((r) => r.code === 409)).toHaveLength(9);
    await opt({ action: 'offline', id: n.id });
    const dels = await Promise.all(Array.from({ length: 10 }, () => opt({ action: 'delete', id: n.id })));
    expect(dels.filter((r) => r.code === 200)).toHaveLength(1);
    expect((await opLogs(t)).filter((l) => l.summary.startsWith('发布公告'))).toHaveLength(1);
  });

  it('keeps the two texts apart, sanitizes them, refuses other ids and a save over a newer version', async () => {
    const empty = await call('GET', '/v1/admin/protocol', { id: 8 });
    expect(empty.data).toEqual({ id: 8, title: '玩法说明', content: '', updatedAt: null, updatedBy: '' });
    const saved = await call('POST', '/v1/admin/protocol', {
      id: 8,
      title: '玩法说明',
      content: '<h2>规则</h2><p style="color:red" onmouseover="x()">每日释放</p><iframe src="https://x"></iframe>',
      updatedAt: 0,
    });
    expect(saved.data).toMatchObject({ id: 8, content: '<h2>规则</h2><p>每日释放</p>', updatedBy: 'admin' });
    expect((await call('GET', '/v1/admin/protocol', { id: 6 })).data.content).toBe('');
    // A second editor that loaded the never-saved text is refused: the first save came in between.
    const stale = await call('POST', '/v1/admin/protocol', {
      id: 8,
      title: '玩法说明',
      content: '<p>旧</p>',
      updatedAt: 0,
    });
    expect(stale).toMatchObject({ code: 409, msg: '该文案已被其他管理员修改，请刷新后再编辑' });
    t.clock.advance(1000);
    const next = await call('POST', '/v1/admin/protocol', {
      id: 8,
      title: '玩法',
      content: '<p>新</p>',
      updatedAt: saved.data.updatedAt,
    });
    expect(next.data).toMatchObject({ title: '玩法', content: '<p>新</p>', updatedAt: t.clock.now() });
    expect(await call('GET', '/v1/admin/protocol', { id: 7 })).toMatchObject({
      code: 400,
      msg: '文案 ID 只能是 6（平台介绍）或 8（玩法说明）',
    });
    const logs = (await opLogs(t)).filter((l) => l.permission_code === 'play:update').map((l) => l.summary);
    expect(logs).toEqual(['修改玩法说明：内容已修改', '修改玩法说明：标题 玩法说明→玩法，内容已修改']);
  });

  it('enforces each page and action permission on the server', async () => {
    const reader = await actingAs(t, 'reader', ['notice:view', 'intro:view']);
    expect((await call('GET', '/v1/admin/notice/list', {}, reader.token)).code).toBe(200);
    expect((await opt({ action: 'create', title: 'x', content: '<p>x</p>' }, reader.token)).code).toBe(403);
    expect((await call('GET', '/v1/admin/protocol', { id: 6 }, reader.token)).code).toBe(200);
    expect((await call('GET', '/v1/admin/protocol', { id: 8 }, reader.token)).code).toBe(403);
    const intro = await actingAs(t, 'intro', ['intro:view', 'intro:update']);
    const body = { id: 8, title: '玩法说明', content: '<p>x</p>' };
    expect((await call('POST', '/v1/admin/protocol', body, intro.token)).code).toBe(403);
    expect((await call('POST', '/v1/admin/protocol', { ...body, id: 6, title: '平台介绍' }, intro.token)).code).toBe(
      200,
    );
  });
});
