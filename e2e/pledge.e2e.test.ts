/**
 * Pledges in a real browser against the production build, on the demo data (its pledge step makes
 * modes and pledges and settles the past days, so records have releases): create and edit a mode,
 * find a pledge by the member and open its releases, export the records.
 */
import type { Browser, Page } from 'playwright-core';
import { api, apiLogin, launch, loginAs, newPage } from './browser';

let browser: Browser;
let token: string;
beforeAll(async () => {
  browser = await launch();
  token = await apiLogin();
});
afterAll(async () => {
  await browser?.close();
});

const LIST_PATH = '/layout/pledgeLayout/pledgeListLayout';
const MODE_PATH = '/layout/pledgeLayout/pledgeSettingLayout';
const row = (page: Page, id: number | string) => page.locator(`tr[data-id="${id}"]`);

describe('pledge', () => {
  it('creates a mode with the rate entered as a percentage, then edits it', async () => {
    const name = `浏览器${Date.now().toString(36).slice(-5)}`;
    const { context, page } = await newPage(browser);
    await loginAs(page);
    await page.goto(MODE_PATH);
    await page.getByRole('button', { name: '新增' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: '确定' }).click();
    await dialog.getByText('模式名称不能为空').waitFor();
    await dialog.getByLabel('模式名称').fill(name);
    await dialog.getByLabel('天数').fill('60');
    await dialog.getByLabel('日收益率').fill('7');
    await dialog.getByLabel('最低金额').fill('100');
    await dialog.getByLabel('最高金额').fill('20000');
    await dialog.getByRole('button', { name: '确定' }).click();
    await dialog.getByText('日收益率不能超过5%').waitFor();
    await dialog.getByLabel('日收益率').fill('0.65');
    await dialog.getByRole('button', { name: '确定' }).click();
    await page.getByText('新增成功').waitFor();

    const modes = await api(token, 'GET', '/v1/admin/pledge/mode/list');
    const made = modes.data.list.find((m: any) => m.name === name);
    expect(made).toMatchObject({ days: 60, rate: '0.0065', minAmount: '100', maxAmount: '20000', status: 1, inUse: 0 });
    const r = row(page, made.id);
    await r.getByText('0.65%').waitFor();

    await r.getByRole('button', { name: '编辑' }).click();
    const edit = page.getByRole('dialog');
    await expect(edit.getByLabel('日收益率').inputValue()).resolves.toBe('0.65');
    await edit.getByLabel('日收益率').fill('1.2');
    await edit.getByLabel('天数').fill('45');
    await edit.getByRole('button', { name: '确定' }).click();
    await page.getByText('保存成功').waitFor();
    await r.getByText('1.2%').waitFor();

    await r.getByRole('button', { name: '停用' }).click();
    const confirm = page.getByRole('dialog');
    await confirm.getByText(`确认停用质押模式「${name}」`, { exact: false }).waitFor();
    await confirm.getByRole('button', { name: '确定' }).click();
    await page.getByText('已停用').first().waitFor();
    const after = await api(token, 'GET', '/v1/admin/pledge/mode/list');
    expect(after.data.list.find((m: any) => m.id === made.id)).toMatchObject({ days: 45, rate: '0.012', status: 0 });
    await context.close();
  });

  it('finds a pledge by its member and opens its releases', async () => {
    const list = await api(token, 'GET', '/v1/admin/pledge/list?status=2&size=1');
    expect(list.data.total).toBeGreaterThan(0);
    const p = list.data.list[0];
    const { context, page } = await newPage(browser);
    await loginAs(page);
    await page.goto(LIST_PATH);
    await page.getByRole('note', { name: '最近结算' }).waitFor();
    await page.getByRole('textbox', { name: '会员' }).fill(p.uid);
    await page.getByRole('textbox', { name: '会员' }).press('Enter');
    await page.waitForURL(new RegExp(`keyword=${p.uid}`));
    const r = row(page, p.id);
    await r.getByText('已到期').waitFor();
    await r.getByRole('button', { name: '释放明细' }).click();
    const drawer = page.getByRole('region', { name: '释放明细' });
    const table = drawer.getByRole('table', { name: '释放明细' });
    await table.waitFor();
    const releases = await api(token, 'GET', `/v1/admin/pledge/release/list?pledgeId=${p.id}&size=1`);
    expect(releases.data.total).toBe(p.days);
    await table.getByText(releases.data.list[0].day, { exact: true }).waitFor();
    await drawer.getByText(`共 ${p.days} 条`, { exact: false }).waitFor();
    await context.close();
  });

  it('exports the pledge records as a dated .xlsx', async () => {
    const { context, page } = await newPage(browser);
    await loginAs(page);
    await page.goto(`${LIST_PATH}?status=1`);
    await page.getByRole('table', { name: '质押记录' }).getByRole('row').nth(1).waitFor();
    await page.getByRole('button', { name: '导出' }).click();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('menuitem', { name: '导出 Excel' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^质押记录_\d{8}\.xlsx$/);
    const file = await download.path();
    const fs = await import('node:fs');
    expect(fs.readFileSync(file!).subarray(0, 2).toString()).toBe('PK');
    await context.close();
  });
});
