/**
 * Withdrawals and deposits in a real browser against the production build, on the demo data (its
 * money step leaves withdrawals waiting in 待审核 and 待打款 and deposits in 待确认).
 */
import type { Browser, Page } from 'playwright-core';
import { AssetDisplayPlaces } from '../domain/assets';
import { displayMoney, formatAsset, parseAsset } from '../domain/money';
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

const WITHDRAW_PATH = '/layout/withdrawLayout/withdrawListLayout';
const row = (page: Page, id: number | string) => page.locator(`tr[data-id="${id}"]`);
const shown = (amount: string) => displayMoney(amount, AssetDisplayPlaces.USDT);

/** Pending type-1 withdrawals, oldest first, skipping ids already used by another test. */
async function pending(count: number, used: Set<number>): Promise<any[]> {
  const r = await api(token, 'GET', '/v1/admin/withdraw/list?type=1&status=0&size=100&order=asc');
  expect(r.code).toBe(200);
  const free = r.data.list.filter((w: any) => !used.has(w.id)).slice(0, count);
  expect(free).toHaveLength(count);
  for (const w of free) used.add(w.id);
  return free;
}

async function usdtOf(uid: string, memberId: number) {
  const r = await api(token, 'GET', `/v1/admin/query/list?keyword=${uid}&asset=USDT`);
  expect(r.code).toBe(200);
  return r.data.list.find((x: any) => x.memberId === memberId) as { available: string; frozen: string };
}

const used = new Set<number>();

