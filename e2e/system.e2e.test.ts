/**
 * System management in a real browser (issue 3): a role with a few permissions limits what its
 * manager sees; disabling him ends his session at his next call; changing a password ends the session.
 * Names are unique per run so the file can share the e2e server with the other browser tests.
 */
import type { Browser, Page } from 'playwright-core';
import { api, apiLogin, launch, loginAs, newPage } from './browser';

const RUN = Date.now().toString(36).slice(-5);

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

const gridRow = (page: Page, text: string) => page.getByRole('row').filter({ hasText: text });

async function dialogSubmit(page: Page) {
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('button', { name: '确定' }).click();
  await dialog.waitFor({ state: 'hidden' });
}

describe('system management', () => {
  it('limits a manager to his role’s menu and buttons, and ends his session when he is disabled, at once on his open page', async () => {
    const roleName = `e2e审核${RUN}`;
    const username = `clerk${RUN}`;
    const password = 'Clerk2026x';

    // Admin: a role holding the managers page with create/edit only.
    const admin = await newPage(browser);
    await loginAs(admin.page);
    await admin.page.goto('/layout/systemLayout/roleLayout');
    await admin.page.getByRole('button', { name: '新增角色' }).click();
    let dialog = admin.page.getByRole('dialog', { name: '新增角色' });
    await dialog.locator('input[name="name"]').fill(roleName);
    await dialog.locator('textarea[name="remark"]').fill('浏览器测试');
    await dialogSubmit(admin.page);
    await gridRow(admin.page, roleName).waitFor();

    await gridRow(admin.page, roleName).getByRole('button', { name: '分配权限' }).click();
    dialog = admin.page.getByRole('dialog', { name: `分配权限 - ${roleName}` });
    await dialog.getByRole('tree').waitFor();
    await dialog.getByRole('checkbox', { name: '新增/编辑管理员' }).check();
    expect(await dialog.getByRole('checkbox', { name: '删除管理员' }).isChecked()).toBe(false);
    await dialogSubmit(admin.page);
    await admin.page.getByText('分配成功').first().waitFor();

    // Admin: a manager with that role.
    await admin.page.goto('/layout/systemLayout/managerLayout');
    await admin.page.getByRole('button', { name: '新增管理员' }).click();
    dialog = admin.page.getByRole('dialog', { name: '新增管理员' });
    await dialog.locator('input[name="username"]').fill(username);
    await dialog.locator('input[name="password"]').fill(password);
    await dialog.getByRole('combobox', { name: /角色/ }).click();
    await admin.page.getByRole('option', { name: roleName }).click();
    await dialogSubmit(admin.page);
    await gridRow(admin.page, username).waitFor();

    // The new manager, in a second browser: only his menu entries and buttons.
    const clerk = await newPage(browser);
    await loginAs(clerk.page, username, password);
    await clerk.page.waitForURL(/\/layout\/welcome$/);
    const shortcuts = clerk.page.getByRole('list', { name: '快捷入口' });
    await shortcuts.waitFor();
    expect(await shortcuts.getByRole('listitem').count()).toBe(2);
    await shortcuts.getByText('管理员', { exact: true }).waitFor();
    await shortcuts.getByText('修改密码', { exact: true }).waitFor();
    const sidebar = clerk.page.getByRole('navigation', { name: '侧边菜单' });
    await sidebar.getByText('系统管理').waitFor();
    expect(await sidebar.getByText('会员管理').count()).toBe(0);
    expect(await sidebar.getByText('充值管理').count()).toBe(0);

    await shortcuts.getByText('管理员', { exact: true }).click();
    await clerk.page.waitForURL(/\/layout\/systemLayout\/managerLayout$/);
    await gridRow(clerk.page, username).waitFor();
    await clerk.page.getByRole('button', { name: '新增管理员' }).waitFor();
    expect(await gridRow(clerk.page, username).getByRole('button', { name: '编辑' }).count()).toBe(1);
    expect(await clerk.page.getByRole('button', { name: '删除' }).count()).toBe(0);
    expect(await clerk.page.getByRole('tab', { name: '操作日志' }).count()).toBe(0);

    // A page outside his role, opened by URL, shows the 403 page.
    await clerk.page.goto('/layout/systemLayout/roleLayout');
    await clerk.page.getByText('无权限访问该页面').waitFor();
    await clerk.page.goto('/layout/systemLayout/managerLayout');
    await gridRow(clerk.page, username).waitFor();

    // Admin disables him; his page lands on login without a click.
    await admin.page.reload();
    await gridRow(admin.page, username).getByRole('button', { name: '禁用' }).click();
    await admin.page.getByRole('dialog').getByRole('button', { name: '确定' }).click();
    await admin.page.getByText('已禁用').first().waitFor();
    await gridRow(admin.page, username).getByText('禁用', { exact: true }).first().waitFor();

    // His open page notices by itself (the live channel checks sessions every few seconds).
    await clerk.page.waitForURL(/\/login\?redirect=/, { timeout: 20_000 });
    expect(await clerk.page.evaluate(() => localStorage.getItem('lz-admin-token'))).toBeNull();
    // And he cannot log in again while disabled.
    await clerk.page.getByLabel('用户名').fill(username);
    await clerk.page.getByLabel('密码').fill(password);
    await clerk.page.getByRole('button', { name: '登录' }).click();
    await clerk.page.waitForTimeout(500);
    expect(new URL(clerk.page.url()).pathname).toBe('/login');

    await clerk.context.close();
    await admin.context.close();
  });

  it('changes a password, ends the session and goes to login; the new password works', async () => {
    const username = `pwd${RUN}`;
    const token = await apiLogin();
    const role = await api<{ id: number }>(token, 'POST', '/v1/admin/role/create', { name: `e2e口令${RUN}` });
    expect(role.code).toBe(200);
    const created = await api(token, 'POST', '/v1/admin/user/create', {
      username,
      password: 'First2026x',
      roleId: role.data.id,
      status: 1,
    });
    expect(created.code).toBe(200);

    const { context, page } = await newPage(browser);
    await loginAs(page, username, 'First2026x');
    await page.getByRole('navigation', { name: '侧边菜单' }).getByText('系统管理').click();
    await page.getByRole('navigation', { name: '侧边菜单' }).getByText('修改密码').click();
    await page.waitForURL(/\/layout\/systemLayout\/passwordLayout$/);
    await page.locator('input[name="oldPassword"]').fill('First2026x');
    await page.locator('input[name="newPassword"]').fill('Second2026x');
    await page.locator('input[name="confirmPassword"]').fill('Second2026x');
    await page.getByRole('button', { name: '确定' }).click();
    await page.getByText('密码修改成功，请重新登录').first().waitFor();
    await page.waitForURL(/\/login$/);
    expect(await page.evaluate(() => localStorage.getItem('lz-admin-token'))).toBeNull();

    await page.getByLabel('用户名').fill(username);
    await page.getByLabel('密码').fill('First2026x');
    await page.getByRole('button', { name: '登录' }).click();
    await page.getByText('用户名或密码错误').first().waitFor();
    await loginAs(page, username, 'Second2026x');
    await page.waitForURL(/\/layout\/welcome$/);
    await context.close();
  });
});
