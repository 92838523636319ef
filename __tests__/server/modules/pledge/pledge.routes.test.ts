import { formatTime } from '../../../../domain/time';
import { dateOfDay, dayOf } from '../../../../server/db/dayBuckets';
import { balancesOf, billStatViolations, ledgerViolations } from '../../../../server/modules/ledger/ledger.service';
import { pledgeCounterViolations } from '../../../../server/modules/pledge/pledge.query';
import { pledgeExport } from '../../../../server/modules/pledge/pledge.export';
import { createMode, pledge } from '../../../../server/modules/pledge/pledge.service';
import { settleDay } from '../../../../server/modules/settlement/settlement.service';
import { expectCursorPagingMatchesOffset } from '../../paging';
import { expectCopyMatchesBatches } from '../../exportCompare';
import { build, dbKind, type TestApp } from '../../helpers';
import { addMember, billsOf, credit } from '../deposits/fixtures';
import { actingAs, opLogCount, opLogs } from '../system/fixtures';

const DAY = 86_400_000;
const LZ = 10_000n;

const MODE = { name: '稳健30天', days: 30, rate: '0.0123', minAmount: '100', maxAmount: '100000', sort: 1 };

describe(`pledge (${dbKind})`, () => {
  let t: TestApp;
  let token: string;
  let memberId: number;
  const update = (body: Record<string, unknown>, tk = token) =>
    t.call('POST', '/v1/admin/pledge/mode/update', { token: tk, body });
  const modes = (tk = token) => t.call('GET', '/v1/admin/pledge/mode/list', { token: tk });
  const list = (query: Record<string, unknown> = {}, tk = token) =>
    t.call('GET', '/v1/admin/pledge/list', { token: tk, query });
  const releases = (query: Record<string, unknown> = {}, tk = token) =>
    t.call('GET', '/v1/admin/pledge/release/list', { token: tk, query });
  const exportOf = (query: Record<string, string | number>, tk = token) =>
    t.app.inject({
      method: 'GET',
      url: '/v1/admin/pledge/export',
      query: Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)])),
      headers: { authorization: tk },
    });
  const mode = async (over: Record<string, unknown> = {}) => {
    const r = await update({ ...MODE, ...over });
    expect(r.code).toBe(200);
    return r.data as { id: number; name: string };
  };
  const stake = (modeId: number, lz: bigint, who = memberId) =>
    pledge(t.app.ctx, { memberId: who, modeId, amount: lz * LZ });
  const consistent = async () => {
    expect(await ledgerViolations(t.db.db)).toEqual([]);
    expect(await billStatViolations(t.db.db)).toEqual([]);
    expect(await pledgeCounterViolations(t.db.db)).toEqual({ pledges: [], members: [], releases: [] });
  };

  beforeEach(async () => {
    t = await build();
    token = await t.login();
    memberId = await addMember(t);
    await credit(t, memberId, 'LZ', '100000');
  });
  afterEach(() => t.close());

  describe('pledge/mode', () => {
    it('creates and edits a mode with its op-log row (old → new) and lists modes by sort then id', async () => {
      const before = await opLogCount(t);
      const a = await mode();
      expect(a).toMatchObject({
        name: '稳健30天',
        days: 30,
        rate: '0.0123',
        minAmount: '100',
        maxAmount: '100000',
        status: 1,
        sort: 1,
        inUse: 0,
      });
      const b = await mode({ name: '灵活7天', days: 7, rate: '0.002', sort: 0 });
      expect((await modes()).data.list.map((m: any) => m.id)).toEqual([b.id, a.id]);
      const edited = await update({ id: a.id, ...MODE, rate: '0.015', maxAmount: '5000', status: 0 });
      expect(edited.data).toMatchObject({ id: a.id, rate: '0.015', maxAmount: '5000', status: 0 });
      expect(await opLogCount(t)).toBe(before + 3);
      const log = (await opLogs(t)).at(-1)!;
      expect(log).toMatchObject({
        permission_code: 'pledgeMode:update',
        target: `pledgeMode#${a.id}`,
        username: 'admin',
      });
      expect(log.summary).toBe(
        `编辑质押模式 #${a.id} 稳健30天：日收益率 1.23%→1.5%，最高金额 100000→5000，状态 启用→停用`,
      );
      expect((await opLogs(t)).at(-3)!.summary).toContain('新增质押模式');
      // status and sort keep their value when an edit leaves them out
      const again = await update({ id: a.id, ...MODE, status: undefined, sort: undefined });
      expect(again.data).toMatchObject({ status: 0, sort: 1 });
    });

    it('refuses bad values naming the field, duplicate names and a missing mode', async () => {
      const a = await mode();
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ name: '' }, '模式名称不能为空'],
        [{ name: '   ' }, '模式名称不能为空'],
        [{ name: 'x'.repeat(41) }, '模式名称长度不能超过40个字符'],
        [{ days: 0 }, '天数不能小于1'],
        [{ days: 3651 }, '天数不能大于3650'],
        [{ days: 1.5 }, '天数格式不正确'],
        [{ rate: '0' }, '日收益率必须大于0'],
        [{ rate: '-0.01' }, '日收益率不能为负数'],
        [{ rate: '0.0500001' }, '日收益率小数位数过多'],
        [{ rate: '0.050001' }, '日收益率不能超过0.05'],
        [{ rate: 'abc' }, '日收益率格式不正确'],
        [{ minAmount: '0' }, '最低金额必须大于0'],
        [{ minAmount: '1.00001' }, '最低金额小数位数过多'],
        [{ maxAmount: '10000000001' }, '最高金额不能超过10000000000'],
        [{ minAmount: '500', maxAmount: '499.9999' }, '最高金额不能低于最低金额'],
        [{ status: 2 }, '状态取值无效'],
        [{ sort: -1 }, '排序不能小于0'],
        [{ name: '稳健30天' }, '模式名称已存在'],
        [{ name: ' 稳健30天 ' }, '模式名称已存在'],
      ];
      for (const [over, msg] of cases) {
        expect({ over, r: await update({ ...MODE, name: '新模式', ...over }) }).toMatchObject({
          over,
          r: { code: 400, msg },
        });
      }
      expect(await update({ ...MODE, rate: 0.01 })).toMatchObject({ code: 400 });
      expect(await update({ ...MODE, name: '新模式', id: 99999 })).toMatchObject({ code: 404, msg: '质押模式不存在' });
      const b = await mode({ name: '另一个' });
      expect(await update({ ...MODE, id: b.id })).toMatchObject({ code: 400, msg: '模式名称已存在' });
      expect(await update({ ...MODE, id: a.id, rate: '0.05' })).toMatchObject({ code: 200 });
      expect((await modes()).data.list).toHaveLength(2);
    });

    it('checks permissions on every route', async () => {
      const a = await mode();
      const viewer = await actingAs(t, 'viewer1', ['pledge:view', 'pledgeMode:view']);
      expect(await update({ ...MODE, id: a.id, status: 0 }, viewer.token)).toMatchObject({ code: 403, msg: '无权限' });
      expect((await modes(viewer.token)).code).toBe(200);
      expect((await list({}, viewer.token)).code).toBe(200);
      expect((await releases({}, viewer.token)).code).toBe(200);
      const res = await exportOf({}, viewer.token);
      expect(res.json()).toMatchObject({ code: 403 });
      const nobody = await actingAs(t, 'nobody1', ['bill:view']);
      expect(await modes(nobody.token)).toMatchObject({ code: 403 });
      expect(await list({}, nobody.token)).toMatchObject({ code: 403 });
      expect(await releases({}, nobody.token)).toMatchObject({ code: 403 });
      expect(await t.call('GET', '/v1/admin/pledge/list')).toMatchObject({ code: 301 });
    });

    it('50 concurrent edits of one mode: each commits once, logs what it replaced, and the last wins', async () => {
      const a = await mode();
      const before = await opLogCount(t);
      const results = await Promise.all(
        Array.from({ length: 50 }, (_, i) => update({ id: a.id, ...MODE, status: i % 2, sort: i })),
      );
      expect(results.filter((r) => r.code === 200)).toHaveLength(50);
      const logs = (await opLogs(t)).slice(before);
      expect(logs).toHaveLength(50);
      // Each edit saw the one committed before it: the sorts logged form one chain 1 → … → last.
      const chain = logs
        .map((l) => /排序 (\d+)→(\d+)/.exec(l.summary))
        .filter((m): m is RegExpExecArray => !!m)
        .map((m) => [Number(m[1]), Number(m[2])]);
      for (let i = 1; i < chain.length; i++) expect(chain[i][0]).toBe(chain[i - 1][1]);
      const final = (await modes()).data.list[0];
      expect(final.sort).toBe(chain.at(-1)![1]);
      expect(final.status).toBe(final.sort % 2);
    });
  });

  describe('pledge (member side)', () => {
    it('locks the LZ with bill 质押锁定 and snapshots the terms of the mode', async () => {
      const a = await mode();
      const r = await stake(a.id, 1000n);
      expect(r).toMatchObject({ amount: '1000', dailyYield: '12.3', totalYield: '369', modeName: '稳健30天' });
      expect((await balancesOf(t.db.db, memberId)).LZ).toEqual({ available: 99_000n * LZ, frozen: 0n });
      expect((await billsOf(t, memberId)).at(-1)).toEqual({
        type: 7,
        asset: 'LZ',
        change: String(-1000n * LZ),
        frozen: '0',
        ref_kind: 'pledge',
        ref_id: r.id,
      });
      await update({ id: a.id, ...MODE, name: '改名', rate: '0.001', days: 7 });
      const row = (await list()).data.list[0];
      const S = dayOf(t.clock.now());
      expect(row).toMatchObject({
        id: r.id,
        memberId,
        modeId: a.id,
        modeName: '稳健30天',
        amount: '1000',
        rate: '0.0123',
        days: 30,
        dailyYield: '12.3',
        totalYield: '369',
        released: '0',
        status: 1,
        finishedAt: null,
      });
      expect(row.startDate).toBe(new Date(S * DAY).toISOString().slice(0, 10));
      expect(row.endDate).toBe(new Date((S + 30) * DAY).toISOString().slice(0, 10));
      expect((await modes()).data.list[0].inUse).toBe(1);
      await consistent();
    });

    it('refuses a disabled or missing mode, amounts outside min/max, frozen members and a short balance', async () => {
      const a = await mode();
      await expect(stake(a.id, 99n)).rejects.toThrow('质押数量不能低于100');
      await expect(stake(a.id, 100001n)).rejects.toThrow('质押数量不能高于100000');
      await expect(stake(99999, 100n)).rejects.toThrow('质押模式不存在');
      const frozen = await addMember(t, { status: 2 });
      await credit(t, frozen, 'LZ', '1000');
      await expect(stake(a.id, 100n, frozen)).rejects.toThrow('会员已冻结');
      const poor = await addMember(t);
      await credit(t, poor, 'LZ', '99.9999');
      await credit(t, poor, 'LZ', '100');
      await expect(stake(a.id, 200n, poor)).rejects.toThrow('可用余额不足');
      await update({ id: a.id, ...MODE, status: 0 });
      await expect(stake(a.id, 100n)).rejects.toThrow('该质押模式已停用');
      expect((await list()).data.total).toBe(0);
      await consistent();
    });

    it("50 concurrent pledges of one member's last LZ: exactly as many as the balance allows", async () => {
      const a = await mode();
      const m = await addMember(t);
      await credit(t, m, 'LZ', '1050');
      const results = await Promise.allSettled(Array.from({ length: 50 }, () => stake(a.id, 100n, m)));
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(10);
      const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
      expect(new Set(refused.map((r) => (r.reason as Error).message))).toEqual(new Set(['可用余额不足']));
      expect((await balancesOf(t.db.db, m)).LZ).toEqual({ available: 50n * LZ, frozen: 0n });
      expect((await list({ memberId: m })).data).toMatchObject({ total: 10, sum: { amount: '1000', released: '0' } });
      await consistent();
    }, 60_000);
  });

  describe('pledge/list, release/list and export', () => {
    it('filters with exact totals and sums, and answers the last settlement run', async () => {
      const a = await mode();
      const b = await mode({ name: '灵活2天', days: 2, rate: '0.01' });
      const other = await addMember(t);
      await credit(t, other, 'LZ', '10000');
      const p1 = await stake(a.id, 1000n);
      const p2 = await stake(b.id, 300n);
      const p3 = await stake(b.id, 500n, other);
      const all = await list();
      expect(all.data).toMatchObject({
        total: 3,
        page: 1,
        size: 20,
        sum: { amount: '1800', released: '0' },
        lastRun: null,
      });
      expect(all.data.list.map((r: any) => r.id)).toEqual([p3.id, p2.id, p1.id]);
      expect((await list({ modeId: b.id })).data).toMatchObject({ total: 2, sum: { amount: '800' } });
      expect((await list({ status: 2 })).data).toMatchObject({ total: 0, sum: { amount: '0', released: '0' } });
      const uid = (await t.db.db.selectFrom('member').select('uid').where('id', '=', other).executeTakeFirstOrThrow())
        .uid;
      expect((await list({ keyword: uid })).data.list.map((r: any) => r.id)).toEqual([p3.id]);
      expect((await list({ keyword: '00000000' })).data.total).toBe(0);
      expect((await list({ memberId, modeId: b.id })).data.list.map((r: any) => r.id)).toEqual([p2.id]);
      expect((await list({ start: String(t.clock.now() + 1) })).data).toMatchObject({ total: 0 });
      expect(await list({ status: 3 })).toMatchObject({ code: 400, msg: '状态取值无效' });
      expect(await list({ start: 'x' })).toMatchObject({ code: 400, msg: '开始时间格式不正确' });

      // Settle the next two days: mode b (2 days) ends, with its principal back (bill 质押赎回).
      const S = dayOf(t.clock.now());
      t.clock.advance(3 * DAY);
      expect((await settleDay(t.app.ctx, S + 1)).outcome).toBe('done');
      expect((await settleDay(t.app.ctx, S + 2)).outcome).toBe('done');
      token = await t.login(); // the session idled out over the three days
      const after = await list();
      // p1: 12.3 × 2; p2: 3 × 2; p3: 5 × 2
      expect(after.data.sum).toEqual({ amount: '1800', released: '40.6' });
      expect(after.data.lastRun).toMatchObject({ status: 2, statusText: '已完成', pledges: 3 });
      expect((await list({ status: 2 })).data).toMatchObject({ total: 2, sum: { amount: '800', released: '16' } });
      expect((await list({ status: 1, modeId: a.id })).data).toMatchObject({ total: 1, sum: { released: '24.6' } });
      const finished = (await list({ status: 2 })).data.list.find((r: any) => r.id === p2.id);
      expect(finished).toMatchObject({ status: 2, released: '6' });
      expect(finished.finishedAt).not.toBeNull();

      const rel = await releases({ pledgeId: p2.id });
      expect(rel.data).toMatchObject({ total: 2, sum: { amount: '6', principal: '300' } });
      expect(rel.data.list.map((r: any) => [r.day, r.amount, r.principal])).toEqual([
        [new Date((S + 2) * DAY).toISOString().slice(0, 10), '3', '300'],
        [new Date((S + 1) * DAY).toISOString().slice(0, 10), '3', '0'],
      ]);
      expect((await releases()).data).toMatchObject({ total: 6, sum: { amount: '40.6', principal: '800' } });
      const day2 = new Date((S + 2) * DAY).toISOString().slice(0, 10);
      expect((await releases({ start: day2, end: day2 })).data).toMatchObject({ total: 3 });
      expect((await releases({ keyword: uid })).data).toMatchObject({ total: 2, sum: { principal: '500' } });
      expect((await releases({ memberId })).data.total).toBe(4);
      expect((await modes()).data.list.map((m: any) => m.inUse)).toEqual([1, 0]);
      const types = (await billsOf(t, memberId)).map((x) => x.type);
      expect(types.filter((x) => x === 8)).toHaveLength(4);
      expect(types.filter((x) => x === 9)).toHaveLength(1);
      await consistent();
    });

    it('pages pledges and releases by cursor exactly as by page number', async () => {
      const a = await mode({ days: 3, minAmount: '1' });
      const other = await addMember(t);
      await credit(t, other, 'LZ', '10000');
      for (let i = 0; i < 9; i++) await stake(a.id, BigInt(10 + i), i % 3 === 0 ? other : memberId);
      await expectCursorPagingMatchesOffset((q) => list(q), {}, 4);
      await expectCursorPagingMatchesOffset((q) => list(q), { memberId }, 2);
      await expectCursorPagingMatchesOffset((q) => list(q), { status: 1, modeId: a.id }, 4);
      const S = dayOf(t.clock.now());
      t.clock.advance(4 * DAY);
      for (let d = S + 1; d <= S + 3; d++) await settleDay(t.app.ctx, d);
      token = await t.login(); // the session idled out over the four days
      expect((await releases()).data.total).toBe(27);
      await expectCursorPagingMatchesOffset((q) => releases(q), {}, 5);
      await expectCursorPagingMatchesOffset((q) => releases(q), { memberId }, 4);
      await consistent();
    });

    it('exports every matching row as csv and xlsx with Chinese headers', async () => {
      const a = await mode();
      await stake(a.id, 1000n);
      await stake(a.id, 123n);
      const csv = await exportOf({ format: 'csv', modeId: a.id });
      expect(csv.statusCode).toBe(200);
      expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(csv.headers['content-disposition']).toContain(`filename*=UTF-8''${encodeURIComponent('质押记录_')}`);
      const text = csv.rawPayload.toString('utf8');
      expect(text.startsWith('\ufeffID,会员UID,手机号,昵称,质押模式,质押数量(LZ),日收益率,天数,')).toBe(true);
      const lines = text.slice(1).trimEnd().split('\r\n');
      expect(lines).toHaveLength(3);
      expect(lines[1]).toContain(',稳健30天,123,1.23%,30,1.5129,45.387,0,');
      expect(lines[1]).toContain(',质押中,');
      const xlsx = await exportOf({});
      expect(xlsx.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
      expect(xlsx.rawPayload.length).toBeGreaterThan(100);
      const none = await exportOf({ format: 'csv', status: 2 });
      expect(none.rawPayload.toString('utf8').slice(1).trimEnd().split('\r\n')).toHaveLength(1);
      expect((await exportOf({ start: 'bad' })).json()).toMatchObject({ code: 400, msg: '开始时间格式不正确' });
    });

    it('makes the same CSV from COPY (PostgreSQL) as from its batches, for every status, filter and text', async () => {
      const a = await mode({ name: '=稳健"三十",天', rate: '0.012345' });
      const b = await mode({ name: '灵活2天', days: 2, rate: '0.01' });
      const other = await addMember(t);
      await credit(t, other, 'LZ', '10000');
      await t.db.db.updateTable('member').set({ nickname: '+会员,"甲"\n第二行' }).where('id', '=', other).execute();
      const p1 = await stake(a.id, 1000n);
      t.clock.advance(61_000);
      const p2 = await stake(b.id, 300n);
      await stake(b.id, 500n, other);
      await stake(a.id, 123n, other);
      // Two days settled: the 2-day pledges end (已到期, a finish time), the 30-day ones have released some.
      const S = dayOf(t.clock.now());
      t.clock.advance(3 * DAY);
      for (const d of [S + 1, S + 2]) expect((await settleDay(t.app.ctx, d)).outcome).toBe('done');
      token = await t.login(); // the session idled out over the three days
      const uid = (await t.db.db.selectFrom('member').select('uid').where('id', '=', other).executeTakeFirstOrThrow())
        .uid;
      const [csv] = await expectCopyMatchesBatches(t, token, '/v1/admin/pledge/export', pledgeExport, [
        {},
        { status: 1 },
        { status: 2 },
        { modeId: a.id },
        { keyword: uid },
        { memberId },
        { start: String(t.clock.now() - 3 * DAY - 30_000), end: String(t.clock.now()) },
      ]);
      expect(csv.slice(1).trimEnd().split('\r\n')).toHaveLength(5);
      expect(csv).toContain(`,"'+会员,""甲""\n第二行","'=稳健""三十"",天",123,`);
      // Every cell of the ended one where it belongs: both paths share the indexes, so a swap would pass above.
      const row = await t.db.db
        .selectFrom('pledge as p')
        .innerJoin('member as m', 'm.id', 'p.member_id')
        .select(['m.uid', 'm.phone', 'm.nickname', 'p.start_day', 'p.end_day', 'p.created_at', 'p.finished_at'])
        .where('p.id', '=', p2.id)
        .executeTakeFirstOrThrow();
      expect(Number(row.end_day)).toBeGreaterThan(Number(row.start_day));
      const cells = [p2.id, row.uid, row.phone, row.nickname, '灵活2天', '300', '1%', '2', '3', '6', '6'];
      const dates = [dateOfDay(Number(row.start_day)), dateOfDay(Number(row.end_day)), '已到期'];
      const times = [formatTime(Number(row.created_at)), formatTime(Number(row.finished_at))];
      expect(times[0]).not.toBe(times[1]);
      const lines = csv.slice(1).split('\r\n');
      expect(lines.find((l) => l.startsWith(`${p2.id},`))).toBe([...cells, ...dates, ...times].join(','));
      expect(lines.find((l) => l.startsWith(`${p1.id},`))).toContain(',1000,1.2345%,30,12.345,370.35,24.69,');
    });
  });

  it('createMode (demo and simulator) acts as admin', async () => {
    const m = await createMode(t.app.ctx, { ...MODE, name: '演示' });
    expect(m).toMatchObject({ name: '演示', status: 1 });
    expect((await opLogs(t)).at(-1)).toMatchObject({ username: 'admin', permission_code: 'pledgeMode:update' });
  });
});
