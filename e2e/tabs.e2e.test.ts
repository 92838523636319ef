/**
 * 标签页 as an operator uses them: pages opened from the menu become tabs that keep their filters, come
 * back after a reload, refresh their data, and close one, others or all (首页 stays); the sidebar stays
 * as the manager left it.
 */
import type { Browser } from 'playwright-core';
import { launch, loginAs, newPage } from './browser';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

const WITHDRAW_PATH = '/layout/withdrawLayout/withdrawListLayout';
const MEMBER_PATH = '/layout/memberLayout/memberListLayout';

describe('tabs of open pages', () => {
  it('keeps each page with its filters, after a reload too, and refreshes and closes them', async () => {
    const { context, page } = await newPage(browser, { width: 1440, height: 900 });
    await loginAs(page);
    const strip = page.getByRole('navigation', { name: '已打开的页面' });
    await page.goto(`${WITHDRAW_PATH}?status=0`);
    await page.locator('tbody tr[data-id]').first().waitFor();
    await page.goto(MEMBER_PATH);
    await page.locator('tbody tr[data-id]').first().waitFor();
    await strip.getByRole('link', { name: '会员列表' }).waitFor();

    // Back to 提现审核 by its tab: the filter it was left with is still there.
    await strip.getByRole('link', { name: '提现审核' }).click();
    await page.waitForURL(/withdrawListLayout\?status=0$/);
    await page.reload();
    await strip.getByRole('link', { name: '会员列表' }).waitFor();
    expect(await strip.getByRole('link').allTextContents()).toEqual(['首页', '提现审核', '会员列表']);

    // 刷新 asks the server for the page's data again.
    const again = page.waitForResponse((r) => r.url().includes('/v1/admin/withdraw/list'));
    await strip.getByRole('button', { name: '标签操作' }).click();
    await page.getByRole('menuitem', { name: '刷新' }).click();
    await again;

    // A right click on a tab: 关闭其他 keeps it and 首页, and shows it.
    await strip.getByRole('link', { name: '会员列表' }).click({ button: 'right' });
    await page.getByRole('menuitem', { name: '关闭其他' }).click();
    await page.waitForURL(new RegExp(`${MEMBER_PATH}$`));
    expect(await strip.getByRole('link').allTextContents()).toEqual(['首页', '会员列表']);
    await strip.getByRole('button', { name: '关闭「会员列表」' }).click();
    await page.waitForURL(/\/layout\/welcome$/);
    expect(await strip.getByRole('link').allTextContents()).toEqual(['首页']);
    await context.close();
  });

  it('keeps the sidebar collapsed after a reload when the manager collapsed it', async () => {
    const { context, page } = await newPage(browser, { width: 1440, height: 900 });
    await loginAs(page);
    await page.getByRole('button', { name: '收起菜单' }).click();
    await page.getByRole('button', { name: '展开菜单' }).waitFor();
    await page.reload();
    await page.getByRole('button', { name: '展开菜单' }).waitFor();
    await page.getByRole('button', { name: '展开菜单' }).click();
    await page.reload();
    await page.getByRole('button', { name: '收起菜单' }).waitFor();
    await context.close();
  });
});
