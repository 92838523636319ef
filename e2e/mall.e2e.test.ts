/**
 * The mall in a real browser against the production build, on the demo data (products, and orders of
 * which the newest wait to be shipped): an operator creates a product with two spec dimensions, an
 * uploaded cover and gallery and a rich-text detail, puts it on shelf and finds it; ships an order and
 * sees its tracking number; cancels another and finds the refund in 账单流水 and the stock back.
 */
import sharp from 'sharp';
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

const PRODUCTS = '/layout/mallLayout/productLayout';
const ORDERS = '/layout/mallLayout/orderLayout';
const row = (page: Page, id: number | string) => page.locator(`tr[data-id="${id}"]`);
const png = (color: string) =>
  sharp({ create: { width: 200, height: 200, channels: 3, background: color } })
    .png()
    .toBuffer();

async function waitingOrders(): Promise<any[]> {
  const r = await api(token, 'GET', '/v1/admin/order/list?status=1&size=50');
  expect(r.code).toBe(200);
  return r.data.list.filter((o: any) => o.kind === 1);
}

describe('mall', () => {
  it('creates a product with two spec dimensions and uploaded images, puts it on shelf and finds it', async () => {
    const { context, page } = await newPage(browser);
    await loginAs(page);
    await page.goto(PRODUCTS);
    await page.getByRole('button', { name: '新增商品' }).click();
    const dialog = page.getByRole('dialog', { name: '新增商品' });
    const name = `E2E保温杯${Date.now() % 100000}`;
    await dialog.getByLabel('商品名称').fill(name);
    await dialog
      .getByLabel('上传商品封面')
      .setInputFiles({ name: 'cover.png', mimeType: 'image/png', buffer: await png('#3366cc') });
    await dialog.getByRole('img', { name: '商品封面' }).waitFor();
    for (const [i, c] of ['#cc3333', '#33aa55'].entries()) {
      await dialog
        .getByLabel('上传添加商品图片')
        .setInputFiles({ name: `g${i}.png`, mimeType: 'image/png', buffer: await png(c) });
      await dialog.getByRole('img', { name: `商品图片${i + 1}` }).waitFor();
    }
    await dialog.getByRole('button', { name: '图片2前移' }).click();

    for (const [n, [dim, values]] of (
      [
        ['颜色', ['红', '蓝']],
        ['尺寸', ['S', 'M', 'L']],
      ] as const
    ).entries()) {
      await dialog.getByRole('button', { name: '添加规格' }).click();
      const group = dialog.getByRole('group', { name: `规格${n + 1}` });
      await group.getByLabel('规格名').fill(dim);
      for (const v of values) {
        await group.getByLabel('新规格值').fill(v);
        await group.getByLabel('新规格值').press('Enter');
      }
    }
    const table = dialog.getByRole('table', { name: '规格明细' });
    expect(await table.locator('tbody tr').count()).toBe(6);
    const fill = dialog.getByRole('group', { name: '批量填充' });
    await fill.getByLabel('价格').fill('39.9');
    await fill.getByLabel('库存').fill('20');
    await fill.getByRole('button', { name: '批量填充' }).click();
    await dialog.getByLabel('第6行价格').fill('45');

    const editor = dialog.locator('.ProseMirror');
    await editor.click();
    await page.keyboard.type('双层真空保温，12小时保温');
    // Bold the last six characters as selected text: a mark stored for what is typed next raced the
    // typing on a busy machine (the text came out plain).
    for (let i = 0; i < 6; i++) await page.keyboard.press('Shift+ArrowLeft');
    await dialog.getByRole('button', { name: '加粗' }).click();
    await dialog.getByRole('tab', { name: '预览' }).click();
    await dialog.locator('.rich-text strong', { hasText: '12小时保温' }).waitFor();

    await dialog.getByRole('button', { name: '保存' }).click();
    await page.getByText('保存成功').waitFor();
    await page.getByRole('textbox', { name: '商品名称' }).fill(name);
    await page.getByRole('button', { name: '搜索' }).click();
    const found = (await api(token, 'GET', `/v1/admin/product/list?name=${encodeURIComponent(name)}`)).data.list[0];
    expect(found).toMatchObject({ name, price: '39.9', stock: 120, skuCount: 6, status: 0 });
    const r = row(page, found.id);
    await r.getByText('下架').waitFor();
    await r.getByRole('button', { name: '上架' }).click();
    await page.getByRole('dialog').getByRole('button', { name: '确定' }).click();
    await page.getByText('上架成功').waitFor();
    await r.getByText('上架', { exact: true }).first().waitFor();

    const info = (await api(token, 'GET', `/v1/admin/product/info?productId=${found.id}`)).data;
    expect(info.specs).toEqual([
      { name: '颜色', values: ['红', '蓝'] },
      { name: '尺寸', values: ['S', 'M', 'L'] },
    ]);
    expect(info.skus.map((s: any) => `${s.spec}=${s.price}`)).toContain('颜色:蓝, 尺寸:L=45');
    expect(info.gallery).toHaveLength(2);
    expect(info.detail).toContain('<strong>12小时保温</strong>');
    expect(info.status).toBe(1);
    await context.close();
  });

  it('ships an order and shows its tracking number; cancels another: refund bill and stock back', async () => {
    const [toShip, toCancel] = await waitingOrders();
    expect(toCancel).toBeTruthy();
    const stockBefore = (
      await api(token, 'GET', `/v1/admin/product/info?productId=${toCancel.productId}`)
    ).data.skus.find((s: any) => s.id === toCancel.skuId)?.stock;
    const { context, page } = await newPage(browser);
    await loginAs(page);

    await page.goto(`${ORDERS}?orderNo=${toShip.orderNo}`);
    const a = row(page, toShip.id);
    await a.getByRole('button', { name: '发货' }).click();
    const ship = page.getByRole('dialog', { name: /订单发货/ });
    await ship.getByRole('combobox', { name: /快递公司/ }).click();
    await page.getByRole('option', { name: '顺丰速运' }).click();
    await ship.getByLabel(/快递单号/).fill('SF20261125E2E');
    await ship.getByRole('button', { name: '确定' }).click();
    await page.getByText('发货成功').waitFor();
    await a.getByText('SF20261125E2E').waitFor();
    await a.getByText('已发货').waitFor();

    await page.goto(`${ORDERS}?orderNo=${toCancel.orderNo}`);
    const b = row(page, toCancel.id);
    await b.getByRole('button', { name: '取消' }).click();
    const confirm = page.getByRole('dialog');
    await confirm.getByLabel('备注').fill('会员申请取消');
    await confirm.getByRole('button', { name: '确定' }).click();
    await page.getByText('订单已取消，货款已退回').waitFor();
    await b.getByText('已取消').waitFor();

    await page.goto(`/layout/billLayout?keyword=${toCancel.uid}&type=12`);
    const grid = page.getByRole('table', { name: '账单列表' });
    await grid.getByText(`商城退款 #${toCancel.id}：会员申请取消`).waitFor();
    const after = (await api(token, 'GET', `/v1/admin/product/info?productId=${toCancel.productId}`)).data.skus.find(
      (s: any) => s.id === toCancel.skuId,
    )?.stock;
    expect(after).toBe(stockBefore + toCancel.quantity);
    await context.close();
  });
});
