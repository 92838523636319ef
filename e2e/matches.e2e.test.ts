/**
 * Matches in a real browser against the production build, on the demo data (its matches step leaves
 * appealed, paid and unpaid matches): an operator completes an appealed match and cancels another,
 * then finds their bills (撮合成交, 撮合取消) in 账单流水.
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

const MATCH_PATH = '/layout/matchLayout';
const row = (page: Page, id: number | string) => page.locator(`tr[data-id="${id}"]`);

async function matchesIn(status: number): Promise<any[]> {
  const r = await api(token, 'GET', `/v1/admin/match/list?status=${status}&size=20`);
  expect(r.code).toBe(200);
  return r.data.list;
}

/** The bills of a member of one type whose remark names the match. */
async function billsOf(uid: string, type: number, matchId: number) {
  const r = await api(token, 'GET', `/v1/admin/bill?keyword=${uid}&type=${type}&asset=LZ&size=100`);
  expect(r.code).toBe(200);
  return r.data.list.filter((b: any) => String(b.remark).includes(`#${matchId}`));
}

describe('matches', () => {
  it('completes an appealed match and cancels another; both bills are in 账单流水', async () => {
    const [appealed] = await matchesIn(5);
    expect(appealed).toBeTruthy();
    const other = [...(await matchesIn(2)), ...(await matchesIn(1)), ...(await matchesIn(5))].find(
      (m) => m.id !== appealed.id,
    );
    expect(other).toBeTruthy();
    const { context, page } = await newPage(browser);
    await loginAs(page);

    // 完成 the appealed one: its details first (the appeal and the proof), then the arbitration.
    await page.goto(`${MATCH_PATH}?seller=${appealed.sellerUid}&buyer=${appealed.buyerUid}`);
    const a = row(page, appealed.id);
    await a.getByText('申诉中').waitFor();
    await a.getByRole('button', { name: '详情' }).click();
    const drawer = page.getByRole('region', { name: '撮合详情' });
    await drawer.getByText(appealed.appealReason).waitFor();
    await drawer.getByRole('button', { name: '关闭', exact: true }).click();
    await a.getByRole('button', { name: '完成' }).click();
    const confirm = page.getByRole('dialog');
    await confirm.getByText(`确认完成该撮合 #${appealed.id}`, { exact: false }).waitFor();
    await confirm.getByRole('button', { name: '确定' }).click();
    await page.getByText('撮合已完成').waitFor();
    await a.getByText('已完成').waitFor();

    // 取消 another, with a remark.
    await page.goto(`${MATCH_PATH}?seller=${other.sellerUid}&buyer=${other.buyerUid}`);
    const b = row(page, other.id);
    await b.getByRole('button', { name: '取消' }).click();
    const cancel = page.getByRole('dialog');
    await cancel.getByRole('button', { name: '确定' }).click();
    await cancel.getByText('请输入取消原因').waitFor();
    await cancel.getByLabel('备注').fill('买家未按时付款');
    await cancel.getByRole('button', { name: '确定' }).click();
    await page.getByText('撮合已取消').waitFor();
    await b.getByText('已取消').waitFor();

    // 账单流水: 撮合成交 of the buyer, 撮合取消 of the seller.
    await page.goto(`/layout/billLayout?keyword=${appealed.buyerUid}&type=14`);
    const grid = page.getByRole('table', { name: '账单列表' });
    await grid.getByText(`撮合成交 #${appealed.id}（买入）`).waitFor();
    await grid.locator('td[data-field="type"]', { hasText: '撮合成交' }).first().waitFor();
    await page.goto(`/layout/billLayout?keyword=${other.sellerUid}&type=15`);
    await grid.getByText(`撮合取消 #${other.id}：买家未按时付款`).waitFor();
    await grid.locator('td[data-field="type"]', { hasText: '撮合取消' }).first().waitFor();

    expect(await billsOf(appealed.buyerUid, 14, appealed.id)).toHaveLength(1);
    expect(await billsOf(appealed.sellerUid, 14, appealed.id)).toHaveLength(1);
    expect(await billsOf(other.sellerUid, 15, other.id)).toHaveLength(1);
    await context.close();
  });
});
