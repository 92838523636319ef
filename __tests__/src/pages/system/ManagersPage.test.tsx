import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import ManagersPage from '../../../../src/pages/system/ManagersPage';
import { loggedIn } from '../../../../src/store/authSlice';
import { envelope } from '../../mockFetch';
import { makeStore, renderAt } from '../../shellHarness';
import { ALL_CODES, fakeSystemApi, type Call } from './fakeSystemApi';

jest.setTimeout(60_000);
// The machine is shared: give the grid time to render.
configure({ asyncUtilTimeout: 8000 });

const PATH = '/layout/systemLayout/managerLayout';

function setup(opts: Parameters<typeof fakeSystemApi>[0] = {}, path = PATH, store = makeStore()) {
  const api = fakeSystemApi(opts);
  const view = renderAt(<ManagersPage />, path, store);
  return { ...api, ...view };
}

/** A store signed in as `username` (makeStore signs in as admin, the super manager of the fake). */
function storeAs(username: string) {
  const store = makeStore();
  store.dispatch(loggedIn({ token: 'tok-1', username }));
  return store;
}

const RESET_ASK = (username: string) =>
  `确认重置 ${username} 的身份验证器？重置后其登录将只需密码，且当前登录会被强制退出。`;

const row = (name: string) => screen.getByRole('cell', { name }).closest('tr') as HTMLElement;
const toasts = (store: ReturnType<typeof makeStore>) => store.getState().toast.items.map((t) => t.msg);

async function pick(container: HTMLElement, label: string, option: string) {
  fireEvent.mouseDown(within(container).getByRole('combobox', { name: label }));
  fireEvent.click(await screen.findByRole('option', { name: option }));
}

