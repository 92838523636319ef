/**
 * An image upload in a real browser: 收款地址 → 新增收款地址 → 二维码图片 chosen from disk; the page asks
 * for a ticket, PUTs the file, shows the stored image (loaded under the console's CSP from /uploads),
 * fills the address field, and the saved account keeps it. The stored file is WebP without the EXIF.
 */
import sharp from 'sharp';
import type { Browser } from 'playwright-core';
import { api, apiLogin, baseUrl, launch, loginAs, newPage } from './browser';

let browser: Browser;
let token: string;
beforeAll(async () => {
  browser = await launch();
  token = await apiLogin();
});
afterAll(async () => {
  await browser?.close();
});

it('uploads a QR code image for a new receiving address and keeps it', async () => {
  const { context, page } = await newPage(browser);
  const cspErrors: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) cspErrors.push(m.text());
  });
  await loginAs(page);
  await page.goto('/layout/depositLayout/accountLayout');
  await page.getByRole('button', { name: '新增收款地址' }).click();
  const dialog = page.getByRole('dialog', { name: '新增收款地址' });
  const address = `T${'E2EQrCode'.padEnd(33, '1')}`;
  await dialog.locator('input[name="address"]').fill(address);

  const qr = await sharp({ create: { width: 120, height: 120, channels: 3, background: '#123456' } })
    .jpeg()
    .withExif({ IFD0: { Make: 'E2ECam' } })
    .toBuffer();
  await dialog.getByLabel('上传二维码图片').setInputFiles({ name: 'qr.jpg', mimeType: 'image/jpeg', buffer: qr });
  const preview = dialog.getByRole('img', { name: '二维码图片' });
  await preview.waitFor();
  await page.waitForFunction(
    (el) => (el as HTMLImageElement).complete && (el as HTMLImageElement).naturalWidth === 120,
    await preview.elementHandle(),
  );
  const url = await dialog.locator('input[name="qrUrl"]').inputValue();
  expect(url).toMatch(/^\/uploads\/img\/\d{4}\/\d{2}\/\d{2}\/[0-9a-f]{24}\.webp$/);

  await dialog.getByRole('button', { name: '确定' }).click();
  await page.getByText('新增成功').waitFor();
  const r = await api(token, 'GET', `/v1/admin/deposit/account/list?address=${address}`);
  expect(r.data.list.map((a: { qrUrl: string }) => a.qrUrl)).toEqual([url]);

  const file = await fetch(`${baseUrl()}${url}`);
  expect(file.headers.get('content-type')).toBe('image/webp');
  const bytes = Buffer.from(await file.arrayBuffer());
  expect(bytes.includes(Buffer.from('E2ECam'))).toBe(false);
  expect(cspErrors).toEqual([]);
  await context.close();
});
