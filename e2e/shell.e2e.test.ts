/** The console shell of SPEC.md §1–9 in a real browser against the production build. */
import type { Browser } from 'playwright-core';
import { api, apiLogin, launch, loginAs, newPage } from './browser';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

describe('console shell', () => {
  it('sends a visitor without a token to login, and back to the page asked for after login', async () => {
    const { context, page } = await newPage(browser);
    await page.goto('/layout/systemLayout/passwordLayout');
    await page.waitForURL(/\/login/);
    await loginAs(page, undefined, undefined, page.url().replace(/^https?:\/\/[^/]+/, ''));
    await page.waitForURL(/\/layout\/systemLayout\/passwordLayout$/);
    expect(await page.evaluate(() => localStorage.getItem('uname'))).toBe('admin');
    expect(await page.evaluate(() => localStorage.getItem('lz-admin-token'))).toMatch(/^[A-Za-z0-9_-]{43}$/);
    await context.close();
  });

  it('shows a wrong password as an error on the login form', async () => {
    const { context, page } = await newPage(browser);
    await page.goto('/login');
    await page.getByLabel('用户名').fill('admin');
    await page.getByLabel('密码').fill('Wrong12345');
    await page.keyboard.press('Enter');
    await expect(page.getByText('用户名或密码错误').first().waitFor()).resolves.toBeUndefined();
    expect(new URL(page.url()).pathname).toBe('/login');
    await context.close();
  });

  it('shows the server menu, navigates by it, and shows the breadcrumb', async () => {
    const { context, page } = await newPage(browser);
    await loginAs(page);
    await page.waitForURL(/\/layout\/welcome$/);
    const sidebar = page.getByTestId('sidebar');
    await sidebar.getByRole('button', { name: '系统管理' }).click();
    await sidebar.getByRole('button', { name: '系统管理', expanded: true }).waitFor();
    // The group opens with an animation (MUI Collapse): its entry is clicked once the animation has
    // ended (the wrapper's "entered" state), not while it is still growing under the pointer.
    const link = sidebar.locator('.MuiCollapse-entered').getByRole('link', { name: '修改密码' });
    await link.waitFor({ state: 'visible' });
    await link.click();
    await page.waitForURL(/\/layout\/systemLayout\/passwordLayout$/);
    const crumbs = page.getByRole('navigation', { name: '面包屑' });
    await expect(crumbs.getByText('系统管理').waitFor()).resolves.toBeUndefined();
    await expect(crumbs.getByText('修改密码').waitFor()).resolves.toBeUndefined();
    await context.close();
  });

  it('asks before logging out: cancel stays, confirm goes to login and clears the token', async () => {
    const { context, page } = await newPage(browser);
    await loginAs(page);
    await page.getByRole('button', { name: /admin/ }).click();
    await page.getByText('退出登录').click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('温馨提示').waitFor();
    await dialog.getByText('确认退出系统？').waitFor();
    await dialog.getByRole('button', { name: '取消' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(new URL(page.url()).pathname).toBe('/layout/welcome');
    expect(await page.evaluate(() => localStorage.getItem('lz-admin-token'))).not.toBeNull();

    await page.getByRole('button', { name: /admin/ }).click();
    await page.getByText('退出登录').click();
    await page.getByRole('dialog').getByRole('button', { name: '确定' }).click();
    await page.waitForURL(/\/login/);
    expect(await page.evaluate(() => localStorage.getItem('lz-admin-token'))).toBeNull();
    await context.close();
  });

  it('sends an expired session to login with a redirect, and comes back after login', async () => {
    const { context, page } = await newPage(browser);
    await loginAs(page);
    await page.goto('/layout/systemLayout/passwordLayout?from=test');
    // End this session from outside (as logout elsewhere would), then use the page.
    const token = (await page.evaluate(() => localStorage.getItem('lz-admin-token')))!;
    expect((await api(token, 'POST', '/v1/admin/user/logout')).code).toBe(200);
    await page.reload();
    await page.waitForURL(/\/login\?redirect=/);
    expect(decodeURIComponent(new URL(page.url()).searchParams.get('redirect')!)).toBe(
      '/layout/systemLayout/passwordLayout?from=test',
    );
    expect(await page.evaluate(() => localStorage.getItem('lz-admin-token'))).toBeNull();
    await page.getByLabel('用户名').fill('admin');
    await page.getByLabel('密码').fill(process.env.E2E_ADMIN_PASSWORD ?? 'E2eAdmin2026');
    await page.getByRole('button', { name: '登录' }).click();
    await page.waitForURL(/\/layout\/systemLayout\/passwordLayout\?from=test$/);
    await context.close();
  });

  it('redirects an unknown path to /Layout/errors/404 and renders the 404 page there', async () => {
    const { context, page } = await newPage(browser);
    await loginAs(page);
    await page.goto('/no/such/page');
    await page.waitForURL(/\/Layout\/errors\/404$/);
    await expect(page.getByText('404').first().waitFor()).resolves.toBeUndefined();
    await context.close();
  });

  it('has the sidebar widths of SPEC.md and collapses by itself at 800 px', async () => {
    const { context, page } = await newPage(browser, { width: 1400, height: 900 });
    await loginAs(page);
    const sidebar = page.getByTestId('sidebar');
    const main = page.getByTestId('main');
    await sidebar.waitFor();
    expect((await sidebar.boundingBox())!.width).toBe(160);
    expect(await main.evaluate((el) => getComputedStyle(el).marginLeft)).toBe('160px');
    expect(await main.evaluate((el) => getComputedStyle(el).paddingLeft)).toBe('16px');
    await page.setViewportSize({ width: 800, height: 900 });
    // The sidebar and the main area's margin move by transitions of their own: wait for both to end
    // (CI once read the margin at 48.0001px, just after the sidebar had arrived).
    await page.waitForFunction(
      () =>
        document.querySelector('[data-testid="sidebar"]')!.getBoundingClientRect().width === 48 &&
        getComputedStyle(document.querySelector('[data-testid="main"]')!).marginLeft === '48px',
    );
    expect(await main.evaluate((el) => getComputedStyle(el).marginLeft)).toBe('48px');
    expect(await main.evaluate((el) => getComputedStyle(el).paddingLeft)).toBe('10px');
    await page.setViewportSize({ width: 1000, height: 900 });
    await page.waitForFunction(
      () => document.querySelector('[data-testid="sidebar"]')!.getBoundingClientRect().width === 160,
    );
    await context.close();
  });

  it('lets no page scroll sideways, on a desktop and on a phone (a list with a date range filter)', async () => {
    for (const viewport of [
      { width: 1440, height: 900 },
      { width: 390, height: 844 },
    ]) {
      const { context, page } = await newPage(browser, viewport);
      await loginAs(page, undefined, undefined, '/layout/memberLayout/memberListLayout');
      await page.getByRole('textbox', { name: '注册结束' }).waitFor();
      await page.getByRole('row').nth(1).waitFor();
      const { scrollWidth, clientWidth } = await page.evaluate(() => ({
        scrollWidth: document.documentElement.scrollWidth,
        clientWidth: document.documentElement.clientWidth,
      }));
      expect({ viewport: viewport.width, scrollWidth }).toEqual({ viewport: viewport.width, scrollWidth: clientWidth });
      await context.close();
    }
  });

  it('shows the loading overlay during a slow call and hides it after', async () => {
    const { context, page } = await newPage(browser);
    const token = await apiLogin();
    await page.goto('/login');
    await page.evaluate((t) => {
      localStorage.setItem('lz-admin-token', t);
      localStorage.setItem('uname', 'admin');
    }, token);
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    await page.route('**/v1/admin/user/menu', async (route) => {
      await held;
      await route.continue();
    });
    await page.goto('/layout/welcome');
    await page.getByText('加载中...').waitFor();
    release();
    await page.getByText('加载中...').waitFor({ state: 'hidden' });
    await page.getByText('系统管理').first().waitFor();
    await context.close();
  });
});
