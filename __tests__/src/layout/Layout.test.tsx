import { lazy, type ReactElement } from 'react';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { Provider } from 'react-redux';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import Layout from '../../../src/layout/Layout';
import { loggedOut } from '../../../src/store/authSlice';
import { requestFinished, requestStarted } from '../../../src/store/loadingSlice';
import { toastShown } from '../../../src/store/toastSlice';
import { makeStore, mockApi, setWidth } from '../shellHarness';

const BREAKPOINTS = [
  ['small', 800, { sidebar: 48, header: 58, margin: 48, padding: 10 }],
  ['medium', 1200, { sidebar: 160, header: 170, margin: 160, padding: 16 }],
  ['large', 1400, { sidebar: 160, header: 170, margin: 160, padding: 16 }],
] as const;

/** The real layout route with a child page, as the router mounts it. */
function renderLayout(path = '/layout/systemLayout/managerLayout', store = makeStore()) {
  mockApi();
  const router = createMemoryRouter(
    [
      {
        path: '/layout',
        element: <Layout />,
        children: [{ path: '*', element: <p>页面内容</p> }],
      },
      { path: '/login', element: <p>登录页</p> },
    ],
    { initialEntries: [path] },
  );
  const view = render(
    <Provider store={store}>
      <RouterProvider router={router} />
    </Provider>,
  );
  return { ...view, store, router };
}

const main = () => screen.getByRole('main');
const paper = () => document.querySelector('.MuiDrawer-paper') as HTMLElement;
const toolbar = () => document.querySelector('.MuiToolbar-root') as HTMLElement;

