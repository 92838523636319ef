/**
 * The operator's day, live (issue 14): an open list follows what members do without a reload, 搜索
 * with unchanged filters and 刷新 ask the server again, and a session ended elsewhere (another tab
 * removing the token) is noticed at once.
 */
import type { Browser } from 'playwright-core';
import { api, apiLogin, launch, loginAs, newPage, simulateWithdrawals } from './browser';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

const PENDING = '/layout/withdrawLayout/withdrawListLayout?status=0';

describe('live lists and sessions', () => {
  it('shows new withdrawal requests in an open 待审核 list by themselves; 搜索 and 刷新 ask again', async () => {
    const { context, page } = await newPage(browser);
    await loginAs(page);
    const lists: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/v1/admin/withdraw/list')) lists.push(r.url());
    });
    await page.goto(PENDING);
    const totals = page.getByRole('status').filter({ hasText: '共 ' });
    await totals.waitFor();
    const countOf = async () => Number(/共 (\d+) 条/.exec((await totals.textContent()) ?? '')?.[1]);
    const before = await countOf();

    const requested = await simulateWithdrawals(23);
    expect(requested).toBeGreaterThan(0);
    const token = await apiLogin();
    const want = (await api(token, 'GET', '/v1/admin/withdraw/list?type=1&status=0&size=1')).data.total as number;
    expect(want).not.toBe(before);
    // No reload, no click: the live channel says withdrawals changed and the list asks again.
    await page
      .getByRole('status')
      .filter({ hasText: `共 ${want} 条` })
      .waitFor({ timeout: 15_000 });
    expect(new URL(page.url()).search).toBe('?status=0');

    const asked = lists.length;
    await page.getByRole('button', { name: '搜索' }).click();
    await page.waitForTimeout(300);
    expect(lists.length).toBe(asked + 1);
    await page.getByRole('button', { name: '刷新' }).click();
    await page.waitForTimeout(300);
    expect(lists.length).toBe(asked + 2);
    await context.close();
  });

  it('leaves for the login page as soon as another tab removes the token', async () => {
    const { context, page } = await newPage(browser);
    await loginAs(page);
    await page.goto('/layout/welcome');
    await page.getByText('欢迎').first().waitFor();
    const other = await context.newPage();
    await other.goto('/layout/welcome');
    await other.evaluate(() => localStorage.removeItem('lz-admin-token'));
    await page.waitForURL(/\/login\?redirect=/, { timeout: 5_000 });
    await context.close();
  });
});
