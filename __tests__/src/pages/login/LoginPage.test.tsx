import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Provider } from 'react-redux';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import LoginPage, { safeRedirect } from '../../../../src/pages/login/LoginPage';
import { envelope, mockFetch } from '../../mockFetch';
import { makeStore } from '../../shellHarness';

function renderLogin(path = '/login') {
  const store = makeStore({ token: null });
  const router = createMemoryRouter(
    [
      { path: '/login', element: <LoginPage /> },
      { path: '/layout/*', element: <p>控制台</p> },
    ],
    { initialEntries: [path] },
  );
  render(
    <Provider store={store}>
      <RouterProvider router={router} />
    </Provider>,
  );
  const counts: number[] = [];
  store.subscribe(() => counts.push(store.getState().loading.count));
  return { store, router, counts, user: userEvent.setup() };
}

const bodyOf = async (mock: jest.Mock, call = 0) => JSON.parse(await (mock.mock.calls[call][0] as Request).text());

describe('LoginPage', () => {
  it('asks for both fields: 用户名不能为空, 密码不能为空', async () => {
    const fetchMock = mockFetch(() => envelope(null));
    const { user } = renderLogin();
    await user.click(screen.getByRole('button', { name: '登录' }));
    expect(screen.getByText('用户名不能为空')).toBeInTheDocument();
    expect(screen.getByText('密码不能为空')).toBeInTheDocument();
    expect(screen.getByLabelText('用户名')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText('用户名')).toHaveAccessibleDescription('用户名不能为空');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('counts a user name of blanks as empty and clears a message once fixed', async () => {
    const fetchMock = mockFetch(() => envelope(null));
    const { user } = renderLogin();
    await user.type(screen.getByLabelText('用户名'), '   ');
    await user.type(screen.getByLabelText('密码'), 'pw');
    await user.click(screen.getByRole('button', { name: '登录' }));
    expect(screen.getByText('用户名不能为空')).toBeInTheDocument();
    expect(screen.queryByText('密码不能为空')).toBeNull();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('submits on Enter with the trimmed user name and lands on the welcome page', async () => {
    const fetchMock = mockFetch(() => envelope({ token: 'tok-9', username: 'admin' }));
    const { user, store, router } = renderLogin();
    await user.type(screen.getByLabelText('用户名'), ' admin ');
    await user.type(screen.getByLabelText('密码'), 'Secret-123{Enter}');
    await screen.findByText('控制台');
    const request = fetchMock.mock.calls[0][0] as Request;
    expect(new URL(request.url).pathname).toBe('/v1/admin/user/login');
    expect(request.method).toBe('POST');
    await expect(bodyOf(fetchMock)).resolves.toEqual({ username: 'admin', password: 'Secret-123' });
    expect(store.getState().auth).toEqual({ token: 'tok-9', username: 'admin' });
    expect(localStorage.getItem('lz-admin-token')).toBe('tok-9');
    expect(localStorage.getItem('uname')).toBe('admin');
    expect(router.state.location.pathname).toBe('/layout/welcome');
  });

  it("shows the server's answer in the form, raises no overlay and no toast", async () => {
    mockFetch(() => envelope(null, 400, '用户名或密码错误'));
    const { user, store, counts, router } = renderLogin('/login?redirect=%2Flayout%2Fwelcome');
    await user.type(screen.getByLabelText('用户名'), 'admin');
    await user.type(screen.getByLabelText('密码'), 'wrong');
    await user.click(screen.getByRole('button', { name: '登录' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('用户名或密码错误');
    expect(counts.every((n) => n === 0)).toBe(true);
    expect(store.getState().toast.items).toEqual([]);
    expect(store.getState().auth.token).toBeNull();
    expect(router.state.location.pathname).toBe('/login');
  });

  it('shows a transport failure in the form too', async () => {
    mockFetch(() => Promise.reject(new TypeError('Failed to fetch')));
    const { user } = renderLogin();
    await user.type(screen.getByLabelText('用户名'), 'admin');
    await user.type(screen.getByLabelText('密码'), 'pw{Enter}');
    expect(await screen.findByRole('alert')).toHaveTextContent('请求失败，请稍后重试！');
  });

  it('disables the button while the call is pending', async () => {
    let release!: (r: Response) => void;
    mockFetch(() => new Promise<Response>((resolve) => (release = resolve)));
    const { user } = renderLogin();
    await user.type(screen.getByLabelText('用户名'), 'admin');
    await user.type(screen.getByLabelText('密码'), 'pw{Enter}');
    expect(await screen.findByRole('button', { name: '登录中...' })).toBeDisabled();
    release(envelope(null, 429, '登录失败次数过多，请15分钟后再试'));
    expect(await screen.findByRole('alert')).toHaveTextContent('登录失败次数过多，请15分钟后再试');
    await waitFor(() => expect(screen.getByRole('button', { name: '登录' })).toBeEnabled());
  });

  it('goes back to the redirect path after login', async () => {
    mockFetch(() => envelope({ token: 't', username: 'admin' }));
    const { user, router } = renderLogin('/login?redirect=%2Flayout%2FmemberLayout%2FmemberListLayout%3Fpage%3D2');
    await user.type(screen.getByLabelText('用户名'), 'admin');
    await user.type(screen.getByLabelText('密码'), 'pw{Enter}');
    await screen.findByText('控制台');
    expect(router.state.location.pathname + router.state.location.search).toBe(
      '/layout/memberLayout/memberListLayout?page=2',
    );
  });
});

describe('LoginPage: the code step of a manager with an authenticator', () => {
  const bodies: unknown[] = [];
  const answer = (handler: (path: string, body: any) => Response) =>
    mockFetch(async (req) => {
      const body = JSON.parse(await req.text());
      bodies.push(body);
      return handler(new URL(req.url).pathname, body);
    });
  beforeEach(() => {
    bodies.length = 0;
  });

  async function toCodeStep() {
    const fetchMock = answer((path, body) =>
      path === '/v1/admin/user/login'
        ? envelope({ username: 'admin', challenge: 'ch-1' })
        : body.code === '123456' || body.recoveryCode === 'ABCDE-12345'
          ? envelope({ token: 'tok-2fa', username: 'admin' })
          : envelope(null, 400, '验证码错误，请输入身份验证器中当前的6位验证码'),
    );
    const ctx = renderLogin();
    await ctx.user.type(screen.getByLabelText('用户名'), 'admin');
    await ctx.user.type(screen.getByLabelText('密码'), 'Secret-123{Enter}');
    await screen.findByRole('form', { name: '身份验证' });
    return { ...ctx, fetchMock };
  }

  it('asks for the code after the password and logs in with it and the challenge, without the overlay', async () => {
    const { user, store, router, fetchMock, counts } = await toCodeStep();
    expect(screen.getByText('请打开身份验证器，输入其中显示的6位验证码')).toBeInTheDocument();
    expect(store.getState().auth.token).toBeNull();
    await user.click(screen.getByRole('button', { name: '验证' }));
    expect(screen.getByText('请输入6位数字验证码')).toBeInTheDocument();
    await user.type(screen.getByLabelText('验证码'), '123 456{Enter}');
    await screen.findByText('控制台');
    const second = fetchMock.mock.calls[1][0] as Request;
    expect(new URL(second.url).pathname).toBe('/v1/admin/user/login/totp');
    expect(bodies[1]).toEqual({ challenge: 'ch-1', code: '123456' });
    expect(store.getState().auth).toEqual({ token: 'tok-2fa', username: 'admin' });
    expect(router.state.location.pathname).toBe('/layout/welcome');
    expect(counts.every((c) => c === 0)).toBe(true);
  });

  it("shows the server's refusal, takes a recovery code instead, and 返回 goes back to the password", async () => {
    const { user, fetchMock, store } = await toCodeStep();
    await user.type(screen.getByLabelText('验证码'), '000000{Enter}');
    expect(await screen.findByRole('alert')).toHaveTextContent('验证码错误，请输入身份验证器中当前的6位验证码');
    expect(store.getState().toast.items).toEqual([]);
    await user.click(screen.getByRole('button', { name: '使用恢复码' }));
    expect(screen.getByText('请输入一个未使用过的恢复码（每个恢复码只能使用一次）')).toBeInTheDocument();
    await user.type(screen.getByLabelText('恢复码'), 'ABCDE-12345{Enter}');
    await screen.findByText('控制台');
    expect(bodies[2]).toEqual({ challenge: 'ch-1', recoveryCode: 'ABCDE-12345' });
    expect(new URL((fetchMock.mock.calls[2][0] as Request).url).pathname).toBe('/v1/admin/user/login/totp');
  });

  it('返回 shows the password form again', async () => {
    const { user } = await toCodeStep();
    await user.click(screen.getByRole('button', { name: '返回' }));
    expect(screen.getByRole('form', { name: '登录' })).toBeInTheDocument();
  });
});

describe('safeRedirect', () => {
  it.each([
    [null, '/layout/welcome'],
    ['', '/layout/welcome'],
    ['/layout/billLayout?type=1', '/layout/billLayout?type=1'],
    ['//evil.example/x', '/layout/welcome'],
    ['/\\evil.example', '/layout/welcome'],
    ['https://evil.example', '/layout/welcome'],
    ['/login?redirect=%2F', '/layout/welcome'],
  ])('follows %p to %p', (target, expected) => {
    expect(safeRedirect(target)).toBe(expected);
  });
});
