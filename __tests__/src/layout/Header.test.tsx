import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import Header from '../../../src/layout/Header';
import { setCollapsed } from '../../../src/store/layoutSlice';
import { makeStore, mockApi, renderAt } from '../shellHarness';

const BREAKPOINTS = [
  ['small', 800],
  ['medium', 1200],
  ['large', 1400],
] as const;

async function renderHeader(path = '/layout/systemLayout/managerLayout', width = 1400) {
  const fetchMock = mockApi();
  const view = renderAt(<Header />, path, makeStore({ width }));
  await screen.findByRole('button', { name: 'admin' });
  return { ...view, fetchMock };
}

const toolbarOf = (container: HTMLElement) => container.querySelector('.MuiToolbar-root') as HTMLElement;

describe('Header', () => {
  // First in the file: once a test has loaded 提醒设置's chunk, React renders it at once (no fallback).
  it("keeps 提醒设置's place while its chunk loads: the account button does not move when it arrives", () => {
    mockApi();
    const { container } = renderAt(<Header />, '/layout/welcome', makeStore({ width: 1400 }));
    const account = screen.getByRole('button', { name: 'admin' });
    const before = account.previousElementSibling as HTMLElement;
    expect(before).toHaveAttribute('aria-hidden', 'true');
    expect(before).toHaveStyle({ width: '40px', height: '40px' });
    expect(toolbarOf(container)).toContainElement(before);
    return waitFor(() =>
      expect(screen.getByRole('button', { name: 'admin' }).previousElementSibling).toHaveAccessibleName('提醒设置'),
    );
  });

  it.each(BREAKPOINTS)('matches the snapshot on a %s screen (%i px)', async (_name, width) => {
    const { container } = await renderHeader('/layout/systemLayout/managerLayout', width);
    await screen.findByText('管理员');
    await screen.findByRole('button', { name: '提醒设置' }); // its chunk arrives after the first paint
    expect(container).toMatchSnapshot();
  });

  it('pads its content 170 px from the left, 58 px with the sidebar collapsed', async () => {
    const { container, store } = await renderHeader();
    expect(toolbarOf(container)).toHaveStyle({ paddingLeft: '170px' });
    act(() => {
      store.dispatch(setCollapsed(true));
    });
    expect(toolbarOf(container)).toHaveStyle({ paddingLeft: '58px' });
  });

  it('collapses to 58 px on a small screen', async () => {
    const { container } = await renderHeader('/layout/welcome', 800);
    expect(toolbarOf(container)).toHaveStyle({ paddingLeft: '58px' });
  });

  it('shows the breadcrumb group title › page title for a path in the menu', async () => {
    await renderHeader('/layout/systemLayout/roleLayout');
    const trail = await screen.findByRole('navigation', { name: '面包屑' });
    expect(trail).toHaveTextContent('系统管理›角色管理');
    expect(within(trail).getByText('角色管理')).toHaveAttribute('aria-current', 'page');
  });

  it('follows nested groups in the breadcrumb', async () => {
    await renderHeader('/layout/memberLayout/deep/page');
    expect(await screen.findByRole('navigation', { name: '面包屑' })).toHaveTextContent('会员管理›深层分组›深层页面');
  });

  it('shows no breadcrumb for a path the menu does not have', async () => {
    await renderHeader('/layout/welcome');
    await waitFor(() => expect(screen.queryByRole('navigation', { name: '面包屑' })).toBeNull());
  });

  it('shows the user name and opens the account dropdown 150 ms after hovering it', async () => {
    await renderHeader();
    jest.useFakeTimers();
    try {
      const account = screen.getByRole('button', { name: 'admin' });
      fireEvent.mouseEnter(account);
      act(() => jest.advanceTimersByTime(149));
      expect(screen.queryByRole('menuitem', { name: '退出登录' })).toBeNull();
      act(() => jest.advanceTimersByTime(1));
      expect(screen.getByRole('menuitem', { name: '退出登录' })).toBeVisible();
      fireEvent.mouseLeave(account);
      act(() => jest.advanceTimersByTime(149));
      expect(screen.getByRole('menuitem', { name: '退出登录' })).toBeInTheDocument();
      act(() => jest.advanceTimersByTime(1));
      expect(screen.queryByRole('menuitem', { name: '退出登录' })).toBeNull();
    } finally {
      jest.useRealTimers();
    }
  });

  /** A pointerdown of this pointer type (jsdom has no PointerEvent: a MouseEvent carrying the field). */
  const pressWith = (el: Element, pointerType: string) => {
    const event = new MouseEvent('pointerdown', { bubbles: true, cancelable: true });
    Object.defineProperty(event, 'pointerType', { value: pointerType });
    fireEvent(el, event);
  };

  it('keeps the dropdown open when a mouse clicks the button after hovering has opened it; a tap toggles', async () => {
    await renderHeader();
    jest.useFakeTimers();
    try {
      const account = screen.getByRole('button', { name: 'admin' });
      fireEvent.mouseEnter(account);
      act(() => jest.advanceTimersByTime(150));
      expect(screen.getByRole('menuitem', { name: '退出登录' })).toBeVisible();
      // The click right after the hover opened it (a loaded machine's browser test did exactly this).
      pressWith(account, 'mouse');
      fireEvent.click(account, { detail: 1 });
      act(() => jest.advanceTimersByTime(1000));
      expect(screen.getByRole('menuitem', { name: '退出登录' })).toBeVisible();
      // A mouse press that never became a click, then Enter (a click without a count): that toggles.
      pressWith(account, 'mouse');
      fireEvent.click(account, { detail: 0 });
      expect(screen.queryByRole('menuitem', { name: '退出登录' })).toBeNull();
      fireEvent.click(account, { detail: 0 });
      expect(screen.getByRole('menuitem', { name: '退出登录' })).toBeVisible();
      // A tap (no hover on a touch screen) closes it, and a second one opens it again.
      pressWith(account, 'touch');
      fireEvent.click(account, { detail: 1 });
      expect(screen.queryByRole('menuitem', { name: '退出登录' })).toBeNull();
      pressWith(account, 'touch');
      fireEvent.click(account, { detail: 1 });
      expect(screen.getByRole('menuitem', { name: '退出登录' })).toBeVisible();
    } finally {
      jest.useRealTimers();
    }
  });

  it('opens 个人中心 with the login before this one, and 修改密码 from the account menu', async () => {
    const lastLoginAt = Date.UTC(2026, 10, 24, 1, 2, 3); // 2026-11-24 09:02:03 Shanghai
    mockApi(undefined, undefined, { username: 'admin', lastLoginAt, lastLoginIp: '10.1.2.3', waiting: [] });
    const { router } = renderAt(<Header />, '/layout/systemLayout/managerLayout', makeStore({ width: 1400 }));
    fireEvent.click(await screen.findByRole('button', { name: 'admin' }));
    fireEvent.click(screen.getByRole('menuitem', { name: '个人中心' }));
    const dialog = await screen.findByRole('dialog', { name: '个人中心' });
    const info = within(dialog).getByRole('table', { name: '账户信息' });
    await waitFor(() => expect(info).toHaveTextContent('上次登录时间2026-11-24 09:02:03'));
    expect(info).toHaveTextContent('上次登录 IP10.1.2.3');
    fireEvent.click(within(dialog).getByRole('button', { name: '修改密码' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/layout/systemLayout/passwordLayout'));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await act(() => router.navigate('/layout/welcome'));
    fireEvent.click(screen.getByRole('button', { name: 'admin' }));
    fireEvent.click(screen.getByRole('menuitem', { name: '修改密码' }));
    expect(router.state.location.pathname).toBe('/layout/systemLayout/passwordLayout');
  });

  async function openLogoutDialog() {
    fireEvent.click(screen.getByRole('button', { name: 'admin' }));
    fireEvent.click(screen.getByRole('menuitem', { name: '退出登录' }));
    return screen.findByRole('dialog');
  }

  it('asks 确认退出系统？ titled 温馨提示 with a warning icon before logging out', async () => {
    await renderHeader();
    const dialog = await openLogoutDialog();
    expect(within(dialog).getByRole('heading', { name: '温馨提示' })).toBeInTheDocument();
    expect(within(dialog).getByText('确认退出系统？')).toBeInTheDocument();
    expect(within(dialog).getByTestId('WarningAmberIcon')).toBeInTheDocument();
    expect(dialog).toHaveAccessibleName('温馨提示');
  });

  it('does nothing on cancel', async () => {
    const { fetchMock, store, router } = await renderHeader();
    const dialog = await openLogoutDialog();
    fireEvent.click(within(dialog).getByRole('button', { name: '取消' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(fetchMock.mock.calls.map(([r]) => new URL((r as Request).url).pathname)).not.toContain(
      '/v1/admin/user/logout',
    );
    expect(store.getState().auth.token).toBe('tok-1');
    expect(localStorage.getItem('lz-admin-token')).toBe('tok-1');
    expect(router.state.location.pathname).toBe('/layout/systemLayout/managerLayout');
  });

  it('on confirm calls logout, clears the token and goes to /login', async () => {
    const { fetchMock, store, router } = await renderHeader();
    const dialog = await openLogoutDialog();
    fireEvent.click(within(dialog).getByRole('button', { name: '确定' }));
    await screen.findByText('登录页');
    const logout = fetchMock.mock.calls
      .map(([r]) => r as Request)
      .find((r) => new URL(r.url).pathname === '/v1/admin/user/logout');
    expect(logout?.method).toBe('POST');
    expect(logout?.headers.get('authorization')).toBe('tok-1');
    expect(store.getState().auth).toEqual({ token: null, username: null });
    expect(localStorage.getItem('lz-admin-token')).toBeNull();
    expect(localStorage.getItem('uname')).toBeNull();
    expect(router.state.location.pathname).toBe('/login');
    expect(router.state.location.search).toBe('');
  });

  it('clears the token even when the logout call fails', async () => {
    mockApi();
    const store = makeStore();
    const { router } = renderAt(<Header />, '/layout/welcome', store);
    await screen.findByRole('button', { name: 'admin' });
    mockApi(undefined, () => Promise.reject(new TypeError('Failed to fetch')));
    const dialog = await openLogoutDialog();
    fireEvent.click(within(dialog).getByRole('button', { name: '确定' }));
    await screen.findByText('登录页');
    expect(store.getState().auth.token).toBeNull();
    expect(localStorage.getItem('lz-admin-token')).toBeNull();
    expect(router.state.location.pathname).toBe('/login');
  });
});