describe('withdrawals and deposits', () => {
  it('approves and pays a withdrawal: 待审核 → 待打款 → 已完成, with its bill', async () => {
    const [w] = await pending(1, used);
    const { context, page } = await newPage(browser);
    await loginAs(page);
    await page.goto(`${WITHDRAW_PATH}?keyword=${w.uid}`);
    const r = row(page, w.id);
    await r.getByText('待审核').waitFor();

    await r.getByRole('button', { name: '通过' }).click();
    const confirm = page.getByRole('dialog');
    await confirm.getByText(`确认审核通过该提现 #${w.id}`, { exact: false }).waitFor();
    await confirm.getByRole('button', { name: '确定' }).click();
    await page.getByText('审核通过成功').waitFor();
    await r.getByText('待打款').waitFor();

    await r.getByRole('button', { name: '打款' }).click();
    const pay = page.getByRole('dialog', { name: '确认打款' });
    await pay.getByRole('button', { name: '确定' }).click();
    await pay.getByText('交易哈希不能为空').waitFor();
    const hash = w.chain === 'ERC20' ? `0x${'ab'.repeat(32)}` : 'ab'.repeat(32);
    await pay.getByLabel('交易哈希').fill(hash);
    await pay.getByRole('button', { name: '确定' }).click();
    await page.getByText('确认打款成功').waitFor();
    await r.getByText('已完成').waitFor();

    const after = await api(token, 'GET', `/v1/admin/withdraw/list?type=1&keyword=${w.uid}&txHash=${hash}`);
    expect(after.data.list.map((x: any) => [x.id, x.status])).toEqual([[w.id, 2]]);
    const bills = await api(token, 'GET', `/v1/admin/bill?keyword=${w.uid}&type=3&asset=USDT`);
    expect(bills.data.list.some((b: any) => b.refId === w.id || String(b.remark).includes(`#${w.id}`))).toBe(true);
    await context.close();
  });

  it('rejects a withdrawal with a remark and the member’s balance is restored', async () => {
    const [w] = await pending(1, used);
    const before = await usdtOf(w.uid, w.memberId);
    const { context, page } = await newPage(browser);
    await loginAs(page);
    await page.goto(`${WITHDRAW_PATH}?keyword=${w.uid}&status=0`);
    const r = row(page, w.id);
    await r.getByRole('button', { name: '驳回' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: '确定' }).click();
    await dialog.getByText('请输入驳回原因').waitFor();
    await dialog.getByLabel('备注').fill('浏览器测试驳回');
    await dialog.getByRole('button', { name: '确定' }).click();
    await page.getByText('驳回成功').waitFor();
    // Filtered to 待审核: the rejected record leaves the list.
    await r.waitFor({ state: 'detached' });

    const expected = (a: string, b: string, sign: 1n | -1n) =>
      formatAsset(
        (parseAsset(a, 'USDT', { allowZero: true }) as { value: bigint }).value +
          sign * (parseAsset(b, 'USDT') as { value: bigint }).value,
        'USDT',
      );
    const availableNow = expected(before.available, w.amount, 1n);
    const frozenNow = expected(before.frozen, w.amount, -1n);
    const now = await usdtOf(w.uid, w.memberId);
    expect(now).toMatchObject({ available: availableNow, frozen: frozenNow });

    // And on the asset query page.
    await page.goto(`/layout/memberLayout/queryListLayout?keyword=${w.uid}&asset=USDT`);
    const asset = row(page, `${w.memberId}-USDT`);
    await expect(asset.locator('[data-field="available"]').textContent()).resolves.toBeTruthy();
    await asset.locator('[data-field="available"]').getByText(shown(availableNow), { exact: true }).waitFor();
    await context.close();
  });

  it('confirms a deposit and finds its bill on the bill page', async () => {
    const list = await api(token, 'GET', '/v1/admin/deposit/list?status=0&size=1');
    expect(list.data.total).toBeGreaterThan(0);
    const d = list.data.list[0];
    const { context, page } = await newPage(browser);
    await loginAs(page);
    await page.goto(`/layout/depositLayout/depositListLayout?keyword=${d.uid}&status=0`);
    const r = row(page, d.id);
    await r.getByRole('button', { name: '确认到账' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText(`确认该充值 #${d.id}`, { exact: false }).waitFor();
    await dialog.getByRole('button', { name: '确定' }).click();
    await page.getByText('确认到账成功').waitFor();
    await r.waitFor({ state: 'detached' });

    await page.goto(`/layout/billLayout?keyword=${d.uid}&type=1`);
    const grid = page.getByRole('table', { name: '账单列表' });
    await grid.locator('[data-field="remark"]').getByText(`充值 #${d.id}`, { exact: true }).waitFor();
    const billRow = grid.getByRole('row').filter({ hasText: `充值 #${d.id}` });
    await billRow.getByText(`+${shown(d.amount)}`).waitFor();
    await context.close();
  });

  it('approves a selection in one batch and shows the result per record', async () => {
    const picked = await pending(2, used);
    const { context, page } = await newPage(browser);
    await loginAs(page);
    await page.goto(`${WITHDRAW_PATH}?status=0&size=100&sort=id&order=asc`);
    for (const w of picked) {
      const r = row(page, w.id);
      await r.waitFor();
      await r.getByRole('checkbox').check();
    }
    // Another manager approves one of them meanwhile: the batch reports it as failed.
    expect((await api(token, 'POST', '/v1/admin/withdraw/opt', { id: picked[1].id, action: 'approve' })).code).toBe(
      200,
    );
    await page.getByRole('button', { name: '批量通过（2）' }).click();
    await page.getByRole('dialog').getByRole('button', { name: '确定' }).click();
    const result = page.getByRole('dialog', { name: '批量通过结果' });
    await result.getByText('成功 1 条，失败 1 条').waitFor();
    await result.getByText(`#${picked[1].id}`).waitFor();
    await result.getByText('该提现已处理').waitFor();
    await result.getByRole('button', { name: '知道了' }).click();
    // The list refreshed: both are no longer 待审核.
    await row(page, picked[0].id).waitFor({ state: 'detached' });
    await row(page, picked[1].id).waitFor({ state: 'detached' });
    for (const w of picked) {
      const now = await api(token, 'GET', `/v1/admin/withdraw/list?type=1&status=1&size=100&keyword=${w.uid}`);
      expect(now.data.list.map((x: any) => x.id)).toContain(w.id);
    }
    await context.close();
  });
});
