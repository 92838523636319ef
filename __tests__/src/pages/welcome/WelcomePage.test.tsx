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
