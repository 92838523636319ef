import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import MemberListPage from '../../../../src/pages/members/MemberListPage';
import { envelope } from '../../mockFetch';
import { makeStore, renderAt } from '../../shellHarness';
import { ALL_CODES, fakeMembersApi, member, T0 } from './fakeMembersApi';
import type { Answer } from './fakeMembersApi';

jest.setTimeout(60_000);
configure({ asyncUtilTimeout: 8000 });

const PATH = '/layout/memberLayout/memberListLayout';
const ROWS = [
  member(),
  member({
    id: 2,
    uid: '10000002',
    phone: '13900000002',
    nickname: '李四',
    status: 2,
    level: 0,
    zoneId: null,
    zoneName: null,
    inviterUid: null,
  }),
];

function setup(opts: { codes?: string[]; path?: string; answer?: Answer } = {}) {
  const api = fakeMembersApi({
    codes: opts.codes ?? ALL_CODES,
    answer: (c) => {
      const r = opts.answer?.(c);
      if (r) return r;
      if (c.path === 'member/list')
        return envelope({ list: ROWS, total: 42, page: Number(c.query.page ?? 1), size: 20 });
      if (c.path === 'member/opt') return envelope({ id: c.body.id, status: 2, level: 2, zoneId: 1 });
      if (c.path === 'member/create') return envelope({ id: 9, uid: '12345678' });
      return undefined;
    },
  });
  return { ...api, ...renderAt(<MemberListPage />, opts.path ?? PATH, makeStore()) };
}
const rowOf = (uid: string) => screen.getByRole('cell', { name: uid }).closest('tr') as HTMLElement;
const toasts = (store: ReturnType<typeof setup>['store']) => store.getState().toast.items.map((t) => t.msg);

