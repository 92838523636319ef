/**
 * Members in a real browser (issue 4): create a member, adjust its balance and see it in the list and
 * the detail drawer; filter, page, reload and go back restore the list state from the URL.
 * The e2e server's demo data holds ~2,000 members, so the list has pages.
 */
import type { Browser, Page } from 'playwright-core';
import { api, apiLogin, launch, loginAs, newPage } from './browser';

const RUN = Date.now().toString().slice(-8);
const LIST = '/layout/memberLayout/memberListLayout';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

const gridRow = (page: Page, text: string) => page.getByRole('row').filter({ hasText: text });
/** The UID shown in the first data row of the grid. */
async function firstUid(page: Page): Promise<string> {
  const cell = page.locator('tbody tr:first-child [data-field="uid"]');
  await cell.waitFor();
  return (await cell.textContent()) ?? '';
}

describe('members', () => {
  it('creates a member, adjusts its balance and shows it in the list and the drawer', async () => {
    const phone = `137${RUN}`;
    const nickname = `浏览器${RUN.slice(-4)}`;
    const { page, context } = await newPage(browser);
    await loginAs(page, 'admin', undefined, `/login?redirect=${encodeURIComponent(LIST)}`);
    await page.waitForURL((url) => url.pathname === LIST);

    await page.getByRole('button', { name: '新增会员' }).click();
    let dialog = page.getByRole('dialog', { name: '新增会员' });
    await dialog.locator('input[name="phone"]').fill(phone);
    await dialog.locator('input[name="password"]').fill('abc12345');
    await dialog.locator('input[name="nickname"]').fill(nickname);
    await dialog.getByRole('button', { name: '确定' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByText('新增成功').first().waitFor();

    await page.getByRole('textbox', { name: '关键字' }).fill(phone);
    const searched = page.waitForResponse((r) => r.url().includes(`keyword=${phone}`));
    await page.getByRole('textbox', { name: '关键字' }).press('Enter');
    await page.waitForURL((url) => url.searchParams.get('keyword') === phone);
    await searched;
    const row = gridRow(page, phone);
    await row.waitFor();
    await expect(row.textContent()).resolves.toContain(nickname);

    await row.getByRole('button', { name: '调整余额' }).click();
    dialog = page.getByRole('dialog', { name: '调整余额' });
    await dialog.locator('input[name="amount"]').fill('88.5');
    await dialog.getByRole('button', { name: '确定' }).click();
    await dialog.getByText('备注不能为空').waitFor();
    await dialog.locator('textarea[name="remark"]').fill('浏览器测试补发');
    await dialog.getByRole('button', { name: '确定' }).click();
    // Money moves only after a second question that names the member, the amount and the asset.
    const sure = page.getByRole('dialog', { name: '确认调整余额' });
    await sure.getByText(/确认为会员 \d+（.+）增加 88\.50 USDT？/).waitFor();
    await sure.getByRole('button', { name: '确定' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByText('调整成功').first().waitFor();
    await row.locator('[data-field="balanceUSDT"]').getByText('88.50').waitFor();

    // A debit past the balance is refused and changes nothing.
    await row.getByRole('button', { name: '调整余额' }).click();
    dialog = page.getByRole('dialog', { name: '调整余额' });
    await dialog.locator('input[name="amount"]').fill('-100');
    await dialog.locator('textarea[name="remark"]').fill('扣多了');
    await dialog.getByRole('button', { name: '确定' }).click();
    await page.getByRole('dialog', { name: '确认调整余额' }).getByRole('button', { name: '确定' }).click();
    await dialog.getByRole('alert').getByText('可用余额不足，当前可用 88.50 USDT').waitFor();
    await dialog.getByRole('button', { name: '取消' }).click();
    await dialog.waitFor({ state: 'hidden' });

    await row.getByRole('button', { name: '详情' }).click();
    const drawer = page.getByRole('region', { name: '会员详情' });
    await drawer.getByRole('table', { name: '资产' }).getByText('88.50').waitFor();
    const bills = drawer.getByRole('table', { name: '最近账单' });
    await bills.getByText('浏览器测试补发').waitFor();
    await expect(bills.textContent()).resolves.toContain('后台调整');
    await drawer.getByRole('button', { name: '关闭' }).click();

    // The server agrees: one 后台调整 bill of 88.5 USDT.
    const token = await apiLogin();
    const found = await api(token, 'GET', `/v1/admin/member/list?keyword=${phone}`);
    expect(found.data.list[0].balances.USDT).toEqual({ available: '88.5', frozen: '0' });
    await context.close();
  });

  it('keeps filters, page and sort in the URL through reload and back', async () => {
    const { page, context } = await newPage(browser);
    await loginAs(page, 'admin', undefined, `/login?redirect=${encodeURIComponent(LIST)}`);
    await page.waitForURL((url) => url.pathname === LIST);
    await firstUid(page);

    await page.getByRole('combobox', { name: '状态' }).click();
    await page.getByRole('option', { name: '正常' }).click();
    const filtered = page.waitForResponse((r) => /member\/list\?.*status=1/.test(r.url()));
    await page.getByRole('button', { name: '搜索' }).click();
    await page.waitForURL(/[?&]status=1(&|$)/);
    await filtered;
    const page1 = await firstUid(page);

    const second = page.waitForResponse((r) => /member\/list\?.*page=2/.test(r.url()));
    await page.getByRole('button', { name: /下一页/ }).click();
    await page.waitForURL(/[?&]page=2(&|$)/);
    await second;
    await page.waitForFunction(
      (uid) => document.querySelector('tbody tr:first-child [data-field="uid"]')?.textContent !== uid,
      page1,
    );
    const page2 = await firstUid(page);
    expect(page2).not.toBe(page1);

    await page.reload();
    await page.waitForURL((url) => url.searchParams.get('page') === '2' && url.searchParams.get('status') === '1');
    expect(await firstUid(page)).toBe(page2);
    await page.getByRole('combobox', { name: '状态' }).filter({ hasText: '正常' }).waitFor();

    await page.goBack();
    await page.waitForURL((url) => !url.searchParams.has('page') && url.searchParams.get('status') === '1');
    await page.waitForFunction(
      (uid) => document.querySelector('tbody tr:first-child [data-field="uid"]')?.textContent === uid,
      page1,
    );
    await page.getByRole('combobox', { name: '状态' }).filter({ hasText: '正常' }).waitFor();

    await page.goBack();
    await page.waitForURL((url) => !url.searchParams.has('status'));
    await page.getByRole('combobox', { name: '状态' }).filter({ hasNotText: '正常' }).waitFor();
    await context.close();
  });
});
