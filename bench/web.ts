/**
 * Web suite: the production client build (dist/web, `npm run build:web`) served by the real server,
 * loaded in Debian Chromium through playwright-core. JS bytes are the browser's own accounting
 * (CDP Network.loadingFinished encodedDataLength: compressed bytes on the wire, headers included)
 * of every Script response; each page is loaded in a fresh context (cold cache).
 *   - /login: JS bytes when the form is usable (inputs and button enabled) and after the network is idle;
 *   - every list page of the menu: JS bytes, and the time from navigation start to the first data row
 *     of the table on screen, cold and warm (second visit in the same context).
 */
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { log } from './lib/args';
import { startServer } from './lib/proc';
import { login } from './api/suite';

const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const ROW = '.MuiDataGrid-row, [role="row"][data-rowindex], table tbody tr';

export interface PageFigures {
  path: string;
  title?: string;
  jsBytes: number;
  /** JS on the wire by the time the first data row was on screen. */
  jsBytesAtFirstRow?: number;
  jsFiles: number;
  allBytes: number;
  /** The JS files, biggest first (compressed bytes). */
  files?: { url: string; bytes: number }[];
  /** ms from navigation start to the first data row visible (null: no row within the timeout). */
  firstRowMs: number | null;
  firstRowWarmMs?: number | null;
}

export interface WebResult {
  login: { jsBytesUsable: number; jsBytesIdle: number; jsFiles: number; usableMs: number };
  pages: PageFigures[];
  heaviest: PageFigures | null;
}

/** Counts bytes per resource type from the browser's network accounting. */
async function meter(context: BrowserContext, page: Page) {
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  const types = new Map<string, { type: string; url: string }>();
  const totals = { js: 0, jsFiles: 0, all: 0, files: [] as { url: string; bytes: number }[] };
  cdp.on('Network.responseReceived', (e: any) => types.set(e.requestId, { type: e.type, url: e.response.url }));
  cdp.on('Network.loadingFinished', (e: any) => {
    const t = types.get(e.requestId);
    totals.all += e.encodedDataLength;
    if (t && (t.type === 'Script' || /\.m?js(\?|$)/.test(t.url))) {
      totals.js += e.encodedDataLength;
      totals.jsFiles++;
      totals.files.push({ url: t.url.replace(/^https?:\/\/[^/]+/, ''), bytes: e.encodedDataLength });
    }
  });
  return totals;
}

/** ms from navigation start to the first data row on screen; null when the page settles without one. */
async function firstRow(page: Page, timeout: number): Promise<number | null> {
  const row = page
    .locator(ROW)
    .first()
    .waitFor({ state: 'visible', timeout })
    .then(() => true)
    .catch(() => false);
  // A page with no table (or a 404) goes quiet: no request for 500 ms, then 1.5 s more without a row.
  const settled = page
    .waitForLoadState('networkidle', { timeout })
    .then(() => page.waitForTimeout(1_500))
    .then(() => false)
    .catch(() => false);
  const found = await Promise.race([row, settled.then(async () => (await page.locator(ROW).count()) > 0)]);
  if (!found) return null;
  return page.evaluate(() => performance.now());
}

export async function runWeb(o: { db: 'sqlite' | 'pg'; password: string; pages?: string[] }): Promise<WebResult> {
  const webDir = path.resolve(__dirname, '../dist/web');
  if (!fs.existsSync(path.join(webDir, 'index.html'))) throw new Error('no dist/web: run npm run build:web first');
  const server = await startServer('bench/api/server.ts', ['--mode', 'real', '--db', o.db, '--web']);
  const base = `http://127.0.0.1:${server.port}`;
  let browser: Browser | null = null;
  try {
    browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ARGS, headless: true });
    // /login, cold.
    const lctx = await browser.newContext();
    const lpage = await lctx.newPage();
    const lm = await meter(lctx, lpage);
    await lpage.goto(`${base}/login`, { waitUntil: 'commit' });
    const inputs = lpage.locator('input');
    await inputs.nth(1).waitFor({ state: 'visible', timeout: 30_000 });
    await lpage.locator('button[type="submit"], button:has-text("登录")').first().waitFor({ state: 'visible' });
    const usableMs = await lpage.evaluate(() => performance.now());
    const jsBytesUsable = lm.js;
    await lpage.waitForLoadState('networkidle');
    const loginFig = { jsBytesUsable, jsBytesIdle: lm.js, jsFiles: lm.jsFiles, usableMs };
    log(
      `web /login: ${(jsBytesUsable / 1024).toFixed(1)} KiB JS when usable (${usableMs.toFixed(0)} ms), ${(lm.js / 1024).toFixed(1)} KiB when idle, ${lm.jsFiles} files`,
    );
    await lctx.close();

    // The list pages of the menu.
    const token = await login(server.port, o.password);
    const menu = (await (await fetch(`${base}/v1/admin/user/menu`, { headers: { authorization: token } })).json()) as {
      data: { title: string; layout: string; sub?: unknown[] }[];
    };
    const leaves: { title: string; layout: string }[] = [];
    const walk = (xs: any[]) => {
      for (const x of xs ?? []) {
        if (x.sub?.length) walk(x.sub);
        else if (x.layout) leaves.push({ title: x.title, layout: x.layout });
      }
    };
    walk(menu.data as any[]);
    const targets = o.pages?.length ? leaves.filter((l) => o.pages!.some((p) => l.layout.includes(p))) : leaves;
    const pages: PageFigures[] = [];
    for (const leaf of targets) {
      const ctx = await browser.newContext();
      await ctx.addInitScript(
        ([t]) => {
          window.localStorage.setItem('lz-admin-token', t);
          window.localStorage.setItem('uname', 'admin');
        },
        [token],
      );
      const page = await ctx.newPage();
      const m = await meter(ctx, page);
      await page.goto(base + leaf.layout, { waitUntil: 'commit' });
      const firstRowMs = await firstRow(page, 20_000);
      const jsBytesAtFirstRow = m.js;
      // The live feed's open request can keep the network from ever going idle: what the page loads
      // lazily comes within a few seconds, so wait that long rather than playwright's 30 s.
      await page.waitForLoadState('networkidle', { timeout: 5_000 }).catch(() => undefined);
      const fig: PageFigures = {
        path: leaf.layout,
        title: leaf.title,
        jsBytes: m.js,
        jsBytesAtFirstRow,
        jsFiles: m.jsFiles,
        allBytes: m.all,
        files: [...m.files].sort((a, b) => b.bytes - a.bytes),
        firstRowMs,
      };
      if (firstRowMs !== null) {
        await page.goto(base + leaf.layout, { waitUntil: 'commit' });
        fig.firstRowWarmMs = await firstRow(page, 20_000);
      }
      pages.push(fig);
      log(
        `web ${leaf.layout} ${leaf.title}: ${(m.js / 1024).toFixed(1)} KiB JS (${m.jsFiles} files; ${(jsBytesAtFirstRow / 1024).toFixed(1)} KiB at the first row), first row ${firstRowMs === null ? '–' : `${firstRowMs.toFixed(0)} ms cold, ${fig.firstRowWarmMs?.toFixed(0)} ms warm`}`,
      );
      await ctx.close();
    }
    const withRows = pages.filter((p) => p.firstRowMs !== null);
    const heaviest = (withRows.length ? withRows : pages).reduce<PageFigures | null>(
      (a, p) => (!a || p.jsBytes > a.jsBytes ? p : a),
      null,
    );
    return { login: loginFig, pages, heaviest };
  } finally {
    if (browser) await browser.close();
    await server.stop();
  }
}
