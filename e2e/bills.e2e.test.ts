/** Bills and payment methods in a real browser against the production build (demo data on). */
import type { Browser } from 'playwright-core';
import { BillTypeLabels, type BillType } from '../domain/bills';
import { api, apiLogin, launch, loginAs, newPage } from './browser';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

describe('bills and payment methods', () => {
  it('filters bills by type, pages, and restores the list on reload and back', async () => {
    const token = await apiLogin();
    // The type with the most demo bills, so that there is a second page.
    let best = { type: 5 as BillType, total: 0 };
    for (const type of [5, 6, 16] as BillType[]) {
      const r = await api(token, 'GET', `/v1/admin/bill?type=${type}&size=1`);
      if (r.data.total > best.total) best = { type, total: r.data.total };
    }
    expect(best.total).toBeGreaterThan(20);
    const label = BillTypeLabels[best.type];

    const { context, page } = await newPage(browser);
    await loginAs(page);
    await page.waitForURL(/\/layout\/welcome$/);
    await page.goto('/layout/billLayout');
    const grid = page.getByRole('table', { name: '账单列表' });
    await grid.getByRole('row').nth(1).waitFor();
    await page.getByRole('combobox', { name: '类型' }).click();
    await page.getByRole('option', { name: label, exact: true }).click();
    await page.getByRole('button', { name: '搜索' }).click();
    await page.waitForURL(new RegExp(`[?&]type=${best.type}(&|$)`));
    await page.getByText(`第 1–20 条，共 ${best.total.toLocaleString('en-US')} 条`).waitFor();
    const typeCells = await grid.locator('td[data-field="type"]').allTextContents();
    expect(new Set(typeCells)).toEqual(new Set([label]));

    const firstIds = await grid.locator('td[data-field="id"]').allTextContents();
    // 下一页 goes on from the last row on screen: its cursor is in the request and in the URL.
    const second = page.waitForResponse((r) => /\/v1\/admin\/bill\?.*after=\d+_\d+/.test(r.url()));
    await page.getByRole('button', { name: /下一页/ }).click();
    await page.waitForURL(/[?&]page=2&after=\d+_\d+(&|$)/);
    await second;
    await page.getByText(`第 21–`).waitFor();
    // The label follows the click at once; the rows follow the response: wait for them to change.
    await page.waitForFunction(
      (id) => document.querySelector('tbody tr:first-child [data-field="id"]')?.textContent !== id,
      firstIds[0],
    );
    const secondIds = await grid.locator('td[data-field="id"]').allTextContents();
    expect(secondIds.length).toBeGreaterThan(0);
    expect(secondIds.filter((id) => firstIds.includes(id))).toEqual([]);

    await page.reload();
    await page.getByText(`第 21–`).waitFor();
    await page.waitForFunction(
      (id) => document.querySelector('tbody tr:first-child [data-field="id"]')?.textContent === id,
      secondIds[0],
    );
    expect(await grid.locator('td[data-field="id"]').allTextContents()).toEqual(secondIds);
    expect(page.url()).toMatch(new RegExp(`type=${best.type}`));
    await expect(page.getByRole('combobox', { name: '类型' }).textContent()).resolves.toBe(label);

    await page.goBack();
    await page.waitForURL((url) => !/page=2/.test(url.search) && /type=/.test(url.search));
    await page.getByText(`第 1–20 条，共 ${best.total.toLocaleString('en-US')} 条`).waitFor();
    await context.close();
  });

  it('exports payment methods as a dated .xlsx with the server’s file name', async () => {
    const { context, page } = await newPage(browser);
    await loginAs(page);
    await page.waitForURL(/\/layout\/welcome$/);
    await page.goto('/layout/memberLayout/paymentListLayout');
    await page.getByRole('table', { name: '收款方式列表' }).getByRole('row').nth(1).waitFor();
    await page.getByRole('button', { name: '导出' }).click();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('menuitem', { name: '导出 Excel' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^收款方式_\d{8}\.xlsx$/);
    const file = await download.path();
    const fs = await import('node:fs');
    // An xlsx is a zip: "PK" first.
    expect(fs.readFileSync(file!).subarray(0, 2).toString()).toBe('PK');
    // Every 支付宝/微信 method's 二维码 查看 opens its image (demo data and the simulator make real ones),
    // not the 404 page.
    const links = page.getByRole('table', { name: '收款方式列表' }).getByRole('link', { name: '查看' });
    await links.first().waitFor();
    for (const href of await links.evaluateAll((as) => as.map((a) => a.getAttribute('href')))) {
      const res = await page.request.get(href!);
      expect([href, res.status(), res.headers()['content-type']]).toEqual([href, 200, 'image/webp']);
    }
    await context.close();
  });
});
