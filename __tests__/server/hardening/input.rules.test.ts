/**
 * Issue 10's input findings, one by one, on SQLite and (with TEST_DATABASE_URL) PostgreSQL: control
 * characters in text, ids of 2^63 and beyond, money sent as a JSON number, and the formats of image
 * URLs and transaction hashes. Each answer is a 400 naming the field in Chinese, never a 500.
 */
import { MAX_ID, MAX_INT4 } from '../../../server/http/schemas';
import { requestWithdrawal } from '../../../server/modules/withdrawals/requestWithdrawal.service';
import { build, dbKind, type TestApp } from '../helpers';
import { addMember, credit, erc20Address, trc20Address } from '../modules/deposits/fixtures';
import { WITHDRAW_SETTING } from '../modules/withdrawals/fixtures';

const TOO_BIG = `不能大于${MAX_ID}`;

describe(`input rules (${dbKind})`, () => {
  let t: TestApp;
  let token: string;
  let memberId: number;
  const post = (url: string, body: unknown, tk: string | undefined = token) =>
    t.call('POST', `/v1/admin/${url}`, { token: tk, body });
  const get = (url: string, query: Record<string, unknown>) => t.call('GET', `/v1/admin/${url}`, { token, query });
  const usdt = async (id: number) =>
    (
      await t.db.db
        .selectFrom('account')
        .select((eb) => eb.cast<string>('available', 'text').as('available'))
        .where('member_id', '=', id)
        .where('asset', '=', 'USDT')
        .executeTakeFirstOrThrow()
    ).available;

  beforeAll(async () => {
    t = await build();
    token = await t.login();
    memberId = await addMember(t);
  });
  afterAll(() => t.close());

  describe('control characters', () => {
    it('refuses a NUL in the login user name or password before anyone is logged in', async () => {
      expect(await post('user/login', { username: 'admin\u0000', password: 'x' }, undefined)).toEqual({
        code: 400,
        msg: '用户名不能包含控制字符',
        data: null,
      });
      expect(await post('user/login', { username: 'admin', password: '\u0000' }, undefined)).toMatchObject({
        code: 400,
        msg: '密码不能包含控制字符',
      });
    });

    it('refuses C0 (line breaks included), DEL and C1 in single-line text, in bodies and queries', async () => {
      for (const name of ['a\u0000', 'a\nb', 'a\tb', 'a\u001b[2J', 'a\u007f', 'a\u0085', 'a\u009b']) {
        expect(await post('zone/opt', { action: 'create', name })).toMatchObject({
          code: 400,
          msg: '专区名称不能包含控制字符',
        });
      }
      expect(await get('member/list', { keyword: '\u0000' })).toMatchObject({
        code: 400,
        msg: '关键字不能包含控制字符',
      });
      expect(await get('withdraw/list', { type: 1, txHash: 'ab\u0000' })).toMatchObject({
        code: 400,
        msg: '交易哈希不能包含控制字符',
      });
      expect(await post('zone/opt', { action: 'create', name: '华东 专区' })).toMatchObject({ code: 200 });
    });

    it('takes line breaks and tabs in multi-line remarks and stores them as sent', async () => {
      const remark = '第一行\r\n第二行\t尾';
      const r = await post('member/opt', { id: memberId, action: 'adjust', asset: 'USDT', amount: '1', remark });
      expect(r).toMatchObject({ code: 200 });
      const bill = await t.db.db
        .selectFrom('bill')
        .select('remark')
        .where('id', '=', r.data.balance.billId)
        .executeTakeFirstOrThrow();
      expect(bill.remark).toBe(remark);
      const bad = await post('member/opt', {
        id: memberId,
        action: 'adjust',
        asset: 'USDT',
        amount: '1',
        remark: 'a\u0000',
      });
      expect(bad).toMatchObject({ code: 400, msg: '备注不能包含控制字符' });
    });

    it('refuses a control character in a key the schema does not know', async () => {
      expect(await post('zone/opt', { action: 'create', name: 'x', 'k\u0000': 1 })).toMatchObject({
        code: 400,
        msg: '参数名不能包含控制字符',
      });
    });
  });

  describe('ids', () => {
    it('refuses ids of 2^63 and beyond, in bodies and queries, naming the field', async () => {
      const cases: Array<[Promise<{ code: number; msg: string }>, string]> = [
        [post('member/opt', { id: 2 ** 63, action: 'freeze' }), `会员ID${TOO_BIG}`],
        [post('member/opt', { id: '9223372036854775808', action: 'freeze' }), `会员ID${TOO_BIG}`],
        [post('member/opt', { id: 1e300, action: 'freeze' }), `会员ID${TOO_BIG}`],
        [post('member/opt', { id: -(2 ** 63), action: 'freeze' }), '会员ID不能小于1'],
        [post('member/opt', { id: memberId, action: 'setZone', zoneId: 2 ** 64 }), `专区${TOO_BIG}`],
        [post('withdraw/opt/batch', { ids: [1, 2 ** 63], action: 'approve' }), `提现ID${TOO_BIG}`],
        [post('user/create', { username: 'someone', roleId: 2 ** 63 }), `角色${TOO_BIG}`],
        [post('role/bind', { roleId: 2 ** 63, permissionIds: [] }), `角色${TOO_BIG}`],
        [get('user/list', { roleId: '9223372036854775808' }), `角色${TOO_BIG}`],
        [get('bill', { memberId: '18446744073709551616' }), `会员ID${TOO_BIG}`],
        [get('member/list', { zoneId: '9223372036854775808' }), `专区${TOO_BIG}`],
        [get('role/delete', { roleId: '-9223372036854775809' }), '角色不能小于1'],
        [get('member/list', { zoneId: 'Infinity' }), '专区格式不正确'],
        [get('member/list', { size: '1e999' }), '每页条数格式不正确'],
      ];
      for (const [call, msg] of cases) expect(await call).toMatchObject({ code: 400, msg });
    });

    it('bounds numbers kept in INTEGER columns to 2^31 − 1', async () => {
      expect(await post('role/bind', { roleId: 1, permissionIds: [2 ** 31] })).toMatchObject({
        code: 400,
        msg: `权限不能大于${MAX_INT4}`,
      });
      expect(await post('user/create', { id: 1, version: 2 ** 31, username: 'admin', roleId: 1 })).toMatchObject({
        code: 400,
        msg: `版本号不能大于${MAX_INT4}`,
      });
    });

    it('takes the largest id and answers "not found"', async () => {
      expect(await post('member/opt', { id: MAX_ID, action: 'freeze' })).toMatchObject({ code: 404 });
      expect(await get('bill', { memberId: String(MAX_ID) })).toMatchObject({ code: 200, data: { total: 0 } });
    });
  });

  describe('money only as a decimal string', () => {
    it('refuses a JSON number for an amount, which would go through a float', async () => {
      const m = await addMember(t);
      const body = { id: m, action: 'adjust', asset: 'USDT', remark: '补发' };
      expect(await post('member/opt', { ...body, amount: 12345678.901234567 })).toEqual({
        code: 400,
        msg: '调整金额须以字符串提交（如"12.5"），不能是数字',
        data: null,
      });
      expect(await usdt(m)).toBe('0');
      expect(await post('member/opt', { ...body, amount: '12345678.901234' })).toMatchObject({
        code: 200,
        data: { balance: { available: '12345678.901234' } },
      });
      expect(await usdt(m)).toBe('12345678901234');
    });

    it('refuses a JSON number for a rate or a setting amount', async () => {
      const setting = { type: 1, ...WITHDRAW_SETTING };
      expect(await post('withdraw/setting', { ...setting, feeRate: 0.01 })).toMatchObject({
        code: 400,
        msg: '手续费率须以字符串提交（如"12.5"），不能是数字',
      });
      expect(await post('withdraw/setting', { ...setting, max: 1000 })).toMatchObject({
        code: 400,
        msg: '单笔最高金额须以字符串提交（如"12.5"），不能是数字',
      });
      expect(await post('withdraw/setting', setting)).toMatchObject({ code: 200 });
    });
  });

  describe('formats of free text', () => {
    const account = (qrUrl: string) =>
      post('deposit/account/opt', { action: 'create', chain: 'TRC20', address: trc20Address(), qrUrl });

    it('takes an image URL only over http(s) or from this server’s uploads', async () => {
      for (const bad of [
        'javascript:alert(1)',
        'JavaScript:alert(1)',
        'data:image/png;base64,AAAA',
        'vbscript:x',
        '//evil.example/qr.png',
        '/uploads/../config.json',
        '/etc/passwd',
        'https://a.example/x" onerror="alert(1)',
      ]) {
        expect(await account(bad)).toMatchObject({ code: 400, msg: '二维码图片格式不正确' });
      }
      for (const good of [
        'https://cdn.example.com/qr.png',
        'http://10.0.0.1/a.png?x=1',
        '/uploads/2026/qr-1.png',
        '',
      ]) {
        expect(await account(good)).toMatchObject({ code: 200 });
      }
    });

    describe('transaction hashes by chain', () => {
      const TRC = 'ab'.repeat(32);
      const ERC = `0x${'cd'.repeat(32)}`;
      let trcId: number;
      let ercId: number;
      beforeAll(async () => {
        const setting = {
          type: 1,
          open: true,
          min: '10',
          max: '1000',
          maxTimesPerDay: 0,
          feeRate: '0',
          feeMin: '0',
          autoApproveMax: '0',
          openHours: '00:00-24:00',
        };
        expect(await post('withdraw/setting', setting)).toMatchObject({ code: 200 });
        const m = await addMember(t);
        await credit(t, m, 'USDT', '1000');
        const ask = (chain: 'TRC20' | 'ERC20') =>
          requestWithdrawal(t.app.ctx, {
            memberId: m,
            type: 1,
            amount: '100',
            chain,
            address: chain === 'TRC20' ? trc20Address() : erc20Address(),
          });
        trcId = (await ask('TRC20')).id;
        ercId = (await ask('ERC20')).id;
        expect(await post('withdraw/opt/batch', { ids: [trcId, ercId], action: 'approve' })).toMatchObject({
          data: { succeeded: [trcId, ercId] },
        });
      });

      it('refuses a hash that is not hex, naming the field', async () => {
        for (const txHash of ['javascript:alert(1)', 'zz', 'a'.repeat(101)]) {
          const r = await post('withdraw/opt', { id: trcId, action: 'paid', txHash });
          expect(r.code).toBe(400);
          expect(r.msg).toMatch(/^交易哈希/);
        }
      });

      it('refuses a hash of the other chain’s form and leaves the record as it was', async () => {
        expect(await post('withdraw/opt', { id: trcId, action: 'paid', txHash: ERC })).toEqual({
          code: 400,
          msg: '交易哈希格式不正确（TRC20交易哈希为64位十六进制）',
          data: null,
        });
        expect(await post('withdraw/opt', { id: ercId, action: 'paid', txHash: TRC })).toMatchObject({
          code: 400,
          msg: '交易哈希格式不正确（ERC20交易哈希以0x开头，后跟64位十六进制）',
        });
        const rows = await t.db.db
          .selectFrom('withdrawal')
          .select(['status', 'tx_hash'])
          .where('id', 'in', [trcId, ercId])
          .execute();
        expect(rows).toEqual([
          { status: 1, tx_hash: null },
          { status: 1, tx_hash: null },
        ]);
      });

      it('checks each record of a batch against its own chain', async () => {
        expect(await post('withdraw/opt/batch', { ids: [trcId, ercId], action: 'paid', txHash: TRC })).toMatchObject({
          code: 200,
          data: {
            succeeded: [trcId],
            failed: [{ id: ercId, msg: '交易哈希格式不正确（ERC20交易哈希以0x开头，后跟64位十六进制）' }],
          },
        });
        expect(await post('withdraw/opt', { id: ercId, action: 'paid', txHash: ERC })).toMatchObject({ code: 200 });
      });
    });
  });
});
