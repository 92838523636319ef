/**
 * Renders pieces of the shell the way the app does: a real store (preloaded session), a memory
 * router, and a fetch mock answering the menu and logout calls.
 */
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { Provider } from 'react-redux';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router-dom';
import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider } from '@mui/material/styles';
import type { MenuEntry } from '../../src/services/generated/auth';
import { createAppStore } from '../../src/store';
import { widthChanged } from '../../src/store/layoutSlice';
import { theme } from '../../src/theme';
import { envelope, mockFetch } from './mockFetch';

export const L = '/layout';

/** A menu in the shape the server sends, with a group nested three deep. */
export const MENU: MenuEntry[] = [
  {
    id: 100,
    title: '系统管理',
    name: 'systemLayout',
    layout: `${L}/systemLayout`,
    sub: [
      { id: 110, title: '管理员', name: 'managerLayout', layout: `${L}/systemLayout/managerLayout`, sub: [] },
      { id: 120, title: '角色管理', name: 'roleLayout', layout: `${L}/systemLayout/roleLayout`, sub: [] },
    ],
  },
  {
    id: 200,
    title: '会员管理',
    name: 'memberLayout',
    layout: `${L}/memberLayout`,
    sub: [
      { id: 210, title: '会员列表', name: 'memberListLayout', layout: `${L}/memberLayout/memberListLayout`, sub: [] },
      {
        id: 250,
        title: '深层分组',
        name: 'deepGroup',
        layout: `${L}/memberLayout/deep`,
        sub: [{ id: 251, title: '深层页面', name: 'deepPage', layout: `${L}/memberLayout/deep/page`, sub: [] }],
      },
    ],
  },
  { id: 300, title: '转账记录', name: 'transferLayout', layout: `${L}/transferLayout`, sub: [] },
  { id: 900, title: '其他页面', name: 'unknownName', layout: `${L}/otherLayout`, sub: [] },
];

/** Sets the window width the layout reads, and tells listeners it changed. */
export function setWidth(width: number) {
  Object.defineProperty(window, 'innerWidth', { configurable: true, writable: true, value: width });
  window.dispatchEvent(new Event('resize'));
}

/** What GET welcome answers by default: nothing waits. */
export const NO_WAITING = { username: 'admin', lastLoginAt: null, lastLoginIp: '', waiting: [] as unknown[] };

export const NO_TOTP = {
  available: false,
  bound: false,
  required: false,
  boundAt: null,
  recoveryLeft: 0,
  stepUpSeconds: 300,
};

export function mockApi(
  menu: MenuEntry[] = MENU,
  logout: () => Response | Promise<Response> = () => envelope(null),
  welcome: unknown = NO_WAITING,
) {
  return mockFetch((request) => {
    const path = new URL(request.url).pathname;
    if (path === '/v1/admin/user/menu') return envelope(menu);
    if (path === '/v1/admin/user/logout') return logout();
    if (path === '/v1/admin/welcome') return envelope(welcome);
    // The shell's SecondFactor reads the authenticator status: none bound, none required.
    if (path === '/v1/admin/user/totp') return envelope(NO_TOTP);
    return envelope(null, 404, '接口不存在');
  });
}

export function makeStore(opts: { token?: string | null; width?: number } = {}) {
  localStorage.clear();
  const token = opts.token === undefined ? 'tok-1' : opts.token;
  if (token) {
    localStorage.setItem('lz-admin-token', token);
    localStorage.setItem('uname', 'admin');
  }
  const store = createAppStore({ auth: { token, username: token ? 'admin' : null } }, localStorage);
  if (opts.width !== undefined) store.dispatch(widthChanged(opts.width));
  return store;
}

/** Renders `element` at `path` inside /layout/*, plus a /login route that shows where we landed. */
export function renderAt(element: ReactElement, path: string, store = makeStore(), extraRoutes: RouteObject[] = []) {
  const router = createMemoryRouter(
    [{ path: '/layout/*', element }, { path: '/login', element: <p>登录页</p> }, ...extraRoutes],
    { initialEntries: [path] },
  );
  const view = render(
    <Provider store={store}>
      <ThemeProvider theme={theme}>
        <CssBaseline />
        <RouterProvider router={router} />
      </ThemeProvider>
    </Provider>,
  );
  return { ...view, store, router };
}
