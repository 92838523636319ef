import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import RolesPage from '../../../../src/pages/system/RolesPage';
import { envelope } from '../../mockFetch';
import { makeStore, NO_TOTP, renderAt } from '../../shellHarness';
import { fakeSystemApi, type Call } from './fakeSystemApi';

jest.setTimeout(60_000);
configure({ asyncUtilTimeout: 8000 });

const PATH = '/layout/systemLayout/roleLayout';

function setup(opts: Parameters<typeof fakeSystemApi>[0] = {}) {
  const api = fakeSystemApi(opts);
  const view = renderAt(<RolesPage />, PATH, makeStore());
  return { ...api, ...view };
}

const row = (name: string) => screen.getByRole('cell', { name }).closest('tr') as HTMLElement;
const toasts = (store: ReturnType<typeof makeStore>) => store.getState().toast.items.map((t) => t.msg);
const box = (dialog: HTMLElement, title: string) => within(dialog).getByRole('checkbox', { name: title });

describe('RolesPage', () => {
  it('lists roles; the super role has neither bind nor delete', async () => {
    setup();
    expect(await screen.findByRole('cell', { name: '审核提现' })).toBeInTheDocument();
    for (const header of ['ID', '角色名称', '备注', '管理员数', '创建时间', '操作']) {
      expect(screen.getByRole('columnheader', { name: header })).toBeInTheDocument();
    }
    const superRow = screen.getByRole('cell', { name: '拥有全部权限' }).closest('tr') as HTMLElement;
    expect(within(superRow).getByRole('button', { name: '编辑' })).toBeInTheDocument();
    expect(within(superRow).queryByRole('button', { name: '分配权限' })).not.toBeInTheDocument();
    expect(within(superRow).queryByRole('button', { name: '删除' })).not.toBeInTheDocument();
    const other = row('审核提现');
    expect(within(other).getByRole('button', { name: '分配权限' })).toBeInTheDocument();
    expect(within(other).getByRole('button', { name: '删除' })).toBeInTheDocument();
  });

  it('shows only the buttons of the held codes', async () => {
    setup({ codes: ['system', 'role:view', 'role:bind'] });
    await screen.findByRole('cell', { name: '审核提现' });
    expect(await within(row('审核提现')).findByRole('button', { name: '分配权限' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /新增角色/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: '编辑' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: '删除' })).not.toBeInTheDocument();
  });

  it('requires a name in the role dialog, then saves name and remark', async () => {
    const u = userEvent.setup();
    const { of } = setup();
    await u.click(await screen.findByRole('button', { name: /新增角色/ }));
    const dialog = await screen.findByRole('dialog', { name: '新增角色' });
    await u.click(within(dialog).getByRole('button', { name: '确定' }));
    expect(within(dialog).getByText('角色名称不能为空')).toBeInTheDocument();
    await u.type(within(dialog).getByLabelText(/角色名称/), ' 客服 ');
    await u.type(within(dialog).getByLabelText(/备注/), '只看会员');
    await u.click(within(dialog).getByRole('button', { name: '确定' }));
    await waitFor(() => expect(of('role/create')).toHaveLength(1));
    expect(of('role/create')[0].body).toEqual({ name: '客服', remark: '只看会员' });

    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await u.click(within(row('审核提现')).getByRole('button', { name: '编辑' }));
    const edit = await screen.findByRole('dialog', { name: '编辑角色' });
    expect(within(edit).getByLabelText(/角色名称/)).toHaveValue('审核员');
    await u.click(within(edit).getByRole('button', { name: '确定' }));
    await waitFor(() => expect(of('role/create')).toHaveLength(2));
    expect(of('role/create')[1].body).toEqual({ id: 2, name: '审核员', remark: '审核提现' });
  });

  it('shows which roles must bind an authenticator', async () => {
    setup();
    await screen.findByRole('cell', { name: '审核提现' });
    expect(screen.getByRole('columnheader', { name: '身份验证器' })).toBeInTheDocument();
    expect(within(row('审核提现')).getByRole('cell', { name: '必须绑定' })).toBeInTheDocument();
    const superRow = row('拥有全部权限');
    expect(within(superRow).queryByText('必须绑定')).not.toBeInTheDocument();
    expect(within(superRow).getByRole('cell', { name: '-' })).toBeInTheDocument();
  });

  it('sends the authenticator checkbox as requireTotp; an edit starts from the row', async () => {
    const u = userEvent.setup();
    const { of } = setup();
    await u.click(await screen.findByRole('button', { name: /新增角色/ }));
    const dialog = await screen.findByRole('dialog', { name: '新增角色' });
    const totp = within(dialog).getByRole('checkbox', { name: '要求绑定身份验证器' });
    expect(totp).not.toBeChecked();
    await u.type(within(dialog).getByLabelText(/角色名称/), '财务');
    await u.click(totp);
    expect(totp).toBeChecked();
    await u.click(within(dialog).getByRole('button', { name: '确定' }));
    await waitFor(() => expect(of('role/create')).toHaveLength(1));
    expect(of('role/create')[0].body).toEqual({ name: '财务', remark: '', requireTotp: true });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    // 审核员 requires one: the edit starts checked; unchecking sends false.
    await u.click(within(row('审核提现')).getByRole('button', { name: '编辑' }));
    const edit = await screen.findByRole('dialog', { name: '编辑角色' });
    const editBox = within(edit).getByRole('checkbox', { name: '要求绑定身份验证器' });
    expect(editBox).toBeChecked();
    await u.click(editBox);
    await u.click(within(edit).getByRole('button', { name: '确定' }));
    await waitFor(() => expect(of('role/create')).toHaveLength(2));
    expect(of('role/create')[1].body).toEqual({ id: 2, name: '审核员', remark: '审核提现', requireTotp: false });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    // The super role does not: its edit starts unchecked; checking sends true.
    await u.click(within(row('拥有全部权限')).getByRole('button', { name: '编辑' }));
    const superEdit = await screen.findByRole('dialog', { name: '编辑角色' });
    const superBox = within(superEdit).getByRole('checkbox', { name: '要求绑定身份验证器' });
    expect(superBox).not.toBeChecked();
    await u.click(superBox);
    await u.click(within(superEdit).getByRole('button', { name: '确定' }));
    await waitFor(() => expect(of('role/create')).toHaveLength(3));
    expect(of('role/create')[2].body).toEqual({ id: 1, name: '超级管理员', remark: '拥有全部权限', requireTotp: true });
  });

  it('without TOTP_KEY on the server the switch can only be turned off', async () => {
    const u = userEvent.setup();
    setup({
      override: (c: Call) => (c.path === 'user/totp' ? envelope(NO_TOTP) : undefined),
    });
    await u.click(await screen.findByRole('button', { name: /新增角色/ }));
    const dialog = await screen.findByRole('dialog', { name: '新增角色' });
    const label = '要求绑定身份验证器（服务器未配置 TOTP_KEY）';
    await waitFor(() => expect(within(dialog).getByRole('checkbox', { name: label })).toBeDisabled());
    await u.click(within(dialog).getByRole('button', { name: '取消' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    // 审核员 requires one already: its box stays usable, to turn it off.
    await u.click(within(row('审核提现')).getByRole('button', { name: '编辑' }));
    const edit = await screen.findByRole('dialog', { name: '编辑角色' });
    expect(within(edit).getByRole('checkbox', { name: label })).toBeEnabled();
  });

  it('draws the bind tree checked as the role holds it and saves the new set', async () => {
    const u = userEvent.setup();
    // The role holds the managers page with one action, and nothing else.
    const { of, store } = setup({ roleCodes: ['system', 'manager:view', 'manager:create', 'password:update'] });
    await screen.findByRole('cell', { name: '审核提现' });
    await u.click(within(row('审核提现')).getByRole('button', { name: '分配权限' }));
    const dialog = await screen.findByRole('dialog', { name: '分配权限 - 审核员' });
    await within(dialog).findByRole('tree');
    expect(of('user/permissions').at(-1)!.query).toEqual({ roleId: '2' });

    expect(box(dialog, '新增/编辑管理员')).toBeChecked();
    expect(box(dialog, '删除管理员')).not.toBeChecked();
    // Held with only some children: partial.
    expect(box(dialog, '管理员')).not.toBeChecked();
    expect(box(dialog, '管理员')).toHaveAttribute('data-indeterminate', 'true');
    expect(box(dialog, '系统管理')).toHaveAttribute('data-indeterminate', 'true');
    expect(box(dialog, '角色管理')).not.toBeChecked();
    expect(box(dialog, '角色管理')).toHaveAttribute('data-indeterminate', 'false');
    // Always granted: checked and fixed.
    expect(box(dialog, '修改密码')).toBeChecked();
    expect(box(dialog, '修改密码')).toBeDisabled();

    // Checking a page grants what it shows, not what it does: view only, no action.
    await u.click(box(dialog, '角色管理'));
    expect(box(dialog, '角色管理')).toHaveAttribute('data-indeterminate', 'true');
    for (const t of ['新增/编辑角色', '分配权限', '删除角色']) expect(box(dialog, t)).not.toBeChecked();
    // A second tick on the partly held page grants its actions too.
    await u.click(box(dialog, '角色管理'));
    for (const t of ['角色管理', '新增/编辑角色', '分配权限', '删除角色']) expect(box(dialog, t)).toBeChecked();
    // Each action says what it grants: 分配权限 changes who may act.
    expect(box(dialog, '分配权限').closest('li')).toHaveTextContent('操作 · 授权');
    await u.click(box(dialog, '管理员'));
    for (const t of ['管理员', '新增/编辑管理员', '删除管理员', '查看操作日志']) expect(box(dialog, t)).toBeChecked();
    expect(box(dialog, '系统管理')).toBeChecked();
    // Unchecking a parent clears its subtree; the group keeps the other page.
    await u.click(box(dialog, '角色管理'));
    for (const t of ['角色管理', '新增/编辑角色', '分配权限', '删除角色']) expect(box(dialog, t)).not.toBeChecked();
    expect(box(dialog, '系统管理')).toHaveAttribute('data-indeterminate', 'true');
    // A top-level page.
    await u.click(box(dialog, '转账记录'));
    expect(box(dialog, '转账记录')).toBeChecked();

    await u.click(within(dialog).getByRole('button', { name: '确定' }));
    await waitFor(() => expect(of('role/bind')).toHaveLength(1));
    expect(of('role/bind')[0].body).toEqual({ roleId: 2, permissionIds: [100, 110, 111, 112, 113, 300] });
    await waitFor(() => expect(toasts(store)).toContain('分配成功'));
    // The caller's own codes and menu are fetched again: the role may be his own.
    await waitFor(() => expect(of('user/permissions').filter((c) => !c.query.roleId).length).toBeGreaterThan(1));
    await waitFor(() => expect(of('user/menu').length).toBeGreaterThan(0));
  });

  it('unchecking the last page of a group unchecks the group', async () => {
    const u = userEvent.setup();
    const { of } = setup({ roleCodes: ['system', 'role:view'] });
    await screen.findByRole('cell', { name: '审核提现' });
    await u.click(within(row('审核提现')).getByRole('button', { name: '分配权限' }));
    const dialog = await screen.findByRole('dialog', { name: '分配权限 - 审核员' });
    await within(dialog).findByRole('tree');
    await u.click(box(dialog, '角色管理'));
    await u.click(box(dialog, '角色管理'));
    expect(box(dialog, '系统管理')).not.toBeChecked();
    expect(box(dialog, '系统管理')).toHaveAttribute('data-indeterminate', 'false');
    await u.click(within(dialog).getByRole('button', { name: '确定' }));
    await waitFor(() => expect(of('role/bind')).toHaveLength(1));
    expect(of('role/bind')[0].body).toEqual({ roleId: 2, permissionIds: [] });
  });

  it('deletes after a confirm and shows the refusal of a role in use', async () => {
    const u = userEvent.setup();
    const { of, store } = setup({
      override: (c: Call) =>
        c.path === 'role/delete' ? envelope(null, 400, '该角色下还有管理员，无法删除') : undefined,
    });
    await screen.findByRole('cell', { name: '审核提现' });
    await u.click(within(row('审核提现')).getByRole('button', { name: '删除' }));
    const ask = await screen.findByRole('dialog');
    expect(within(ask).getByText('确认删除角色 审核员？')).toBeInTheDocument();
    await u.click(within(ask).getByRole('button', { name: '确定' }));
    await waitFor(() => expect(of('role/delete')).toHaveLength(1));
    expect(of('role/delete')[0]).toMatchObject({ method: 'GET', query: { roleId: '2' } });
    await waitFor(() => expect(toasts(store)).toContain('该角色下还有管理员，无法删除'));
    expect(toasts(store)).not.toContain('删除成功');
  });
});