describe('Layout', () => {
  afterEach(() => act(() => setWidth(1024)));

  it('shows 无权限访问该页面 instead of a page the role may not open, and the page when the menu has it', async () => {
    const { router } = renderLayout('/layout/withdrawLayout/withdrawListLayout');
    expect(await screen.findByText('无权限访问该页面')).toBeInTheDocument();
    expect(screen.queryByText('页面内容')).toBeNull();
    await act(() => router.navigate('/layout/systemLayout/managerLayout'));
    expect(await screen.findByText('页面内容')).toBeInTheDocument();
    await act(() => router.navigate('/layout/welcome'));
    expect(await screen.findByText('页面内容')).toBeInTheDocument();
  });

  it.each(BREAKPOINTS)('matches the snapshot on a %s screen (%i px)', async (_name, width) => {
    setWidth(width);
    const { container } = renderLayout();
    await screen.findByRole('navigation', { name: '面包屑' });
    await screen.findByRole('button', { name: '提醒设置' }); // its chunk arrives after the first paint
    expect(container).toMatchSnapshot();
  });

  it.each(BREAKPOINTS)('on a %s screen (%i px) sizes itself by SPEC.md §9', async (_name, width, size) => {
    setWidth(width);
    renderLayout();
    await screen.findByText('页面内容');
    expect(paper()).toHaveStyle({ width: `${size.sidebar}px` });
    expect(toolbar()).toHaveStyle({ paddingLeft: `${size.header}px` });
    expect(main()).toHaveStyle({
      marginLeft: `${size.margin}px`,
      paddingLeft: `${size.padding}px`,
      paddingRight: `${size.padding}px`,
      paddingBottom: `${size.padding}px`,
    });
  });

  it('collapses the sidebar by itself when the window shrinks to 800 px and expands it after', async () => {
    setWidth(1400);
    const { store } = renderLayout();
    await screen.findByText('页面内容');
    expect(main()).toHaveStyle({ marginLeft: '160px' });
    act(() => setWidth(801));
    expect(store.getState().layout).toEqual({ collapsed: false, breakpoint: 'medium' });
    act(() => setWidth(800));
    expect(store.getState().layout).toEqual({ collapsed: true, breakpoint: 'small' });
    expect(paper()).toHaveStyle({ width: '48px' });
    expect(main()).toHaveStyle({ marginLeft: '48px', paddingLeft: '10px' });
    act(() => setWidth(1300));
    expect(store.getState().layout).toEqual({ collapsed: false, breakpoint: 'large' });
    expect(main()).toHaveStyle({ marginLeft: '160px', paddingLeft: '16px' });
  });

  it('keeps the sidebar as the manager left it with its button, not as the window’s width made it', async () => {
    setWidth(1400);
    const first = renderLayout();
    await screen.findByText('页面内容');
    fireEvent.click(screen.getByRole('button', { name: '收起菜单' }));
    const stored = () => JSON.parse(localStorage.getItem('lz-admin-prefs:admin') ?? '{}').sidebarCollapsed;
    expect(stored()).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: '展开菜单' }));
    fireEvent.click(screen.getByRole('button', { name: '收起菜单' }));
    // A narrow window collapses it: not the manager's choice, which comes back when the window widens.
    act(() => setWidth(700));
    expect(first.store.getState().layout.collapsed).toBe(true);
    act(() => setWidth(1400));
    await waitFor(() => expect(first.store.getState().layout.collapsed).toBe(true));
    expect(stored()).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: '展开菜单' }));
    act(() => setWidth(700));
    act(() => setWidth(1400));
    await waitFor(() => expect(first.store.getState().layout.collapsed).toBe(false));
    expect(stored()).toBe(false);
    first.unmount();

    // makeStore clears the storage: put the manager's preference back, as a reload would find it.
    const store = makeStore();
    localStorage.setItem('lz-admin-prefs:admin', JSON.stringify({ sidebarCollapsed: true }));
    renderLayout('/layout/systemLayout/managerLayout', store);
    await screen.findByText('页面内容');
    await waitFor(() => expect(store.getState().layout.collapsed).toBe(true));
    expect(main()).toHaveStyle({ marginLeft: '48px' });
  });

  it('shows the outline of a page while its code loads', async () => {
    mockApi();
    let arrive: (m: { default: () => ReactElement }) => void = () => {};
    const Page = lazy(() => new Promise<{ default: () => ReactElement }>((resolve) => (arrive = resolve)));
    const router = createMemoryRouter(
      [{ path: '/layout', element: <Layout />, children: [{ path: '*', element: <Page /> }] }],
      { initialEntries: ['/layout/systemLayout/managerLayout'] },
    );
    render(
      <Provider store={makeStore()}>
        <RouterProvider router={router} />
      </Provider>,
    );
    expect(await screen.findByRole('status', { name: '页面加载中' })).toBeInTheDocument();
    await act(async () => arrive({ default: () => <p>页面内容</p> }));
    expect(await screen.findByText('页面内容')).toBeInTheDocument();
    expect(screen.queryByRole('status', { name: '页面加载中' })).toBeNull();
  });

  it('keeps a tab per open page with its URL; closing the one on screen shows the most recent other', async () => {
    const { router } = renderLayout('/layout/systemLayout/managerLayout?status=1');
    const strip = await screen.findByRole('navigation', { name: '已打开的页面' });
    await waitFor(() =>
      expect(
        within(strip)
          .getAllByRole('link')
          .map((a) => a.textContent),
      ).toEqual(['首页', '管理员']),
    );
    await act(() => router.navigate('/layout/systemLayout/roleLayout'));
    await waitFor(() => expect(within(strip).getAllByRole('link')).toHaveLength(3));
    expect(within(strip).getByRole('link', { name: '角色管理' })).toHaveAttribute('aria-current', 'page');
    // The 管理员 tab goes back to the page as it was left.
    expect(within(strip).getByRole('link', { name: '管理员' })).toHaveAttribute(
      'href',
      '/layout/systemLayout/managerLayout?status=1',
    );
    fireEvent.click(within(strip).getByRole('button', { name: '关闭「角色管理」' }));
    await waitFor(() =>
      expect(router.state.location.pathname + router.state.location.search).toBe(
        '/layout/systemLayout/managerLayout?status=1',
      ),
    );
    expect(within(strip).queryByRole('link', { name: '角色管理' })).toBeNull();
    // 关闭全部 keeps 首页 and goes there.
    fireEvent.click(within(strip).getByRole('button', { name: '标签操作' }));
    fireEvent.click(await screen.findByRole('menuitem', { name: '关闭全部' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/layout/welcome'));
    expect(
      within(strip)
        .getAllByRole('link')
        .map((a) => a.textContent),
    ).toEqual(['首页']);
    expect(within(strip).queryByRole('button', { name: /关闭「首页」/ })).toBeNull();
  });

  it('renders the child route in the main area', async () => {
    renderLayout();
    expect(await screen.findByText('页面内容')).toBeInTheDocument();
    expect(main()).toContainElement(screen.getByText('页面内容'));
  });

  it('shows 加载中... while a flagged request is pending', async () => {
    const { store } = renderLayout();
    await screen.findByText('页面内容');
    await waitFor(() => expect(store.getState().loading.count).toBe(0));
    expect(screen.queryByText('加载中...')).toBeNull();
    act(() => {
      store.dispatch(requestStarted());
      store.dispatch(requestStarted());
    });
    expect(screen.getByText('加载中...')).toBeVisible();
    act(() => {
      store.dispatch(requestFinished());
    });
    expect(screen.getByText('加载中...')).toBeVisible();
    act(() => {
      store.dispatch(requestFinished());
    });
    expect(screen.queryByText('加载中...')).toBeNull();
  });

  it('shows errors as a toast', async () => {
    const { store } = renderLayout();
    await screen.findByText('页面内容');
    act(() => {
      store.dispatch(toastShown('系统繁忙，请稍后再试', 'error'));
    });
    expect(await screen.findByRole('alert')).toHaveTextContent('系统繁忙，请稍后再试');
  });

  it('sends the user to login when the token disappears while a page is open', async () => {
    const { store, router } = renderLayout('/layout/systemLayout/managerLayout?page=3');
    await screen.findByText('页面内容');
    act(() => {
      store.dispatch(loggedOut());
    });
    await screen.findByText('登录页');
    expect(router.state.location.pathname).toBe('/login');
    expect(new URLSearchParams(router.state.location.search).get('redirect')).toBe(
      '/layout/systemLayout/managerLayout?page=3',
    );
  });
});
