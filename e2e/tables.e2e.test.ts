/**
 * The list table as an operator works it at 1280 and 1440 px: ID and 操作 stay in view while a wide list
 * scrolls sideways, pages are reached by number, 首页 and 末页, the column settings come back after a
 * reload, and a withdrawal opens in a drawer whose address is copied exactly.
 */
import type { Browser, Page } from 'playwright-core';
import { api, apiLogin, launch, loginAs, newPage } from './browser';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
/**
 * A session for the API calls of one test: each browser login is a session too, and a manager keeps a
 * limited number, the oldest ending first (one token for the whole file ended after five tests).
 */
const freshToken = () => apiLogin();
afterAll(async () => {
  await browser?.close();
});

const WITHDRAW_PATH = '/layout/withdrawLayout/withdrawListLayout';
const MEMBER_PATH = '/layout/memberLayout/memberListLayout';

/** The horizontal extent of an element on screen. */
async function span(page: Page, selector: string) {
  const box = await page.locator(selector).first().boundingBox();
  if (!box) throw new Error(`${selector} is not on screen`);
  return { left: box.x, right: box.x + box.width };
}

describe('list tables', () => {
  it.each([1280, 1440])('keeps ID and 操作 in view while a wide list scrolls sideways at %i px', async (width) => {
    const { context, page } = await newPage(browser, { width, height: 900 });
    await loginAs(page);
    await page.goto(WITHDRAW_PATH);
    await page.locator('tbody tr[data-id]').first().waitFor();
    const table = page.getByRole('table', { name: '提现列表' });
    const scroller = table.locator('xpath=..');
    // The list is wider than the screen…
    const { scrollWidth, clientWidth } = await scroller.evaluate((el) => ({
      scrollWidth: el.scrollWidth,
      clientWidth: el.clientWidth,
    }));
    expect(scrollWidth).toBeGreaterThan(clientWidth);
    const view = await scroller.boundingBox();
    const inView = async (selector: string) => {
      const s = await span(page, selector);
      expect(s.left).toBeGreaterThanOrEqual(view!.x - 1);
      expect(s.right).toBeLessThanOrEqual(view!.x + view!.width + 1);
    };
    // …yet at either end of its scroll both ID and the row's actions are on screen.
    for (const left of [0, scrollWidth]) {
      await scroller.evaluate((el, x) => (el.scrollLeft = x), left);
      await inView('tbody tr[data-id] td[data-field="id"]');
      await inView('tbody tr[data-id] td[data-field="__actions"]');
      await inView('thead th[data-field="__actions"]');
    }
    await page
      .locator('tbody tr[data-id] td[data-field="__actions"]')
      .first()
      .getByRole('button', { name: '详情' })
      .click();
    await page.getByRole('region', { name: '提现详情' }).waitFor();
    await context.close();
  });

  it('shows every row action whole in the 操作 column at 1440 px', async () => {
    const { context, page } = await newPage(browser, { width: 1440, height: 900 });
    await loginAs(page);
    for (const path of [
      WITHDRAW_PATH,
      '/layout/depositLayout/depositListLayout',
      '/layout/depositLayout/accountLayout',
      '/layout/mallLayout/orderLayout',
      '/layout/mallLayout/productLayout',
      '/layout/matchLayout',
      '/layout/noticeLayout',
    ]) {
      await page.goto(path);
      await page.locator('tbody tr[data-id] td[data-field="__actions"]').first().waitFor();
      const clipped = await page
        .locator('tbody tr[data-id] td[data-field="__actions"]')
        .evaluateAll((cells) =>
          cells.filter((c) => c.scrollWidth > c.clientWidth).map((c) => c.textContent?.replace(/\s+/g, ' ')),
        );
      expect({ path, clipped }).toEqual({ path, clipped: [] });
    }
    await context.close();
  });

  it('goes to a page by number, to 末页 and back to 首页, and shows the last page for a page past the end', async () => {
    const total = (await api(await freshToken(), 'GET', '/v1/admin/member/list?size=10')).data.total as number;
    const last = Math.ceil(total / 10);
    expect(last).toBeGreaterThan(2);
    const { context, page } = await newPage(browser);
    await loginAs(page);
    await page.goto(`${MEMBER_PATH}?size=10`);
    await page.getByText(`共 ${last} 页`).waitFor();
    await page.getByRole('textbox', { name: '跳至页码' }).fill('2');
    await page.getByRole('textbox', { name: '跳至页码' }).press('Enter');
    await page.waitForURL(/page=2/);
    await page.getByText(`第 11–20 条，共 ${total.toLocaleString('en-US')} 条`).waitFor();
    await page.getByRole('button', { name: '末页' }).click();
    await page.waitForURL(new RegExp(`page=${last}`));
    await page.getByRole('button', { name: '首页' }).click();
    await page.getByText(`第 1–10 条，共 ${total.toLocaleString('en-US')} 条`).waitFor();
    // An old link past the end lands on the last page, not on an empty table.
    await page.goto(`${MEMBER_PATH}?size=10&page=${last + 50}`);
    await page.waitForURL(new RegExp(`page=${last}(&|$)`));
    await page.locator('tbody tr[data-id]').first().waitFor();
    await context.close();
  });

  it('remembers hidden columns and the density after a reload', async () => {
    const { context, page } = await newPage(browser);
    await loginAs(page);
    await page.goto(WITHDRAW_PATH);
    await page.locator('tbody tr[data-id]').first().waitFor();
    await page.getByRole('button', { name: '列设置' }).click();
    const panel = page.getByRole('dialog', { name: '列设置' });
    await panel.getByRole('checkbox', { name: '显示「手续费」列' }).uncheck();
    await panel.getByRole('button', { name: '紧凑' }).click();
    await page.keyboard.press('Escape');
    await expect(page.locator('thead th[data-field="fee"]').count()).resolves.toBe(0);
    await page.reload();
    await page.locator('tbody tr[data-id]').first().waitFor();
    await expect(page.locator('thead th[data-field="fee"]').count()).resolves.toBe(0);
    const height = await page
      .locator('tbody tr[data-id]')
      .first()
      .evaluate((el) => el.getBoundingClientRect().height);
    expect(height).toBeLessThan(45);
    // 恢复默认 brings the column back.
    await page.getByRole('button', { name: '列设置' }).click();
    await page.getByRole('dialog', { name: '列设置' }).getByRole('button', { name: '恢复默认' }).click();
    await page.keyboard.press('Escape');
    await page.locator('thead th[data-field="fee"]').waitFor();
    await context.close();
  });

  it('copies a withdrawal address exactly from its drawer', async () => {
    const w = (await api(await freshToken(), 'GET', '/v1/admin/withdraw/list?type=1&size=1')).data.list[0];
    const { context, page } = await newPage(browser);
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await loginAs(page);
    await page.goto(`${WITHDRAW_PATH}?keyword=${w.uid}`);
    const row = page.locator(`tr[data-id="${w.id}"]`);
    await row.getByTitle(w.address).waitFor();
    await row.getByRole('button', { name: '详情' }).click();
    const drawer = page.getByRole('region', { name: '提现详情' });
    await drawer.getByText(w.address, { exact: true }).waitFor();
    await drawer.getByRole('button', { name: '复制地址' }).click();
    await page.getByText('已复制地址').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(w.address);
    await context.close();
  });

  it('goes from a bill’s 关联 to its withdrawal, and the ID filter finds it again', async () => {
    const bills = await api(await freshToken(), 'GET', '/v1/admin/bill?type=2&asset=USDT&size=10');
    expect(bills).toMatchObject({ code: 200 });
    const b = bills.data.list[0];
    expect(b.refKind).toBe('withdrawal');
    const { context, page } = await newPage(browser);
    await loginAs(page);
    await page.goto(`/layout/billLayout?type=2&keyword=${b.uid}`);
    await page
      .getByRole('link', { name: `提现 #${b.refId}` })
      .first()
      .click();
    // 提现冻结 is written for 提取 (LZ) too: the link picks the page by the bill's asset.
    const list = b.asset === 'LZ' ? 'extractListLayout' : 'withdrawListLayout';
    await page.waitForURL(new RegExp(`${list}\\?id=${b.refId}$`));
    await page.locator(`tr[data-id="${b.refId}"]`).waitFor();
    await page.getByText('第 1–1 条，共 1 条').waitFor();
    await expect(page.getByRole('textbox', { name: 'ID' }).inputValue()).resolves.toBe(String(b.refId));
    await context.close();
  });
});
