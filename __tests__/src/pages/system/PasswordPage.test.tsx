import { configure, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import PasswordPage, { PASSWORD_CHANGED } from '../../../../src/pages/system/PasswordPage';
import { envelope } from '../../mockFetch';
import { makeStore, renderAt } from '../../shellHarness';
import { fakeSystemApi, type Call } from './fakeSystemApi';

jest.setTimeout(60_000);
configure({ asyncUtilTimeout: 8000 });

const PATH = '/layout/systemLayout/passwordLayout';

function setup(opts: Parameters<typeof fakeSystemApi>[0] = {}) {
  const api = fakeSystemApi(opts);
  const view = renderAt(<PasswordPage />, PATH, makeStore());
  return { ...api, ...view };
}

const field = (label: RegExp) => screen.getByLabelText(label);

async function fill(u: ReturnType<typeof userEvent.setup>, old: string, next: string, confirm: string) {
  for (const [label, value] of [
    [/原密码/, old],
    [/新密码/, next],
    [/确认密码/, confirm],
  ] as const) {
    await u.clear(field(label));
    if (value) await u.type(field(label), value);
  }
}

describe('PasswordPage', () => {
  it('checks the three fields before sending anything', async () => {
    const u = userEvent.setup();
    const { of } = setup();
    await u.click(screen.getByRole('button', { name: '确定' }));
    expect(screen.getByText('原密码不能为空')).toBeInTheDocument();
    expect(screen.getByText('新密码不能为空')).toBeInTheDocument();
    expect(screen.getByText('确认密码不能为空')).toBeInTheDocument();

    await fill(u, 'Old2026pass', 'short1', 'short1');
    await u.click(screen.getByRole('button', { name: '确定' }));
    expect(screen.getByText('新密码至少10位')).toBeInTheDocument();

    await fill(u, 'Old2026pass', 'Old2026pass', 'Old2026pass');
    await u.click(screen.getByRole('button', { name: '确定' }));
    expect(screen.getByText('新密码不能与原密码相同')).toBeInTheDocument();

    await fill(u, 'Old2026pass', 'New2026pass', 'New2026pasz');
    await u.click(screen.getByRole('button', { name: '确定' }));
    expect(screen.getByText('两次输入的新密码不一致')).toBeInTheDocument();
    expect(of('user/password')).toHaveLength(0);
  });

  it('changes the password with GET params, then clears the token and goes to login', async () => {
    const u = userEvent.setup();
    const { of, store, router } = setup();
    // Any printable characters and spaces, no composition rules: the server's policy.
    await fill(u, 'Old2026pass', 'new pass #2026!', 'new pass #2026!');
    await u.click(screen.getByRole('button', { name: '确定' }));
    await waitFor(() => expect(of('user/password')).toHaveLength(1));
    expect(of('user/password')[0]).toMatchObject({
      method: 'GET',
      query: { oldPassword: 'Old2026pass', newPassword: 'new pass #2026!' },
    });
    expect(await screen.findByText(PASSWORD_CHANGED, { selector: '[role="status"]' })).toBeInTheDocument();
    expect(store.getState().toast.items.map((t) => t.msg)).toContain(PASSWORD_CHANGED);
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(store.getState().auth.token).toBeNull();
    expect(localStorage.getItem('lz-admin-token')).toBeNull();
  });

  it('stays on the page with the server refusal as a toast', async () => {
    const u = userEvent.setup();
    const { of, store, router } = setup({
      override: (c: Call) => (c.path === 'user/password' ? envelope(null, 400, '原密码错误') : undefined),
    });
    await fill(u, 'Wrong2026pass', 'New2026pass', 'New2026pass');
    await u.click(screen.getByRole('button', { name: '确定' }));
    await waitFor(() => expect(of('user/password')).toHaveLength(1));
    await waitFor(() => expect(store.getState().toast.items.map((t) => t.msg)).toContain('原密码错误'));
    expect(screen.getByRole('button', { name: '确定' })).toBeEnabled();
    expect(router.state.location.pathname).toBe(PATH);
    expect(store.getState().auth.token).not.toBeNull();
  });
});
