import { BillType } from '../../../../domain/bills';
import { verifyPassword } from '../../../../server/passwords';
import { balancesOf, ledgerViolations } from '../../../../server/modules/ledger/ledger.service';
import { phonePrefixRange } from '../../../../server/modules/members/members.query';
import { build, dbKind, type TestApp } from '../../helpers';
import { billsOf, credit } from '../deposits/fixtures';
import { actingAs, opLogCount, opLogs } from '../system/fixtures';
import { makeMember, makeZone, memberRow, zoneRow } from './fixtures';

// Building an app on PostgreSQL under a busy machine can take more than the default 5 s.
jest.setTimeout(60_000);

describe(`members (${dbKind})`, () => {
  let t: TestApp;
  let token: string;
  const list = (query: Record<string, unknown> = {}, tk = token) =>
    t.call('GET', '/v1/admin/member/list', { token: tk, query });
  const create = (body: Record<string, unknown>, tk = token) =>
    t.call('POST', '/v1/admin/member/create', { token: tk, body });
  const opt = (body: Record<string, unknown>, tk = token) =>
    t.call('POST', '/v1/admin/member/opt', { token: tk, body });

  beforeAll(async () => {
    t = await build();
    token = await t.login();
  });
  afterAll(() => t.close());

  describe('phonePrefixRange', () => {
    it('gives an index range for a digit prefix, open after a run of 9s', () => {
      expect(phonePrefixRange('138')).toEqual({ low: '138', high: '139' });
      expect(phonePrefixRange('1399')).toEqual({ low: '1399', high: '1400' });
      expect(phonePrefixRange('0199')).toEqual({ low: '0199', high: '0200' });
      expect(phonePrefixRange('999')).toEqual({ low: '999', high: undefined });
    });
  });

  describe('member/create', () => {
    it('creates a member with an 8-digit uid, argon2 password, accounts, zone count and one op-log row', async () => {
      const zone = await makeZone(t, '创建专区');
      const inviter = await makeMember(t);
      const before = await opLogCount(t);
      const r = await create({
        phone: '13800000001',
        password: 'abc12345',
        nickname: '张三',
        inviterUid: inviter.uid,
        zoneId: zone,
      });
      expect(r).toMatchObject({
        code: 200,
        data: { id: expect.any(Number), uid: expect.stringMatching(/^[1-9]\d{7}$/) },
      });
      const row = await memberRow(t, r.data.id);
      expect(row).toMatchObject({ phone: '13800000001', nickname: '张三', zone_id: zone, status: 1, level: 0 });
      expect(Number(row.inviter_id)).toBe(inviter.id);
      expect(await verifyPassword(row.password_hash, 'abc12345')).toBe(true);
      expect(row.password_hash).toMatch(/^\$argon2id\$/);
      expect(await balancesOf(t.db.db, r.data.id)).toEqual({
        USDT: { available: 0n, frozen: 0n },
        LZ: { available: 0n, frozen: 0n },
        ENERGY: { available: 0n, frozen: 0n },
      });
      const accounts = await t.db.db.selectFrom('account').select('asset').where('member_id', '=', r.data.id).execute();
      expect(accounts).toHaveLength(3);
      expect((await zoneRow(t, zone))?.member_count).toBe(1);
      expect(await opLogCount(t)).toBe(before + 1);
      expect((await opLogs(t)).at(-1)).toMatchObject({
        permission_code: 'member:create',
        target: `member#${r.data.id} (${r.data.uid})`,
        summary: expect.stringContaining('新增会员'),
      });
    });

    it('refuses a taken phone, an unknown inviter, a missing or disabled zone and bad fields', async () => {
      const off = await makeZone(t, '停用专区');
      await t.db.db.updateTable('zone').set({ status: 0 }).where('id', '=', off).execute();
      const good = { phone: '13800000002', password: 'abc12345', nickname: '李四' };
      const before = await opLogCount(t);
      const n = (await t.db.db.selectFrom('member').select('id').execute()).length;
      for (const [body, msg] of [
        [{ ...good, phone: '13800000001' }, '手机号已注册'],
        [{ ...good, inviterUid: '99999999' }, '邀请人不存在'],
        [{ ...good, zoneId: 99999 }, '专区不存在'],
        [{ ...good, zoneId: off }, '专区已停用'],
        [{ ...good, phone: '12800000002' }, '手机号格式不正确'],
        [{ ...good, phone: '1380000000' }, '手机号格式不正确'],
        [{ ...good, password: '12345678' }, '登录密码格式不正确'],
        [{ ...good, password: 'ab1' }, '登录密码格式不正确'],
        [{ ...good, nickname: '' }, '昵称不能为空'],
        [{ ...good, nickname: '   ' }, '昵称不能为空'],
        [{ phone: good.phone, password: good.password }, '昵称不能为空'],
        [{ ...good, extra: 1 }, '不支持的参数：extra'],
      ] as const) {
        expect(await create(body)).toMatchObject({ code: 400, msg });
      }
      expect((await t.db.db.selectFrom('member').select('id').execute()).length).toBe(n);
      expect(await opLogCount(t)).toBe(before);
    });

    it('answers 403 without member:create', async () => {
      const viewer = await actingAs(t, 'viewer1', ['member:view', 'member:opt', 'member:adjust']);
      expect(await create({ phone: '13800000003', password: 'abc12345', nickname: '王五' }, viewer.token)).toEqual({
        code: 403,
        msg: '无权限',
        data: null,
      });
    });
  });

  describe('member/list', () => {
    let zoneA: number;
    let boss: { id: number; uid: string };
    let m1: { id: number; uid: string };
    beforeAll(async () => {
      zoneA = await makeZone(t, '列表专区');
      boss = await makeMember(t, { phone: '15900000000', nickname: '老板' });
      m1 = await makeMember(t, {
        phone: '15900000011',
        nickname: '列表一',
        inviterUid: boss.uid,
        zoneId: zoneA,
        level: 3,
      });
      t.clock.advance(1000);
      await makeMember(t, { phone: '15900000012', nickname: '列表二', inviterUid: boss.uid, status: 2 });
      t.clock.advance(1000);
      await makeMember(t, { phone: '15910000013', nickname: '列表三', zoneId: zoneA, status: 3, level: 3 });
      await credit(t, m1.id, 'USDT', '12.5');
      await credit(t, m1.id, 'LZ', '0.0001');
    });

    it('pages newest first with the honest total and the page rows’ balances, inviter and zone', async () => {
      const all = await list({ size: 2 });
      expect(all.code).toBe(200);
      const total = (await t.db.db.selectFrom('member').select('id').execute()).length;
      expect(all.data).toMatchObject({ total, page: 1, size: 2 });
      expect(all.data.list).toHaveLength(2);
      expect(all.data.list[0].id).toBeGreaterThan(all.data.list[1].id);
      const r = await list({ keyword: m1.uid });
      expect(r.data.total).toBe(1);
      expect(r.data.list[0]).toEqual({
        id: m1.id,
        uid: m1.uid,
        phone: '15900000011',
        nickname: '列表一',
        inviterUid: boss.uid,
        zoneId: zoneA,
        zoneName: '列表专区',
        level: 3,
        status: 1,
        realNameStatus: 0,
        balances: {
          USDT: { available: '12.5', frozen: '0' },
          LZ: { available: '0.0001', frozen: '0' },
          ENERGY: { available: '0', frozen: '0' },
        },
        createdAt: expect.any(Number),
        lastLoginAt: null,
      });
    });

    it('filters by keyword (uid, phone prefix, nickname), inviter, zone, level, status and registered range', async () => {
      const phones = async (query: Record<string, unknown>) => {
        const r = await list({ size: 100, ...query });
        expect(r.code).toBe(200);
        return r.data.list.map((x: { phone: string }) => x.phone).sort();
      };
      expect(await phones({ keyword: '159000000' })).toEqual(['15900000000', '15900000011', '15900000012']);
      expect(await phones({ keyword: '1591' })).toEqual(['15910000013']);
      expect(await phones({ keyword: '15900000012' })).toEqual(['15900000012']);
      expect(await phones({ keyword: '列表二' })).toEqual(['15900000012']);
      expect(await phones({ keyword: '列表' })).toEqual([]);
      expect(await phones({ keyword: '50%' })).toEqual([]);
      expect(await phones({ inviterUid: boss.uid })).toEqual(['15900000011', '15900000012']);
      expect(await phones({ inviterUid: '99999999' })).toEqual([]);
      expect(await phones({ zoneId: zoneA })).toEqual(['15900000011', '15910000013']);
      expect(await phones({ keyword: '159', level: 3 })).toEqual(['15900000011', '15910000013']);
      expect(await phones({ keyword: '159', status: 2 })).toEqual(['15900000012']);
      expect(await phones({ keyword: '159', status: 3, level: 3, zoneId: zoneA })).toEqual(['15910000013']);
      const now = t.clock.now();
      expect(await phones({ keyword: '159', start: String(now - 500), end: String(now) })).toEqual(['15910000013']);
      expect(await phones({ keyword: '159', end: String(now - 1500) })).toEqual(['15900000000', '15900000011']);
    });

    it('sorts by whitelisted fields only and refuses bad filters naming the field', async () => {
      const r = await list({ keyword: '159', sort: 'level', order: 'desc', size: 100 });
      expect(r.data.list.map((x: { level: number }) => x.level)).toEqual([3, 3, 0, 0]);
      const asc = await list({ keyword: '159', sort: 'createdAt', order: 'asc', size: 100 });
      expect(asc.data.list[0].phone).toBe('15900000000');
      expect(await list({ sort: 'phone' })).toMatchObject({ code: 400, msg: '排序字段取值无效' });
      expect(await list({ level: 9 })).toMatchObject({ code: 400, msg: '等级取值无效' });
      expect(await list({ status: 0 })).toMatchObject({ code: 400, msg: '状态取值无效' });
      expect(await list({ size: 101 })).toMatchObject({ code: 400, msg: '每页条数不能大于100' });
      expect(await list({ start: 'yesterday' })).toMatchObject({ code: 400, msg: '开始时间格式不正确' });
      expect(await list({ start: '2026-02-02', end: '2026-01-01' })).toMatchObject({
        code: 400,
        msg: '开始时间不能晚于结束时间',
      });
    });

    it('answers 403 without member:view', async () => {
      const other = await actingAs(t, 'noview', ['zone:view']);
      expect(await list({}, other.token)).toMatchObject({ code: 403, msg: '无权限' });
    });
  });

  describe('member/opt', () => {
    it('freeze, unfreeze and banWithdraw move the status conditionally, one op-log row each', async () => {
      const m = await makeMember(t);
      const before = await opLogCount(t);
      expect(await opt({ id: m.id, action: 'freeze' })).toMatchObject({ code: 200, data: { id: m.id, status: 2 } });
      expect(await opt({ id: m.id, action: 'freeze' })).toMatchObject({ code: 409, msg: '会员已冻结' });
      expect(await opt({ id: m.id, action: 'banWithdraw' })).toMatchObject({
        code: 409,
        msg: '仅正常状态的会员可以禁止提现',
      });
      expect(await opt({ id: m.id, action: 'unfreeze' })).toMatchObject({ code: 200, data: { status: 1 } });
      expect(await opt({ id: m.id, action: 'unfreeze' })).toMatchObject({ code: 409, msg: '会员状态正常，无需解冻' });
      expect(await opt({ id: m.id, action: 'banWithdraw' })).toMatchObject({ code: 200, data: { status: 3 } });
      expect(await opt({ id: m.id, action: 'banWithdraw' })).toMatchObject({ code: 409 });
      expect(await opt({ id: m.id, action: 'freeze' })).toMatchObject({ code: 200, data: { status: 2 } });
      expect(await opt({ id: m.id, action: 'unfreeze' })).toMatchObject({ code: 200, data: { status: 1 } });
      expect((await memberRow(t, m.id)).status).toBe(1);
      const logs = (await opLogs(t)).slice(before);
      expect(logs.map((l) => l.permission_code)).toEqual(Array(5).fill('member:opt'));
      expect(logs[0]).toMatchObject({
        target: `member#${m.id} (${m.uid})`,
        summary: expect.stringContaining('正常 → 冻结'),
      });
    });

    it('setLevel and setZone change the member, keep zone counts and refuse no-ops', async () => {
      const z1 = await makeZone(t, '专区甲');
      const z2 = await makeZone(t, '专区乙');
      const off = await makeZone(t, '专区丙');
      await t.db.db.updateTable('zone').set({ status: 0 }).where('id', '=', off).execute();
      const m = await makeMember(t, { zoneId: z1 });
      const before = await opLogCount(t);
      expect(await opt({ id: m.id, action: 'setLevel', level: 5 })).toMatchObject({ code: 200, data: { level: 5 } });
      expect(await opt({ id: m.id, action: 'setLevel', level: 5 })).toMatchObject({ code: 409, msg: '会员已是该等级' });
      expect(await opt({ id: m.id, action: 'setLevel' })).toMatchObject({ code: 400, msg: '等级不能为空' });
      expect(await opt({ id: m.id, action: 'setLevel', level: 6 })).toMatchObject({ code: 400, msg: '等级取值无效' });
      expect(await opt({ id: m.id, action: 'setZone', zoneId: z2 })).toMatchObject({ code: 200, data: { zoneId: z2 } });
      expect((await zoneRow(t, z1))?.member_count).toBe(0);
      expect((await zoneRow(t, z2))?.member_count).toBe(1);
      expect(await opt({ id: m.id, action: 'setZone', zoneId: z2 })).toMatchObject({
        code: 409,
        msg: '会员已在该专区',
      });
      expect(await opt({ id: m.id, action: 'setZone', zoneId: off })).toMatchObject({ code: 400, msg: '专区已停用' });
      expect(await opt({ id: m.id, action: 'setZone', zoneId: 99999 })).toMatchObject({ code: 400, msg: '专区不存在' });
      expect(await opt({ id: m.id, action: 'setZone' })).toMatchObject({ code: 400, msg: '专区不能为空' });
      const noZone = await makeMember(t);
      expect(await opt({ id: noZone.id, action: 'setZone', zoneId: z1 })).toMatchObject({ code: 200 });
      expect((await zoneRow(t, z1))?.member_count).toBe(1);
      const logs = (await opLogs(t)).slice(before);
      expect(logs.map((l) => l.summary)).toEqual([
        expect.stringContaining('普通会员 → V5'),
        expect.stringContaining('专区甲 → 专区乙'),
        expect.stringContaining('无 → 专区甲'),
      ]);
    });

    it('resetPassword sets the given password or returns a generated one', async () => {
      const m = await makeMember(t);
      const r = await opt({ id: m.id, action: 'resetPassword' });
      expect(r).toMatchObject({ code: 200, data: { password: expect.stringMatching(/^[A-Za-z\d]{16}$/) } });
      expect(await verifyPassword((await memberRow(t, m.id)).password_hash, r.data.password)).toBe(true);
      const s = await opt({ id: m.id, action: 'resetPassword', password: 'newpass99' });
      expect(s.code).toBe(200);
      expect(s.data.password).toBeUndefined();
      expect(await verifyPassword((await memberRow(t, m.id)).password_hash, 'newpass99')).toBe(true);
      expect(await opt({ id: m.id, action: 'resetPassword', password: 'short' })).toMatchObject({
        code: 400,
        msg: '新密码格式不正确',
      });
      expect((await opLogs(t)).at(-1)).toMatchObject({
        permission_code: 'member:opt',
        summary: expect.stringContaining('重置'),
      });
      expect(JSON.stringify(await opLogs(t))).not.toContain('newpass99');
    });

    it('adjust credits and debits through the ledger with bill 后台调整, never below zero', async () => {
      const m = await makeMember(t);
      const before = await opLogCount(t);
      const up = await opt({ id: m.id, action: 'adjust', asset: 'USDT', amount: '100.5', remark: '补发' });
      expect(up).toMatchObject({ code: 200, data: { balance: { asset: 'USDT', available: '100.5', frozen: '0' } } });
      const down = await opt({ id: m.id, action: 'adjust', asset: 'USDT', amount: '-0.5', remark: '扣回' });
      expect(down).toMatchObject({ code: 200, data: { balance: { available: '100' } } });
      expect(await opt({ id: m.id, action: 'adjust', asset: 'USDT', amount: '-100.000001', remark: '扣多了' })).toEqual(
        {
          code: 409,
          msg: '可用余额不足，当前可用 100.00 USDT',
          data: null,
        },
      );
      expect(await balancesOf(t.db.db, m.id)).toMatchObject({ USDT: { available: 100_000_000n, frozen: 0n } });
      const bills = await billsOf(t, m.id);
      expect(bills).toEqual([
        {
          type: BillType.adminAdjust,
          asset: 'USDT',
          change: '100500000',
          frozen: '0',
          ref_kind: 'member',
          ref_id: m.id,
        },
        { type: BillType.adminAdjust, asset: 'USDT', change: '-500000', frozen: '0', ref_kind: 'member', ref_id: m.id },
      ]);
      const remarks = await t.db.db.selectFrom('bill').select('remark').where('member_id', '=', m.id).execute();
      expect(remarks.map((r) => r.remark)).toEqual(['补发', '扣回']);
      const logs = (await opLogs(t)).slice(before);
      expect(logs.map((l) => [l.permission_code, l.summary])).toEqual([
        ['member:adjust', expect.stringContaining('+100.50 USDT，备注：补发')],
        ['member:adjust', expect.stringContaining('-0.50 USDT，备注：扣回')],
      ]);
      for (const [body, msg] of [
        [{ asset: 'USDT', amount: '1' }, '备注不能为空'],
        [{ asset: 'USDT', amount: '1', remark: '  ' }, '备注不能为空'],
        [{ amount: '1', remark: 'x' }, '币种不能为空'],
        [{ asset: 'USDT', remark: 'x' }, '调整金额不能为空'],
        [{ asset: 'USDT', amount: '0', remark: 'x' }, '调整金额不能为0'],
        [{ asset: 'ENERGY', amount: '1.001', remark: 'x' }, '调整金额小数位数过多'],
        [{ asset: 'USDT', amount: '1e5', remark: 'x' }, '调整金额格式不正确'],
        [{ asset: 'BTC', amount: '1', remark: 'x' }, '币种取值无效'],
      ] as const) {
        expect(await opt({ id: m.id, action: 'adjust', ...body })).toMatchObject({ code: 400, msg });
      }
      expect(await opLogCount(t)).toBe(before + 2);
      expect(await ledgerViolations(t.db.db)).toEqual([]);
    });

    it('answers 404 for a missing member and 400 for a bad action or id', async () => {
      expect(await opt({ id: 999999, action: 'freeze' })).toMatchObject({ code: 404, msg: '会员不存在' });
      expect(await opt({ id: 999999, action: 'adjust', asset: 'LZ', amount: '1', remark: 'x' })).toMatchObject({
        code: 404,
      });
      expect(await opt({ id: 1, action: 'delete' })).toMatchObject({ code: 400, msg: '操作取值无效' });
      expect(await opt({ action: 'freeze' })).toMatchObject({ code: 400, msg: '会员ID不能为空' });
    });

    it('checks member:opt for status, level, zone and password, member:adjust for adjust', async () => {
      const m = await makeMember(t);
      const operator = await actingAs(t, 'operator1', ['member:view', 'member:opt']);
      const adjuster = await actingAs(t, 'adjuster1', ['member:view', 'member:adjust']);
      const viewer = await actingAs(t, 'viewer2', ['member:view']);
      const adjust = { id: m.id, action: 'adjust', asset: 'LZ', amount: '5', remark: '奖励' };
      const before = await opLogCount(t);
      expect(await opt({ id: m.id, action: 'freeze' }, viewer.token)).toMatchObject({ code: 403, msg: '无权限' });
      expect(await opt(adjust, viewer.token)).toMatchObject({ code: 403 });
      expect(await opt(adjust, operator.token)).toMatchObject({ code: 403, msg: '无权限' });
      for (const action of ['freeze', 'unfreeze', 'banWithdraw', 'resetPassword']) {
        expect(await opt({ id: m.id, action }, adjuster.token)).toMatchObject({ code: 403 });
      }
      expect(await opt({ id: m.id, action: 'setLevel', level: 1 }, adjuster.token)).toMatchObject({ code: 403 });
      expect(await opLogCount(t)).toBe(before);
      expect((await balancesOf(t.db.db, m.id)).LZ.available).toBe(0n);
      expect(await opt(adjust, adjuster.token)).toMatchObject({ code: 200 });
      expect(await opt({ id: m.id, action: 'freeze' }, operator.token)).toMatchObject({ code: 200 });
      expect((await opLogs(t)).slice(-2).map((l) => [l.username, l.permission_code])).toEqual([
        ['adjuster1', 'member:adjust'],
        ['operator1', 'member:opt'],
      ]);
    });

    it('20 concurrent freezes of one member: exactly one succeeds', async () => {
      const m = await makeMember(t);
      const before = await opLogCount(t);
      const res = await Promise.all(Array.from({ length: 20 }, () => opt({ id: m.id, action: 'freeze' })));
      expect(res.filter((r) => r.code === 200)).toHaveLength(1);
      expect(res.filter((r) => r.code === 409)).toHaveLength(19);
      expect(await opLogCount(t)).toBe(before + 1);
    });
  });
});
