import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import Sidebar from '../../../src/layout/Sidebar';
import { makeStore, mockApi, renderAt } from '../shellHarness';

const BREAKPOINTS = [
  ['small', 800],
  ['medium', 1200],
  ['large', 1400],
] as const;

async function renderSidebar(path = '/layout/welcome', width = 1400) {
  mockApi();
  const view = renderAt(<Sidebar />, path, makeStore({ width }));
  await screen.findByRole('button', { name: width <= 800 ? '展开菜单' : '收起菜单' });
  await waitFor(() => expect(view.container.querySelectorAll('.MuiListItemButton-root').length).toBeGreaterThan(0));
  return view;
}

const paper = () => document.querySelector('.MuiDrawer-paper') as HTMLElement;

describe('Sidebar', () => {
  it.each(BREAKPOINTS)('matches the snapshot on a %s screen (%i px)', async (_name, width) => {
    const { container } = await renderSidebar('/layout/systemLayout/managerLayout', width);
    expect(container).toMatchSnapshot();
  });

  it('is 160 px wide, 48 px collapsed by its toggle', async () => {
    await renderSidebar();
    expect(paper()).toHaveStyle({ width: '160px' });
    fireEvent.click(screen.getByRole('button', { name: '收起菜单' }));
    expect(paper()).toHaveStyle({ width: '48px' });
    fireEvent.click(screen.getByRole('button', { name: '展开菜单' }));
    expect(paper()).toHaveStyle({ width: '160px' });
  });

  it('is collapsed on a small screen', async () => {
    await renderSidebar('/layout/welcome', 800);
    expect(paper()).toHaveStyle({ width: '48px' });
  });

  it('picks each icon by the entry name, the default one for other names', async () => {
    await renderSidebar();
    const item = (title: string) => screen.getByText(title).closest('.MuiListItemButton-root') as HTMLElement;
    expect(within(item('系统管理')).getByTestId('SettingsIcon')).toBeInTheDocument();
    expect(within(item('会员管理')).getByTestId('PeopleIcon')).toBeInTheDocument();
    expect(within(item('转账记录')).getByTestId('SwapHorizIcon')).toBeInTheDocument();
    expect(within(item('其他页面')).getByTestId('AppsIcon')).toBeInTheDocument();
  });

  it('opens groups to any depth and links each page to its layout path', async () => {
    await renderSidebar();
    expect(screen.queryByText('会员列表')).toBeNull();
    fireEvent.click(screen.getByText('会员管理'));
    expect(screen.getByRole('link', { name: '会员列表' })).toHaveAttribute(
      'href',
      '/layout/memberLayout/memberListLayout',
    );
    fireEvent.click(screen.getByText('深层分组'));
    expect(screen.getByRole('link', { name: '深层页面' })).toHaveAttribute('href', '/layout/memberLayout/deep/page');
    expect(screen.getByRole('link', { name: '转账记录' })).toHaveAttribute('href', '/layout/transferLayout');
  });

  it('selects the item of the current route and opens its groups', async () => {
    await renderSidebar('/layout/memberLayout/deep/page');
    const link = screen.getByRole('link', { name: '深层页面' });
    expect(link).toHaveClass('Mui-selected');
    expect(link).toHaveAttribute('aria-current', 'page');
    expect(screen.getByRole('link', { name: '会员列表' })).not.toHaveClass('Mui-selected');
  });

  it('moves the selection when the route changes', async () => {
    const { router } = await renderSidebar('/layout/systemLayout/managerLayout');
    expect(screen.getByRole('link', { name: '管理员' })).toHaveClass('Mui-selected');
    fireEvent.click(screen.getByRole('link', { name: '角色管理' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/layout/systemLayout/roleLayout'));
    expect(screen.getByRole('link', { name: '角色管理' })).toHaveClass('Mui-selected');
    expect(screen.getByRole('link', { name: '管理员' })).not.toHaveClass('Mui-selected');
  });

  describe('collapsed', () => {
    beforeEach(() => jest.useFakeTimers());
    afterEach(() => jest.useRealTimers());

    it('shows only the top-level icons', async () => {
      await renderSidebar('/layout/systemLayout/managerLayout', 800);
      expect(screen.queryByText('系统管理')).toBeNull();
      expect(screen.getByRole('button', { name: '系统管理' })).toHaveClass('Mui-selected');
      expect(screen.getByRole('link', { name: '转账记录' })).toHaveAttribute('href', '/layout/transferLayout');
    });

    it('opens a group popup 300 ms after hovering and hides it 300 ms after leaving', async () => {
      await renderSidebar('/layout/welcome', 800);
      const group = screen.getByRole('button', { name: '系统管理' });
      fireEvent.mouseEnter(group);
      act(() => jest.advanceTimersByTime(299));
      expect(screen.queryByRole('menu', { name: '系统管理' })).toBeNull();
      act(() => jest.advanceTimersByTime(1));
      const popup = screen.getByRole('menu', { name: '系统管理' });
      expect(within(popup).getByRole('menuitem', { name: '管理员' })).toHaveAttribute(
        'href',
        '/layout/systemLayout/managerLayout',
      );
      // Moving from the icon into the popup keeps it open.
      fireEvent.mouseLeave(group);
      act(() => jest.advanceTimersByTime(100));
      fireEvent.mouseEnter(popup.parentElement!);
      act(() => jest.advanceTimersByTime(1000));
      expect(screen.getByRole('menu', { name: '系统管理' })).toBeInTheDocument();
      fireEvent.mouseLeave(popup.parentElement!);
      act(() => jest.advanceTimersByTime(299));
      expect(screen.getByRole('menu', { name: '系统管理' })).toBeInTheDocument();
      act(() => jest.advanceTimersByTime(1));
      expect(screen.queryByRole('menu', { name: '系统管理' })).toBeNull();
    });

    it('opens nested popups for deeper groups and navigates from them', async () => {
      const { router } = await renderSidebar('/layout/welcome', 800);
      fireEvent.mouseEnter(screen.getByRole('button', { name: '会员管理' }));
      act(() => jest.advanceTimersByTime(300));
      const deep = screen.getByRole('menuitem', { name: '深层分组' });
      fireEvent.mouseEnter(deep);
      act(() => jest.advanceTimersByTime(300));
      const nested = screen.getByRole('menu', { name: '深层分组' });
      fireEvent.click(within(nested).getByRole('menuitem', { name: '深层页面' }));
      await act(async () => {
        await jest.runOnlyPendingTimersAsync();
      });
      expect(router.state.location.pathname).toBe('/layout/memberLayout/deep/page');
      expect(screen.queryByRole('menu', { name: '会员管理' })).toBeNull();
    });
  });
});

describe('Sidebar waiting badges', () => {
  const L = '/layout';
  const menu = [
    {
      id: 500,
      title: '提现管理',
      name: 'withdrawLayout',
      layout: `${L}/withdrawLayout`,
      sub: [
        {
          id: 510,
          title: '提现审核',
          name: 'withdrawListLayout',
          layout: `${L}/withdrawLayout/withdrawListLayout`,
          sub: [],
        },
        {
          id: 520,
          title: '提取审核',
          name: 'extractListLayout',
          layout: `${L}/withdrawLayout/extractListLayout`,
          sub: [],
        },
      ],
    },
    { id: 1000, title: '撮合管理', name: 'matchLayout', layout: `${L}/matchLayout`, sub: [] },
  ];
  const welcome = {
    username: 'admin',
    lastLoginAt: null,
    lastLoginIp: '',
    waiting: [
      { key: 'withdraw', count: 3, amount: '30', asset: 'USDT' },
      { key: 'extract', count: 0, amount: '0', asset: 'LZ' },
      { key: 'appeal', count: 120, amount: null, asset: null },
    ],
  };

  it('shows the waiting count beside its page, the sum on a folded group, 99+ past 99', async () => {
    mockApi(menu, undefined, welcome);
    renderAt(<Sidebar />, '/layout/welcome', makeStore({ width: 1400 }));
    const group = await screen.findByRole('button', { name: /提现管理/ });
    expect(await within(group).findByLabelText('待处理 3')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /撮合管理/ })).toHaveTextContent('99+');
    fireEvent.click(group);
    expect(within(group).queryByLabelText('待处理 3')).toBeNull();
    expect(
      within(await screen.findByRole('link', { name: /提现审核/ })).getByLabelText('待处理 3'),
    ).toBeInTheDocument();
    expect(within(screen.getByRole('link', { name: /提取审核/ })).queryByLabelText(/待处理/)).toBeNull();
  });

  it('shows the sums on the icons of a collapsed sidebar and the counts in its popups', async () => {
    mockApi(menu, undefined, welcome);
    renderAt(<Sidebar />, '/layout/welcome', makeStore({ width: 800 }));
    const group = await screen.findByRole('button', { name: '提现管理' });
    expect(await within(group).findByLabelText('待处理 3')).toBeInTheDocument();
    expect(within(screen.getByRole('link', { name: '撮合管理' })).getByLabelText('待处理 120')).toHaveTextContent(
      '99+',
    );
    fireEvent.mouseEnter(group);
    const popup = await screen.findByRole('menu', { name: '提现管理' });
    expect(within(within(popup).getByRole('menuitem', { name: /提现审核/ })).getByLabelText('待处理 3')).toBeVisible();
    expect(within(within(popup).getByRole('menuitem', { name: /提取审核/ })).queryByLabelText(/待处理/)).toBeNull();
  });
});
