/**
 * The second factor in a real browser (issue 15): a manager binds an authenticator from 个人中心 (the
 * test reads the secret off the screen and computes codes as an app would), logs in with a code, and
 * approves a withdrawal through the step-up dialog once his last code is older than STEP_UP_SECONDS
 * (8 s on the browser tests' server).
 */
import type { Browser, Page } from 'playwright-core';
import { Secret, TOTP } from 'otpauth';
import { permissionByCode } from '../domain/permissions';
import { api, apiLogin, launch, newPage } from './browser';

const RUN = Date.now().toString(36).slice(-5);
const PASSWORD = 'Totp2026-e2e';
let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

/** Codes as an authenticator app computes them; each 30 s step is accepted once by the server. */
function authenticator(secret: string) {
  const totp = new TOTP({ secret: Secret.fromBase32(secret.replace(/\s/g, '')), digits: 6, period: 30 });
  let last = 0;
  return {
    /** A code of a step after the last one used (the server takes one step ahead of its clock). */
    async next(): Promise<string> {
      const step = Math.max(Math.floor(Date.now() / 30_000), last + 1);
      // A step more than one ahead of the clock is refused: wait until it is at most one ahead.
      while (Math.floor(Date.now() / 30_000) < step - 1) await new Promise((r) => setTimeout(r, 500));
      last = step;
      return totp.generate({ timestamp: step * 30_000 });
    },
  };
}

async function openProfile(page: Page) {
  const item = page.getByRole('menuitem', { name: '个人中心' });
  // The account menu opens on hover and closes when the pointer leaves; a button that appears beside it
  // while the page settles (提醒设置, loaded late) moves it from under the pointer: hover again.
  for (let attempt = 1; ; attempt++) {
    await page.getByRole('button', { name: new RegExp(`totp${RUN}`) }).hover();
    try {
      await item.waitFor({ timeout: 5_000 });
      break;
    } catch (err) {
      if (attempt === 3) throw err;
      await page.mouse.move(0, 0);
    }
  }
  await item.click();
  return page.getByRole('dialog', { name: '个人中心' });
}

it('binds an authenticator, logs in with a code and approves a withdrawal through step-up', async () => {
  const admin = await apiLogin();
  const username = `totp${RUN}`;
  const role = await api<{ id: number }>(admin, 'POST', '/v1/admin/role/create', { name: `e2e出纳${RUN}` });
  expect(role.code).toBe(200);
  const ids = ['withdraw:view', 'withdraw:audit'].map((c) => permissionByCode.get(c)!.id);
  expect((await api(admin, 'POST', '/v1/admin/role/bind', { roleId: role.data.id, permissionIds: ids })).code).toBe(
    200,
  );
  expect(
    (
      await api(admin, 'POST', '/v1/admin/user/create', {
        username,
        password: PASSWORD,
        roleId: role.data.id,
        status: 1,
      })
    ).code,
  ).toBe(200);

  // Password only: he has no authenticator yet.
  const { context, page } = await newPage(browser);
  await page.goto('/login');
  await page.getByLabel('用户名').fill(username);
  await page.getByLabel('密码').fill(PASSWORD);
  await page.getByRole('button', { name: '登录' }).click();
  await page.waitForURL(/\/layout\/welcome$/);

  // 个人中心 → 绑定身份验证器: the QR code and the secret, then a code from the "app".
  let profile = await openProfile(page);
  await profile.getByText('未绑定').waitFor();
  await profile.getByRole('button', { name: '绑定身份验证器' }).click();
  const bind = page.getByRole('dialog', { name: '绑定身份验证器' });
  await bind.getByRole('img', { name: '身份验证器二维码' }).waitFor();
  const app = authenticator(await bind.getByTestId('totp-secret').innerText());
  await bind.getByLabel('验证码').fill(await app.next());
  await bind.getByRole('button', { name: '确认绑定' }).click();
  const codes = bind.getByRole('list', { name: '恢复码' }).locator('li');
  await bind.getByText('绑定成功').waitFor();
  expect(await codes.count()).toBe(10);
  await bind.getByRole('button', { name: '我已保存，完成' }).click();
  await profile.getByText('已绑定（剩余恢复码 10 个）').waitFor();
  await profile.getByRole('button', { name: '关闭' }).click();
  await context.close();

  // A new login asks for the code after the password.
  const second = await newPage(browser);
  const p = second.page;
  await p.goto('/login');
  await p.getByLabel('用户名').fill(username);
  await p.getByLabel('密码').fill(PASSWORD);
  await p.getByRole('button', { name: '登录' }).click();
  await p.getByText('请打开身份验证器，输入其中显示的6位验证码').waitFor();
  expect(new URL(p.url()).pathname).toBe('/login');
  await p.getByLabel('验证码').fill('000000');
  await p.getByRole('button', { name: '验证' }).click();
  await p.getByRole('alert').getByText('验证码错误', { exact: false }).waitFor();
  await p.getByLabel('验证码').fill(await app.next());
  await p.getByRole('button', { name: '验证' }).click();
  await p.waitForURL(/\/layout\/welcome$/);
  const loggedInAt = Date.now();

  // A pending withdrawal (the newest: the money tests take the oldest).
  const list = await api(admin, 'GET', '/v1/admin/withdraw/list?type=1&status=0&size=1&order=desc');
  expect(list.code).toBe(200);
  const w = list.data.list[0];
  expect(w).toBeDefined();

  // Past STEP_UP_SECONDS since the login's code: approving asks for a fresh one, then goes on.
  await p.waitForTimeout(Math.max(0, loggedInAt + 9_000 - Date.now()));
  await p.goto(`/layout/withdrawLayout/withdrawListLayout?keyword=${w.uid}`);
  const row = p.locator(`tr[data-id="${w.id}"]`);
  await row.getByText('待审核').waitFor();
  await row.getByRole('button', { name: '通过' }).click();
  await p.getByRole('dialog').getByRole('button', { name: '确定' }).click();
  const stepUp = p.getByRole('dialog', { name: '身份验证' });
  await stepUp.getByText('该操作涉及资金或权限', { exact: false }).waitFor();
  await stepUp.getByLabel('验证码').fill(await app.next());
  await stepUp.getByRole('button', { name: '验证并继续' }).click();
  await p.getByText('审核通过成功').waitFor();
  await row.getByText('待打款').waitFor();
  const after = await api(admin, 'GET', `/v1/admin/withdraw/list?type=1&id=${w.id}`);
  expect(after.data.list[0]).toMatchObject({ id: w.id, status: 1, auditorName: username });

  // The op log has the binding and the approval, by him.
  const log = await api(admin, 'GET', `/v1/admin/user/opt/list?username=${username}&size=20`);
  expect(log.data.list.map((l: any) => l.code)).toEqual(expect.arrayContaining(['totp:bind', 'withdraw:audit']));

  // Unbinding from 个人中心 with a recovery code.
  profile = await openProfile(p);
  await profile.getByRole('button', { name: '解绑' }).click();
  const unbind = p.getByRole('dialog', { name: '解绑身份验证器' });
  await unbind.getByRole('button', { name: '手机不在身边？使用恢复码' }).click();
  await unbind.getByLabel('恢复码').fill('0000000000');
  await unbind.getByRole('button', { name: '确认解绑' }).click();
  await unbind.getByText('恢复码错误或已使用').waitFor();
  await second.context.close();
}, 180_000);