describe('MemberListPage', () => {
  it('lists members with level, status and real-name chips and balances, sending the URL filters', async () => {
    const { of } = setup({ path: `${PATH}?keyword=138&status=1&zoneId=1&level=2&page=2&start=2026-11-01` });
    await screen.findByRole('cell', { name: '10000001' });
    expect(of('member/list')[0].query).toEqual({
      keyword: '138',
      status: '1',
      zoneId: '1',
      level: '2',
      page: '2',
      size: '20',
      start: '2026-11-01',
    });
    const first = rowOf('10000001');
    expect(within(first).getByText('V2')).toBeInTheDocument();
    expect(within(first).getByText('正常')).toBeInTheDocument();
    expect(within(first).getByText('已认证')).toBeInTheDocument();
    expect(within(first).getByText('1,234.50')).toBeInTheDocument();
    expect(within(first).getByText('华东一区')).toBeInTheDocument();
    expect(within(rowOf('10000002')).getByText('冻结', { selector: '.MuiChip-label' })).toBeInTheDocument();
    expect(within(rowOf('10000002')).getByText('普通会员')).toBeInTheDocument();
  });

  it('searches with the filter bar and puts the filters in the URL', async () => {
    const u = userEvent.setup();
    const { of, router } = setup();
    await screen.findByRole('cell', { name: '10000001' });
    await u.type(screen.getByRole('textbox', { name: '关键字' }), '139');
    await u.type(screen.getByRole('textbox', { name: '邀请人UID' }), '10000000');
    await u.click(screen.getByRole('button', { name: '搜索' }));
    await waitFor(() =>
      expect(of('member/list').at(-1)?.query).toMatchObject({ keyword: '139', inviterUid: '10000000' }),
    );
    expect(router.state.location.search).toBe('?keyword=139&inviterUid=10000000');
  });

  it('freezes a member from the row menu after a confirmation, then refreshes', async () => {
    const u = userEvent.setup();
    const { of, store } = setup();
    await screen.findByRole('cell', { name: '10000001' });
    await u.click(within(rowOf('10000001')).getByRole('button', { name: '更多' }));
    const menu = await screen.findByRole('menu');
    expect(within(menu).queryByRole('menuitem', { name: '解冻' })).toBeNull();
    await u.click(within(menu).getByRole('menuitem', { name: '冻结' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('确认冻结会员 10000001（张三）？冻结后该会员不能登录');
    await u.click(within(dialog).getByRole('button', { name: '确定' }));
    await waitFor(() => expect(of('member/opt')).toHaveLength(1));
    expect(of('member/opt')[0].body).toEqual({ id: 1, action: 'freeze' });
    await waitFor(() => expect(of('member/list')).toHaveLength(2));
    expect(toasts(store)).toContain('冻结成功');
  });

  it('offers 解冻 for a frozen member and sends nothing when the confirmation is cancelled', async () => {
    const u = userEvent.setup();
    const { of } = setup();
    await screen.findByRole('cell', { name: '10000002' });
    await u.click(within(rowOf('10000002')).getByRole('button', { name: '更多' }));
    const menu = await screen.findByRole('menu');
    expect(within(menu).queryByRole('menuitem', { name: '冻结' })).toBeNull();
    expect(within(menu).queryByRole('menuitem', { name: '禁止提现' })).toBeNull();
    await u.click(within(menu).getByRole('menuitem', { name: '解冻' }));
    await u.click(within(await screen.findByRole('dialog')).getByRole('button', { name: '取消' }));
    expect(of('member/opt')).toHaveLength(0);
  });

  it('adjusts a balance: asset, signed amount and a required remark; a refusal stays in the dialog', async () => {
    const u = userEvent.setup();
    let refuse = true;
    const { of, store } = setup({
      answer: (c) =>
        c.path === 'member/opt' && refuse ? envelope(null, 409, '可用余额不足，当前可用 5.5000 LZ') : undefined,
    });
    await screen.findByRole('cell', { name: '10000001' });
    await u.click(within(rowOf('10000001')).getByRole('button', { name: '调整余额' }));
    const dialog = await screen.findByRole('dialog', { name: '调整余额' });
    expect(dialog).toHaveTextContent('当前USDT可用 1,234.50 USDT，冻结 10.00 USDT');
    await u.click(within(dialog).getByRole('button', { name: '确定' }));
    expect(within(dialog).getByText('调整金额不能为空')).toBeInTheDocument();
    expect(within(dialog).getByText('备注不能为空')).toBeInTheDocument();
    await u.click(within(dialog).getByRole('combobox', { name: /币种/ }));
    await u.click(await screen.findByRole('option', { name: 'LZ' }));
    await u.type(within(dialog).getByRole('textbox', { name: /调整金额/ }), '-6.00001');
    await u.type(within(dialog).getByRole('textbox', { name: /备注/ }), '扣回多发');
    await u.click(within(dialog).getByRole('button', { name: '确定' }));
    expect(await within(dialog).findByText('调整金额小数位数过多（最多4位）')).toBeInTheDocument();
    const amount = within(dialog).getByRole('textbox', { name: /调整金额/ });
    await u.clear(amount);
    await u.type(amount, '-6');
    await u.click(within(dialog).getByRole('button', { name: '确定' }));
    // A second question says who loses how much; 取消 leaves the form as it was and moves nothing.
    let sure = await screen.findByRole('dialog', { name: '确认调整余额' });
    expect(sure).toHaveTextContent('确认为会员 10000001（张三）扣减 6.0000 LZ？');
    await u.click(within(sure).getByRole('button', { name: '取消' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: '确认调整余额' })).toBeNull());
    expect(of('member/opt')).toHaveLength(0);
    expect(within(dialog).getByRole('textbox', { name: /调整金额/ })).toHaveValue('-6');
    await u.click(within(dialog).getByRole('button', { name: '确定' }));
    sure = await screen.findByRole('dialog', { name: '确认调整余额' });
    await u.click(within(sure).getByRole('button', { name: '确定' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('可用余额不足，当前可用 5.5000 LZ');
    expect(of('member/opt')[0].body).toEqual({
      id: 1,
      action: 'adjust',
      asset: 'LZ',
      amount: '-6',
      remark: '扣回多发',
    });
    refuse = false;
    await u.clear(amount);
    await u.type(amount, '-5');
    await u.click(within(dialog).getByRole('button', { name: '确定' }));
    await u.click(
      within(await screen.findByRole('dialog', { name: '确认调整余额' })).getByRole('button', { name: '确定' }),
    );
    await waitFor(() => expect(screen.queryByRole('dialog', { name: '调整余额' })).toBeNull());
    expect(of('member/opt')[1].body).toEqual({
      id: 1,
      action: 'adjust',
      asset: 'LZ',
      amount: '-5',
      remark: '扣回多发',
    });
    expect(toasts(store)).toContain('调整成功');
  });

  it('creates a member after checking the fields', async () => {
    const u = userEvent.setup();
    const { of, store } = setup();
    await screen.findByRole('cell', { name: '10000001' });
    await u.click(screen.getByRole('button', { name: '新增会员' }));
    const dialog = await screen.findByRole('dialog', { name: '新增会员' });
    await u.type(within(dialog).getByRole('textbox', { name: /手机号/ }), '1380000');
    await u.type(within(dialog).getByLabelText(/登录密码/), 'abcdef');
    await u.click(within(dialog).getByRole('button', { name: '确定' }));
    expect(within(dialog).getByText('手机号格式不正确')).toBeInTheDocument();
    expect(within(dialog).getByText('登录密码为6-20位字母和数字组合')).toBeInTheDocument();
    expect(within(dialog).getByText('昵称不能为空')).toBeInTheDocument();
    expect(of('member/create')).toHaveLength(0);
    await u.type(within(dialog).getByRole('textbox', { name: /手机号/ }), '0001');
    await u.clear(within(dialog).getByLabelText(/登录密码/));
    await u.type(within(dialog).getByLabelText(/登录密码/), 'abc123');
    await u.type(within(dialog).getByRole('textbox', { name: /昵称/ }), '王五');
    await u.type(within(dialog).getByRole('textbox', { name: /邀请人UID/ }), '10000000');
    await u.click(within(dialog).getByRole('combobox', { name: /专区/ }));
    const listbox = await screen.findByRole('listbox');
    // A disabled zone cannot take new members.
    expect(within(listbox).queryByRole('option', { name: '华南一区' })).toBeNull();
    await u.click(within(listbox).getByRole('option', { name: '华东一区' }));
    await u.click(within(dialog).getByRole('button', { name: '确定' }));
    await waitFor(() => expect(of('member/create')).toHaveLength(1));
    expect(of('member/create')[0].body).toEqual({
      phone: '13800000001',
      password: 'abc123',
      nickname: '王五',
      inviterUid: '10000000',
      zoneId: 1,
    });
    await waitFor(() => expect(toasts(store)).toContain('新增成功'));
  });

  it('changes the level and resets the password, showing the new one once', async () => {
    const u = userEvent.setup();
    const { of } = setup({
      answer: (c) =>
        c.path === 'member/opt' && c.body.action === 'resetPassword'
          ? envelope({ id: 1, status: 1, level: 2, zoneId: 1, password: 'Xy7kPq2mNs4tVw8z' })
          : undefined,
    });
    await screen.findByRole('cell', { name: '10000001' });
    await u.click(within(rowOf('10000001')).getByRole('button', { name: '更多' }));
    await u.click(await screen.findByRole('menuitem', { name: '修改等级' }));
    const dialog = await screen.findByRole('dialog', { name: '修改等级' });
    await u.click(within(dialog).getByRole('combobox', { name: /等级/ }));
    await u.click(await screen.findByRole('option', { name: 'V4' }));
    await u.click(within(dialog).getByRole('button', { name: '确定' }));
    await waitFor(() => expect(of('member/opt')).toHaveLength(1));
    expect(of('member/opt')[0].body).toEqual({ id: 1, action: 'setLevel', level: 4 });

    await waitFor(() => expect(screen.queryByRole('dialog', { name: '修改等级' })).toBeNull());
    await u.click(within(rowOf('10000001')).getByRole('button', { name: '更多' }));
    await u.click(await screen.findByRole('menuitem', { name: '重置密码' }));
    await u.click(within(await screen.findByRole('dialog')).getByRole('button', { name: '确定' }));
    const shown = await screen.findByRole('dialog', { name: '新密码' });
    expect(shown).toHaveTextContent('Xy7kPq2mNs4tVw8z');
    expect(of('member/opt')[1].body).toEqual({ id: 1, action: 'resetPassword' });
  });

  it('opens the detail drawer with balances, latest bills and payment methods', async () => {
    const u = userEvent.setup();
    const { of } = setup({
      answer: (c) => {
        if (c.path === 'bill')
          return envelope({
            list: [
              {
                id: 5,
                memberId: 1,
                uid: '10000001',
                phone: '13800000001',
                nickname: '张三',
                asset: 'USDT',
                type: 16,
                change: '100',
                availableAfter: '1234.5',
                frozenChange: '0',
                frozenAfter: '10',
                refKind: 'member',
                refId: 1,
                remark: '补发奖励',
                createdAt: T0,
              },
            ],
            total: 1,
            totalCapped: false,
            page: 1,
            size: 10,
            sum: null,
          });
        if (c.path === 'payment/list')
          return envelope({
            list: [
              {
                id: 3,
                memberId: 1,
                uid: '10000001',
                phone: '13800000001',
                nickname: '张三',
                type: 2,
                holder: '张三',
                account: 'zs@alipay.com',
                bank: '',
                branch: '',
                qrUrl: '',
                status: 1,
                remark: '',
                auditorName: null,
                auditedAt: null,
                createdAt: T0,
              },
            ],
            total: 1,
            page: 1,
            size: 20,
          });
        return undefined;
      },
    });
    await screen.findByRole('cell', { name: '10000001' });
    await u.click(within(rowOf('10000001')).getByRole('button', { name: '详情' }));
    const drawer = await screen.findByRole('region', { name: '会员详情' });
    const assets = within(drawer).getByRole('table', { name: '资产' });
    expect(within(assets).getAllByRole('row')[1]).toHaveTextContent('USDT1,234.5010.00');
    const bills = await within(drawer).findByRole('table', { name: '最近账单' });
    expect(bills).toHaveTextContent('后台调整');
    expect(bills).toHaveTextContent('+100.00 USDT');
    expect(bills).toHaveTextContent('补发奖励');
    expect(of('bill')[0].query).toMatchObject({ memberId: '1', size: '10' });
    const methods = await within(drawer).findByRole('table', { name: '收款方式' });
    expect(methods).toHaveTextContent('支付宝');
    expect(methods).toHaveTextContent('zs@alipay.com');
    expect(methods).toHaveTextContent('已通过');
    expect(of('payment/list')[0].query).toMatchObject({ memberId: '1' });
  });

  it('shows only what the codes allow', async () => {
    const { of } = setup({ codes: ['member:view'] });
    await screen.findByRole('cell', { name: '10000001' });
    await waitFor(() => expect(of('user/permissions')).toHaveLength(1));
    expect(within(rowOf('10000001')).getByRole('button', { name: '详情' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: '调整余额' })).toBeNull();
    expect(screen.queryByRole('button', { name: '更多' })).toBeNull();
    expect(screen.queryByRole('button', { name: '新增会员' })).toBeNull();
    // Without zone:view there is no zone list to ask for.
    expect(of('zone/list')).toHaveLength(0);
  });
});
