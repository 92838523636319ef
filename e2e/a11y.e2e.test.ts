/**
 * Accessibility (WCAG 2.2 AA, issue 14): axe-core finds no serious or critical violation on /login and
 * on every page of the admin's menu at 1440 × 900; a list can be worked with the keyboard alone.
 */
import { createRequire } from 'node:module';
import type { Browser, Page } from 'playwright-core';
import { api, apiLogin, launch, loginAs } from './browser';

const axePath = createRequire(__filename).resolve('axe-core/axe.min.js');

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

/** The serious and critical violations on the page now, one line each. */
async function violations(page: Page): Promise<string[]> {
  await page.addScriptTag({ path: axePath });
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (d: Document, o: object) => Promise<any> } }).axe;
    const r = await axe.run(document, { resultTypes: ['violations'] });
    return r.violations
      .filter((v: any) => v.impact === 'serious' || v.impact === 'critical')
      .flatMap((v: any) => v.nodes.map((n: any) => `${v.id}: ${n.html.slice(0, 120)}`));
  });
}

async function a11yPage(): Promise<Page> {
  // axe is added as a script tag: the console's CSP (script-src 'self') would refuse it otherwise.
  const context = await browser.newContext({
    viewport: { width: 1440, height: 900 },
    locale: 'zh-CN',
    baseURL: process.env.E2E_BASE_URL,
    bypassCSP: true,
  });
  return context.newPage();
}

describe('accessibility', () => {
  it('has no serious or critical axe violation on /login and on every page of the menu', async () => {
    const page = await a11yPage();
    // Requests in flight, but the live channel's stream (it never ends, so "network idle" never comes).
    const inFlight = new Set<unknown>();
    page.on('request', (r) => {
      if (!r.url().includes('/v1/admin/events')) inFlight.add(r);
    });
    page.on('requestfinished', (r) => inFlight.delete(r));
    page.on('requestfailed', (r) => inFlight.delete(r));
    const settled = async () => {
      for (let quiet = 0; quiet < 5;) {
        await page.waitForTimeout(100);
        quiet = inFlight.size ? 0 : quiet + 1;
      }
    };
    await page.goto('/login');
    await page.getByLabel('用户名').waitFor();
    const found: Record<string, string[]> = {};
    const record = async (path: string) => {
      const v = await violations(page);
      if (v.length) found[path] = v;
    };
    await record('/login');
    await loginAs(page);
    const menu = await api(await apiLogin(), 'GET', '/v1/admin/user/menu');
    const leaves: string[] = [];
    const walk = (entries: Array<{ layout: string; sub: unknown[] }>) =>
      entries.forEach((e) => (e.sub.length ? walk(e.sub as never) : leaves.push(e.layout)));
    walk(menu.data);
    expect(leaves.length).toBeGreaterThanOrEqual(25);
    for (const path of ['/layout/welcome', ...leaves]) {
      await page.goto(path);
      await page.getByRole('main').waitFor();
      await settled();
      await record(path);
    }
    expect(found).toEqual({});
    await page.context().close();
    // A sweep of /login and 28 pages, each settled and scanned: ~55 s on a quiet CI machine, more on a
    // busy one. A ceiling, not a measure (figures live in bench/).
  }, 240_000);

  it('works a list with the keyboard alone: filter, search, open a row action, close it', async () => {
    const page = await a11yPage();
    await loginAs(page);
    await page.goto('/layout/systemLayout/managerLayout');
    const name = page.getByRole('textbox', { name: '用户名' });
    await name.waitFor();
    await name.focus();
    await page.keyboard.type('admin');
    await page.keyboard.press('Enter');
    await page.waitForURL(/username=admin/);
    // Tab from the filter to the first row's 编辑 and open it with Enter.
    const edit = page.locator('tr[data-id]').first().getByRole('button', { name: '编辑' });
    await edit.waitFor();
    let reached = false;
    for (let i = 0; i < 60 && !reached; i++) {
      await page.keyboard.press('Tab');
      reached = await edit.evaluate((el) => el === document.activeElement);
    }
    expect(reached).toBe(true);
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    await page.context().close();
  });
});