describe('ManagersPage', () => {
  it('lists managers with the columns of DOMAIN.md and a status chip', async () => {
    const { of } = setup();
    expect(await screen.findByRole('cell', { name: 'auditor01' })).toBeInTheDocument();
    for (const header of ['ID', '用户名', '角色', '状态', '最后登录时间', '最后登录IP', '创建时间', '操作']) {
      expect(screen.getByRole('columnheader', { name: header })).toBeInTheDocument();
    }
    const admin = row('admin');
    expect(within(admin).getByText('超级管理员')).toBeInTheDocument();
    expect(within(admin).getByText('启用')).toBeInTheDocument();
    expect(within(admin).getByText('2026-11-20 10:30:00')).toBeInTheDocument();
    expect(within(admin).getByText('10.0.0.8')).toBeInTheDocument();
    expect(within(row('auditor01')).getByText('禁用')).toBeInTheDocument();
    // The caller's codes are asked once, whatever the number of rows and buttons.
    expect(of('user/permissions')).toHaveLength(1);
    expect(of('user/permissions')[0].query).toEqual({});
  });

  it('keeps the filters in the URL and sends them', async () => {
    const { of, router } = setup({}, `${PATH}?username=aud&status=0`);
    await screen.findByRole('cell', { name: 'auditor01' });
    expect(of('user/list')[0].query).toMatchObject({ username: 'aud', status: '0', page: '1', size: '20' });
    expect(screen.getByRole('textbox', { name: '用户名' })).toHaveValue('aud');
    await pick(screen.getByRole('search'), '角色', '审核员');
    fireEvent.click(screen.getByRole('button', { name: '搜索' }));
    await waitFor(() => expect(router.state.location.search).toContain('roleId=2'));
    await waitFor(() => expect(of('user/list').at(-1)!.query).toMatchObject({ roleId: '2', username: 'aud' }));
  });

  it('hides the buttons and the log tab the caller may not use', async () => {
    setup({ codes: ['system', 'manager:view', 'password:update'] });
    await screen.findByRole('cell', { name: 'auditor01' });
    expect(screen.getByRole('tab', { name: '管理员' })).toBeInTheDocument();
    expect(screen.queryByRole('tab', { name: '操作日志' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /新增管理员/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: '编辑' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: '删除' })).not.toBeInTheDocument();
    expect(screen.queryByRole('columnheader', { name: '操作' })).not.toBeInTheDocument();
  });

  it('shows edit and toggle without delete for manager:create only', async () => {
    setup({ codes: ['system', 'manager:view', 'manager:create'] });
    await screen.findByRole('cell', { name: 'auditor01' });
    expect(await screen.findByRole('button', { name: /新增管理员/ })).toBeInTheDocument();
    expect(within(row('auditor01')).getByRole('button', { name: '编辑' })).toBeInTheDocument();
    expect(within(row('auditor01')).getByRole('button', { name: '启用' })).toBeInTheDocument();
    expect(within(row('admin')).getByRole('button', { name: '禁用' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: '删除' })).not.toBeInTheDocument();
  });

  it('checks the create dialog before sending, then creates and refreshes the list', async () => {
    const u = userEvent.setup();
    const { of } = setup();
    await u.click(await screen.findByRole('button', { name: /新增管理员/ }));
    const dialog = await screen.findByRole('dialog', { name: '新增管理员' });
    await u.click(within(dialog).getByRole('button', { name: '确定' }));
    expect(within(dialog).getByText('用户名不能为空')).toBeInTheDocument();
    expect(within(dialog).getByText('密码不能为空')).toBeInTheDocument();
    expect(within(dialog).getByText('角色不能为空')).toBeInTheDocument();

    await u.type(within(dialog).getByLabelText(/用户名/), 'ab_');
    await u.type(within(dialog).getByLabelText(/密码/), 'Passw0rd');
    await u.click(within(dialog).getByRole('button', { name: '确定' }));
    expect(within(dialog).getByText('用户名须为4-20位字母或数字')).toBeInTheDocument();
    expect(within(dialog).getByText('密码至少10位')).toBeInTheDocument();
    expect(of('user/create')).toHaveLength(0);

    await u.clear(within(dialog).getByLabelText(/用户名/));
    await u.type(within(dialog).getByLabelText(/用户名/), 'newbie01');
    await u.clear(within(dialog).getByLabelText(/密码/));
    await u.type(within(dialog).getByLabelText(/密码/), 'Secret2026');
    await pick(dialog, '角色', '审核员');
    const lists = of('user/list').length;
    await u.click(within(dialog).getByRole('button', { name: '确定' }));
    await waitFor(() => expect(of('user/create')).toHaveLength(1));
    expect(of('user/create')[0].body).toEqual({ username: 'newbie01', password: 'Secret2026', roleId: 2, status: 1 });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await waitFor(() => expect(of('user/list').length).toBeGreaterThan(lists));
  });

  it('edits with the row version, keeps a blank password, and shows a stale-row refusal', async () => {
    const u = userEvent.setup();
    const { of, store } = setup({
      override: (c: Call) =>
        c.path === 'user/create' ? envelope(null, 409, '该管理员已被他人修改，请刷新后重试') : undefined,
    });
    await screen.findByRole('cell', { name: 'auditor01' });
    await u.click(within(row('auditor01')).getByRole('button', { name: '编辑' }));
    const dialog = await screen.findByRole('dialog', { name: '编辑管理员' });
    expect(within(dialog).getByLabelText(/用户名/)).toHaveValue('auditor01');
    expect(within(dialog).getByLabelText(/密码/)).toHaveValue('');
    await u.click(within(dialog).getByRole('button', { name: '确定' }));
    await waitFor(() => expect(of('user/create')).toHaveLength(1));
    expect(of('user/create')[0].body).toEqual({ id: 2, version: 5, username: 'auditor01', roleId: 2, status: 0 });
    expect(await within(dialog).findByText('该管理员已被他人修改，请刷新后重试')).toBeInTheDocument();
    // shown in the dialog only, not a second time as a toast
    expect(toasts(store)).not.toContain('该管理员已被他人修改，请刷新后重试');
  });

  it('enables and disables after a confirm, sending the row version', async () => {
    const u = userEvent.setup();
    const { of, store } = setup();
    await screen.findByRole('cell', { name: 'auditor01' });
    await u.click(within(row('admin')).getByRole('button', { name: '禁用' }));
    const ask = await screen.findByRole('dialog');
    expect(within(ask).getByText('确认禁用管理员 admin？禁用后其登录立即失效。')).toBeInTheDocument();
    await u.click(within(ask).getByRole('button', { name: '取消' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(of('user/create')).toHaveLength(0);

    await u.click(within(row('auditor01')).getByRole('button', { name: '启用' }));
    await u.click(within(await screen.findByRole('dialog')).getByRole('button', { name: '确定' }));
    await waitFor(() => expect(of('user/create')).toHaveLength(1));
    expect(of('user/create')[0].body).toEqual({ id: 2, version: 5, username: 'auditor01', roleId: 2, status: 1 });
    await waitFor(() => expect(toasts(store)).toContain('已启用'));
  });

  it('deletes after a confirm and shows the server refusal as a toast', async () => {
    const u = userEvent.setup();
    const { of, store } = setup({
      override: (c: Call) =>
        c.path === 'user/delete' && c.body.id === 1 ? envelope(null, 400, '不能删除自己') : undefined,
    });
    await screen.findByRole('cell', { name: 'auditor01' });
    await u.click(within(row('admin')).getByRole('button', { name: '删除' }));
    await u.click(within(await screen.findByRole('dialog')).getByRole('button', { name: '确定' }));
    await waitFor(() => expect(toasts(store)).toContain('不能删除自己'));
    // The confirm dialog may still be closing (a modal hides the grid from the accessibility tree).
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.getByRole('cell', { name: 'admin' })).toBeInTheDocument();

    await u.click(within(row('auditor01')).getByRole('button', { name: '删除' }));
    await u.click(within(await screen.findByRole('dialog')).getByRole('button', { name: '确定' }));
    await waitFor(() => expect(of('user/delete').at(-1)!.body).toEqual({ id: 2 }));
    await waitFor(() => expect(screen.queryByRole('cell', { name: 'auditor01' })).not.toBeInTheDocument());
    expect(toasts(store)).toContain('删除成功');
  });

  it('shows whether each manager has bound an authenticator', async () => {
    setup();
    await screen.findByRole('cell', { name: 'auditor01' });
    expect(screen.getByRole('columnheader', { name: '身份验证器' })).toBeInTheDocument();
    expect(within(row('admin')).getByText('未绑定')).toBeInTheDocument();
    expect(within(row('auditor01')).getByText('已绑定')).toBeInTheDocument();
    expect(within(row('admin')).queryByText('已绑定')).not.toBeInTheDocument();
  });

  it('lets the super manager reset a bound authenticator after a confirm', async () => {
    const u = userEvent.setup();
    const { of, store } = setup();
    await screen.findByRole('cell', { name: 'auditor01' });
    // Only a row with an authenticator has the action.
    expect(within(row('admin')).queryByRole('button', { name: '重置验证器' })).not.toBeInTheDocument();

    await u.click(within(row('auditor01')).getByRole('button', { name: '重置验证器' }));
    const ask = await screen.findByRole('dialog');
    expect(within(ask).getByText(RESET_ASK('auditor01'))).toBeInTheDocument();
    await u.click(within(ask).getByRole('button', { name: '取消' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(of('user/totp/reset')).toHaveLength(0);

    const lists = of('user/list').length;
    await u.click(within(row('auditor01')).getByRole('button', { name: '重置验证器' }));
    await u.click(within(await screen.findByRole('dialog')).getByRole('button', { name: '确定' }));
    await waitFor(() => expect(of('user/totp/reset')).toHaveLength(1));
    expect(of('user/totp/reset')[0]).toMatchObject({ method: 'POST', body: { id: 2 } });
    await waitFor(() => expect(toasts(store)).toContain('重置成功'));
    // The list is fetched again and shows the authenticator gone.
    await waitFor(() => expect(of('user/list').length).toBeGreaterThan(lists));
    await waitFor(() => expect(within(row('auditor01')).getByText('未绑定')).toBeInTheDocument());
    expect(within(row('auditor01')).queryByRole('button', { name: '重置验证器' })).not.toBeInTheDocument();
  });

  it('shows the refusal of a reset as a toast', async () => {
    const u = userEvent.setup();
    const { of, store } = setup({
      override: (c: Call) =>
        c.path === 'user/totp/reset' ? envelope(null, 409, '管理员 auditor01 未绑定身份验证器') : undefined,
    });
    await screen.findByRole('cell', { name: 'auditor01' });
    await u.click(within(row('auditor01')).getByRole('button', { name: '重置验证器' }));
    await u.click(within(await screen.findByRole('dialog')).getByRole('button', { name: '确定' }));
    await waitFor(() => expect(of('user/totp/reset')).toHaveLength(1));
    await waitFor(() => expect(toasts(store)).toContain('管理员 auditor01 未绑定身份验证器'));
    expect(toasts(store)).not.toContain('重置成功');
  });

  it('hides the reset from a manager whose own listed row is not super', async () => {
    setup({}, PATH, storeAs('auditor01'));
    await screen.findByRole('cell', { name: 'auditor01' });
    expect(await within(row('auditor01')).findByRole('button', { name: '编辑' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: '重置验证器' })).not.toBeInTheDocument();
  });

  it('hides the reset without manager:create', async () => {
    setup({ codes: ['system', 'manager:view', 'manager:delete'] });
    await screen.findByRole('cell', { name: 'auditor01' });
    expect(await within(row('auditor01')).findByRole('button', { name: '删除' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: '重置验证器' })).not.toBeInTheDocument();
  });

  it('offers the reset when the caller is not on the page, and shows the server refusing a non-super caller', async () => {
    const u = userEvent.setup();
    const { of, store } = setup(
      {
        override: (c: Call) =>
          c.path === 'user/totp/reset' ? envelope(null, 403, '只有超级管理员可以重置身份验证器') : undefined,
      },
      PATH,
      storeAs('ops01'),
    );
    await screen.findByRole('cell', { name: 'auditor01' });
    await u.click(within(row('auditor01')).getByRole('button', { name: '重置验证器' }));
    await u.click(within(await screen.findByRole('dialog')).getByRole('button', { name: '确定' }));
    await waitFor(() => expect(of('user/totp/reset')).toHaveLength(1));
    await waitFor(() => expect(toasts(store)).toContain('只有超级管理员可以重置身份验证器'));
    expect(toasts(store)).not.toContain('重置成功');
  });

  it('lists the operation log in its tab with user, action and date filters', async () => {
    const u = userEvent.setup();
    const { of, router } = setup({ codes: ALL_CODES });
    await u.click(await screen.findByRole('tab', { name: '操作日志' }));
    expect(await screen.findByRole('cell', { name: '为角色 审核员 分配权限（1项）：管理员' })).toBeInTheDocument();
    // The target in Chinese, not the server's role#2 (审核员).
    expect(screen.getByRole('cell', { name: '角色 #2（审核员）' })).toBeInTheDocument();
    // …and a link to the role on its page.
    expect(screen.getByRole('link', { name: '角色 #2（审核员）' })).toHaveAttribute(
      'href',
      `/layout/systemLayout/roleLayout?name=${encodeURIComponent('审核员')}`,
    );
    for (const header of ['操作人', '操作', '操作对象', '内容', 'IP', '操作时间']) {
      expect(screen.getByRole('columnheader', { name: header })).toBeInTheDocument();
    }
    expect(router.state.location.search).toBe('?tab=log');
    await u.type(screen.getByRole('textbox', { name: '操作人' }), 'admin');
    await pick(screen.getByRole('search'), '操作', '删除管理员');
    fireEvent.click(screen.getByRole('button', { name: '搜索' }));
    await waitFor(() =>
      expect(of('user/opt/list').at(-1)!.query).toMatchObject({ username: 'admin', code: 'manager:delete' }),
    );
    expect(router.state.location.search).toContain('log.code=manager%3Adelete');
  });

  it('opens on the log tab from the URL', async () => {
    const { of } = setup({}, `${PATH}?tab=log&log.start=2026-11-01&log.end=2026-11-20`);
    await screen.findByRole('cell', { name: 'admin' });
    await waitFor(() => expect(of('user/opt/list')[0].query).toMatchObject({ start: '2026-11-01', end: '2026-11-20' }));
    expect(of('user/list')).toHaveLength(0);
  });
});
