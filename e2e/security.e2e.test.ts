/**
 * The security headers in a real browser (server/plugins/security.ts): another origin cannot frame
 * the console, and the console and Swagger UI still work under their Content-Security-Policy.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { baseUrl, launch, loginAs, newPage } from './browser';

let browser: Browser;
/** A page of another origin (another port of 127.0.0.1: same site, other origin) that frames things. */
let framer: http.Server;
let framerUrl: string;

beforeAll(async () => {
  browser = await launch();
  framer = http.createServer((req, res) => {
    res.setHeader('content-type', 'text/html; charset=utf-8');
    if (req.url === '/harmless') {
      res.end('<!doctype html><p id="harmless">framed fine</p>');
      return;
    }
    // The harmless frame shows that framing works in this browser: only the console's is refused.
    res.end(
      `<!doctype html><title>framer</title>
       <iframe id="harmless" src="/harmless" width="400" height="300"></iframe>
       <iframe id="console" src="${baseUrl()}/login" width="1200" height="800"></iframe>`,
    );
  });
  await new Promise<void>((resolve) => framer.listen(0, '127.0.0.1', resolve));
  framerUrl = `http://127.0.0.1:${(framer.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => framer?.close(resolve));
});

/** Collects what Chromium reports about the page's CSP: console messages and violation events. */
async function watchCsp(page: Page): Promise<() => string[]> {
  const seen: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy|Refused to/i.test(m.text())) seen.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => {
    if (/Content Security Policy|unsafe-eval|Refused to/i.test(e.message)) seen.push(`pageerror: ${e.message}`);
  });
  // Injected through the DevTools protocol, so the page's own CSP does not stop it.
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      console.error(`Content Security Policy violation: ${e.violatedDirective} ${e.blockedURI}`);
    });
  });
  return () => seen;
}

describe('security headers in the browser', () => {
  it('refuses to show the console in a frame of another origin', async () => {
    const { context, page } = await newPage(browser);
    const messages: string[] = [];
    page.on('console', (m) => messages.push(m.text()));
    await page.goto(framerUrl);
    const harmless = page.frame({ url: `${framerUrl}/harmless` });
    await expect(harmless!.locator('#harmless').waitFor()).resolves.toBeUndefined();

    // Give the console's frame the time it would need to show its login form.
    await page.waitForTimeout(3000);
    const consoleFrame = page.frames().find((f) => f !== page.mainFrame() && !f.url().startsWith(`${framerUrl}/`));
    expect(consoleFrame).toBeDefined();
    // Chromium replaces a refused frame by its error page: no console, no login form in it.
    expect(consoleFrame!.url()).not.toMatch(new RegExp(`^${baseUrl()}`));
    expect(await consoleFrame!.locator('#root').count()).toBe(0);
    expect(await consoleFrame!.getByLabel('用户名').count()).toBe(0);
    expect(messages.some((m) => m.includes("frame-ancestors 'none'"))).toBe(true);
    await context.close();
  });

  it('loads the console, logs in and shows a list page with no CSP violation', async () => {
    const { context, page } = await newPage(browser);
    const violations = await watchCsp(page);
    const login = await page.goto('/login');
    const csp = login!.headers()['content-security-policy'];
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    await loginAs(page);
    await page.waitForURL(/\/layout\/welcome$/);
    // A list page: the data grid, the pickers and the dialogs' styles all load under the policy.
    await page.goto('/layout/billLayout');
    await page.getByRole('table', { name: '账单列表' }).getByRole('row').nth(1).waitFor();
    await page.getByRole('button', { name: '搜索' }).click();
    await page.getByRole('table', { name: '账单列表' }).getByRole('row').nth(1).waitFor();
    expect(violations()).toEqual([]);
    await context.close();
  });

  it('shows Swagger UI at /docs with no CSP violation', async () => {
    const { context, page } = await newPage(browser);
    const violations = await watchCsp(page);
    const res = await page.goto('/docs');
    expect(res!.ok()).toBe(true);
    expect(res!.headers()['content-security-policy']).toContain("script-src 'self'");
    await page.getByText('后台管理控制台 API').first().waitFor();
    await page.getByText('/v1/admin/user/login').first().waitFor();
    expect(violations()).toEqual([]);
    await context.close();
  });
});
