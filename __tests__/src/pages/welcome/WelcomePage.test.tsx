import { screen, within } from '@testing-library/react';
import WelcomePage, { greeting } from '../../../../src/pages/welcome/WelcomePage';
import { makeStore, MENU, mockApi, renderAt } from '../../shellHarness';

describe('WelcomePage', () => {
  it('greets the manager by name', async () => {
    mockApi();
    renderAt(<WelcomePage />, '/layout/welcome', makeStore());
    expect(await screen.findByRole('heading', { name: '您好，admin，欢迎使用后台管理控制台' })).toBeInTheDocument();
    expect(greeting('运营')).toBe('您好，运营，欢迎使用后台管理控制台');
  });

  it('offers a shortcut card for every page of the menu, at any depth', async () => {
    mockApi();
    renderAt(<WelcomePage />, '/layout/welcome', makeStore());
    const list = await screen.findByRole('list', { name: '快捷入口' });
    const links = within(list).getAllByRole('link');
    expect(links.map((a) => a.getAttribute('href'))).toEqual([
      '/layout/systemLayout/managerLayout',
      '/layout/systemLayout/roleLayout',
      '/layout/memberLayout/memberListLayout',
      '/layout/memberLayout/deep/page',
      '/layout/transferLayout',
      '/layout/otherLayout',
    ]);
    const deep = links[3];
    expect(deep).toHaveTextContent('深层页面');
    expect(deep).toHaveTextContent('会员管理 › 深层分组');
    expect(within(links[0]).getByTestId('SettingsIcon')).toBeInTheDocument();
  });

  it('shows no shortcuts when the menu is empty', async () => {
    mockApi([]);
    renderAt(<WelcomePage />, '/layout/welcome', makeStore());
    await screen.findByRole('heading', { name: /您好，admin/ });
    expect(screen.queryByRole('list', { name: '快捷入口' })).toBeNull();
    expect(MENU.length).toBeGreaterThan(0);
  });
});

describe('WelcomePage waiting work', () => {
  const T = Date.UTC(2026, 10, 24, 1, 2, 3);
  const welcome = {
    username: 'admin',
    lastLoginAt: T,
    lastLoginIp: '10.0.0.8',
    waiting: [
      { key: 'withdraw', count: 3, amount: '1250.5', asset: 'USDT' },
      { key: 'deposit', count: 0, amount: '0', asset: 'USDT' },
      { key: 'appeal', count: 2, amount: null, asset: null },
    ],
  };

  it('shows the login before this one and a card per waiting count, linked to its list already filtered', async () => {
    mockApi(MENU, undefined, welcome);
    renderAt(<WelcomePage />, '/layout/welcome', makeStore());
    expect(await screen.findByText('上次登录：2026-11-24 09:02:03，IP 10.0.0.8')).toBeInTheDocument();
    const list = screen.getByRole('list', { name: '待处理' });
    const links = within(list).getAllByRole('link');
    expect(links.map((a) => a.getAttribute('href'))).toEqual([
      '/layout/withdrawLayout/withdrawListLayout?status=0',
      '/layout/depositLayout/depositListLayout?status=0',
      '/layout/matchLayout?status=5',
    ]);
    expect(within(links[0]).getByLabelText('提现待审核 3')).toBeInTheDocument();
    expect(links[0]).toHaveTextContent('合计 1,250.50 USDT');
    expect(within(links[1]).getByLabelText('充值待确认 0')).toBeInTheDocument();
    expect(links[1]).not.toHaveTextContent('合计');
    expect(within(links[2]).getByLabelText('申诉中 2')).toBeInTheDocument();
  });

  it('shows no waiting cards when the manager may open none of those pages', async () => {
    mockApi();
    renderAt(<WelcomePage />, '/layout/welcome', makeStore());
    expect(await screen.findByText('请从左侧菜单或下方快捷入口开始工作。')).toBeInTheDocument();
    expect(screen.queryByRole('list', { name: '待处理' })).toBeNull();
  });
});
