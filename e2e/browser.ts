/** Debian's Chromium through playwright-core; never a downloaded browser. */
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { E2E_ADMIN_PASSWORD } from './server';

export const baseUrl = () => {
  const url = process.env.E2E_BASE_URL;
  if (!url) throw new Error('E2E_BASE_URL is not set: run through `npm run test:e2e`');
  return url;
};

export async function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
    ],
  });
}

export async function newPage(
  browser: Browser,
  viewport = { width: 1400, height: 900 },
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport, locale: 'zh-CN', baseURL: baseUrl() });
  const page = await context.newPage();
  return { context, page };
}

/** Logs in through the form, as a person would. */
export async function loginAs(page: Page, username = 'admin', password = E2E_ADMIN_PASSWORD, path = '/login') {
  await page.goto(path);
  await page.getByLabel('用户名').fill(username);
  await page.getByLabel('密码').fill(password);
  await page.getByRole('button', { name: '登录' }).click();
  await page.waitForURL((url) => !url.pathname.startsWith('/login'));
}

/** Logs in through the API and returns the token (for setting up state quickly). */
export async function apiLogin(username = 'admin', password = E2E_ADMIN_PASSWORD): Promise<string> {
  const r = await fetch(`${baseUrl()}/v1/admin/user/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  const body = (await r.json()) as { code: number; msg: string; data: { token: string } };
  if (body.code !== 200) throw new Error(`login ${username}: ${body.msg}`);
  return body.data.token;
}

export async function api<T = any>(
  token: string,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
): Promise<{ code: number; msg: string; data: T }> {
  const r = await fetch(`${baseUrl()}${path}`, {
    method,
    headers: { authorization: token, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return r.json() as Promise<{ code: number; msg: string; data: T }>;
}

/**
 * Runs the simulator (the code `npm run simulate` runs) on the e2e server's database until members
 * have requested withdrawals; returns how many were requested.
 */
export async function simulateWithdrawals(seed: number): Promise<number> {
  const fs = await import('node:fs');
  const path = await import('node:path');
  const { STATE_FILE } = await import('./globalSetup');
  const { dir } = JSON.parse(fs.readFileSync(STATE_FILE, 'utf8')) as { dir: string };
  const { createDb } = await import('../server/db/dialect');
  const { loadConfig } = await import('../server/config');
  const { Simulator } = await import('../server/simulate');
  const db = createDb(`sqlite:${path.join(dir, 'console.db')}`);
  const log = { info: () => undefined, warn: () => undefined, error: () => undefined, debug: () => undefined };
  // The server's upload folder (e2e/server.ts): a payment method's 收款码 made here must be served there.
  const config = { ...loadConfig(), uploadDir: path.join(dir, 'uploads') };
  const ctx = { db: db.db, kind: db.kind, config, clock: { now: () => Date.now() }, log } as never;
  const sim = new Simulator(ctx, { actions: 20, members: 20, seed, economy: 0 });
  let requested = 0;
  try {
    for (let i = 0; i < 20 && requested === 0; i++) requested += (await sim.tick()).done.withdraw;
  } finally {
    await db.close();
  }
  return requested;
}
