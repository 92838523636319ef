/**
 * The console's side of the second factor (issue 15): the step-up dialog a 428 opens (the action then
 * goes on by itself), the binding screen a 426 shows, and 个人中心's bind and unbind.
 */
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import SecondFactor from '../../../../src/layout/SecondFactor';
import TotpSettings from '../../../../src/components/totp/TotpSettings';
import { answerHook, baseQuery } from '../../../../src/services/http';
import { envelope, mockFetch } from '../../mockFetch';
import { NO_TOTP, renderAt } from '../../shellHarness';

const QR = `data:image/svg+xml;base64,${btoa('<svg xmlns="http://www.w3.org/2000/svg"/>')}`;
const CODES = Array.from({ length: 10 }, (_, i) => `AAAA${i}-BBBB${i}`);

/** A fake server: POST bodies by path, answers by path. */
function server(answers: Record<string, (body: any) => Response>) {
  const bodies: Array<[string, unknown]> = [];
  const fetchMock = mockFetch(async (req) => {
    const path = new URL(req.url).pathname;
    const text = await req.text();
    const body = text ? JSON.parse(text) : undefined;
    bodies.push([path, body]);
    const answer = answers[path];
    return answer ? answer(body) : envelope(null, 404, '接口不存在');
  });
  return { fetchMock, bodies };
}

const status = (over: object = {}) => envelope({ ...NO_TOTP, available: true, ...over });

/** What baseQuery is given by RTK Query, for calling it as an endpoint would. */
const queryApi = (store: ReturnType<typeof renderAt>['store'], type: 'query' | 'mutation' = 'mutation') => ({
  dispatch: store.dispatch,
  getState: store.getState,
  signal: new AbortController().signal,
  abort: () => undefined,
  extra: undefined,
  endpoint: 'test',
  type,
});

describe('SecondFactor', () => {
  it('a 428 opens 身份验证; a wrong code stays with its message; the right one sends the action again', async () => {
    let verified = false;
    const { bodies } = server({
      '/v1/admin/user/totp': () => status({ bound: true }),
      '/v1/admin/withdraw/opt': () => (verified ? envelope({ id: 9, status: 1 }) : envelope(null, 428, '需要验证')),
      '/v1/admin/user/totp/verify': (b) =>
        b.code === '654321'
          ? ((verified = true), envelope(null))
          : envelope(null, 400, '验证码错误，请输入身份验证器中当前的6位验证码'),
    });
    const { store } = renderAt(<SecondFactor onLogout={() => undefined} />, '/layout/welcome');
    await waitFor(() => expect(answerHook.current).toBeDefined());
    const user = userEvent.setup();
    let result: unknown;
    const api = queryApi(store);
    act(() => {
      void Promise.resolve(
        baseQuery({ url: '/v1/admin/withdraw/opt', method: 'POST', body: { id: 9, action: 'approve' } }, api, {}),
      ).then((r) => (result = r));
    });
    expect(await screen.findByRole('dialog', { name: '身份验证' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: '验证并继续' }));
    expect(screen.getByText('请输入6位数字验证码')).toBeInTheDocument();
    await user.type(screen.getByLabelText('验证码'), '000000{Enter}');
    expect(await screen.findByText('验证码错误，请输入身份验证器中当前的6位验证码')).toBeInTheDocument();
    // Shown in the dialog, not again as a toast.
    expect(store.getState().toast.items).toEqual([]);
    await user.clear(screen.getByLabelText('验证码'));
    await user.type(screen.getByLabelText('验证码'), '654321{Enter}');
    await waitFor(() => expect(result).toEqual({ data: { id: 9, status: 1 } }));
    expect(screen.queryByRole('dialog', { name: '身份验证' })).toBeNull();
    expect(bodies.filter(([p]) => p === '/v1/admin/withdraw/opt')).toHaveLength(2);
    expect(bodies.find(([p]) => p === '/v1/admin/user/totp/verify')?.[1]).toEqual({
      code: '000000',
    });
  });

  it('two actions answered 428 at once share one dialog and both go on; a 428 to a request sent before the code was accepted goes again without asking', async () => {
    let verified = false;
    let late: (r: Response) => void = () => undefined;
    const { bodies } = server({
      '/v1/admin/user/totp': () => status({ bound: true }),
      '/v1/admin/withdraw/opt': (b) =>
        b.id === 3 && !verified
          ? (new Promise<Response>((resolve) => (late = resolve)) as unknown as Response)
          : verified
            ? envelope({ id: b.id })
            : envelope(null, 428, '需要验证'),
      '/v1/admin/user/totp/verify': () => ((verified = true), envelope(null)),
    });
    const { store } = renderAt(<SecondFactor onLogout={() => undefined} />, '/layout/welcome');
    await waitFor(() => expect(answerHook.current).toBeDefined());
    const api = queryApi(store);
    const results: unknown[] = [];
    act(() => {
      for (const id of [1, 2, 3]) {
        void Promise.resolve(baseQuery({ url: '/v1/admin/withdraw/opt', method: 'POST', body: { id } }, api, {})).then(
          (r) => results.push(r),
        );
      }
    });
    expect(await screen.findByRole('dialog', { name: '身份验证' })).toBeInTheDocument();
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('验证码'), '654321{Enter}');
    await waitFor(() => expect(results).toHaveLength(2));
    expect(results).toEqual(expect.arrayContaining([{ data: { id: 1 } }, { data: { id: 2 } }]));
    // Request 3 was sent before the code was accepted; its 428 comes after: no second dialog.
    act(() => late(envelope(null, 428, '需要验证')));
    await waitFor(() => expect(results).toHaveLength(3));
    expect(results[2]).toEqual({ data: { id: 3 } });
    expect(screen.queryByRole('dialog', { name: '身份验证' })).toBeNull();
    expect(bodies.filter(([p]) => p === '/v1/admin/user/totp/verify')).toHaveLength(1);
  });

  it('取消 leaves the action undone', async () => {
    server({
      '/v1/admin/user/totp': () => status({ bound: true }),
      '/v1/admin/deposit/opt': () => envelope(null, 428, '需要验证'),
    });
    const { store } = renderAt(<SecondFactor onLogout={() => undefined} />, '/layout/welcome');
    await waitFor(() => expect(answerHook.current).toBeDefined());
    let result: unknown;
    act(() => {
      void Promise.resolve(
        baseQuery({ url: '/v1/admin/deposit/opt', method: 'POST', body: {} }, queryApi(store, 'mutation'), {}),
      ).then((r) => (result = r));
    });
    await userEvent.setup().click(await screen.findByRole('button', { name: '取消' }));
    await waitFor(() => expect(result).toEqual({ error: { code: 428, msg: '已取消身份验证，操作未执行' } }));
  });

  it('a role that requires one covers the console with the binding: QR, secret, code, then the recovery codes once', async () => {
    let bound = false;
    const { bodies } = server({
      '/v1/admin/user/totp': () => status({ required: true, bound }),
      '/v1/admin/user/totp/setup': () =>
        envelope({ secret: 'JBSWY3DPEHPK3PXPJBSWY3DP', uri: 'otpauth://totp/x', qr: QR }),
      '/v1/admin/user/totp/enable': (b) =>
        b.code === '123456'
          ? ((bound = true), envelope({ recoveryCodes: CODES }))
          : envelope(null, 400, '验证码错误，请输入身份验证器中当前的6位验证码'),
    });
    const logout = jest.fn();
    renderAt(<SecondFactor onLogout={logout} />, '/layout/welcome');
    expect(await screen.findByRole('dialog', { name: '请先绑定身份验证器' })).toBeInTheDocument();
    expect(await screen.findByRole('img', { name: '身份验证器二维码' })).toHaveAttribute('src', QR);
    expect(screen.getByTestId('totp-secret')).toHaveTextContent('JBSW Y3DP EHPK 3PXP JBSW Y3DP');
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('验证码'), '123456');
    await user.click(screen.getByRole('button', { name: '确认绑定' }));
    const list = await screen.findByRole('list', { name: '恢复码' });
    expect(list.querySelectorAll('li')).toHaveLength(10);
    expect(
      screen.getByText('请妥善保存以下恢复码：手机丢失时，每个恢复码可代替验证码使用一次。恢复码只显示这一次。'),
    ).toBeInTheDocument();
    expect(bodies.find(([p]) => p === '/v1/admin/user/totp/enable')?.[1]).toEqual({ code: '123456' });
    await user.click(screen.getByRole('button', { name: '我已保存，完成' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: '请先绑定身份验证器' })).toBeNull());
  });

  it('a 426 shows the binding screen, which offers 退出登录 and nothing else', async () => {
    server({
      '/v1/admin/user/totp': () => status(),
      '/v1/admin/welcome': () => envelope(null, 426, '所属角色要求绑定身份验证器，请先完成绑定'),
      '/v1/admin/user/totp/setup': () =>
        envelope(null, 409, '服务器未配置 TOTP_KEY，暂不能绑定身份验证器，请联系系统管理员'),
    });
    const logout = jest.fn();
    const { store } = renderAt(<SecondFactor onLogout={logout} />, '/layout/welcome');
    await waitFor(() => expect(answerHook.current).toBeDefined());
    expect(screen.queryByRole('dialog', { name: '请先绑定身份验证器' })).toBeNull();
    // A 426 from any call (the role's requirement switched on meanwhile) shows the screen.
    act(() => {
      void Promise.resolve(baseQuery('/v1/admin/welcome', queryApi(store, 'query'), {}));
    });
    expect(
      await screen.findByText('服务器未配置 TOTP_KEY，暂不能绑定身份验证器，请联系系统管理员'),
    ).toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole('button', { name: '退出登录' }));
    expect(logout).toHaveBeenCalled();
  });
});

describe('个人中心: 身份验证器', () => {
  it('unbound: 绑定身份验证器; bound: shows the recovery codes left and unbinds with a recovery code', async () => {
    let bound = true;
    const { bodies } = server({
      '/v1/admin/user/totp': () =>
        envelope({
          available: true,
          bound,
          required: false,
          boundAt: 1,
          recoveryLeft: bound ? 7 : 0,
          stepUpSeconds: 300,
        }),
      '/v1/admin/user/totp/disable': (b) =>
        b.recoveryCode ? ((bound = false), envelope(null)) : envelope(null, 400, 'x'),
    });
    renderAt(<TotpSettings />, '/layout/welcome');
    expect(await screen.findByText('已绑定（剩余恢复码 7 个）')).toBeInTheDocument();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: '解绑' }));
    await user.click(screen.getByRole('button', { name: '手机不在身边？使用恢复码' }));
    await user.type(screen.getByLabelText('恢复码'), 'abcde-12345');
    await user.click(screen.getByRole('button', { name: '确认解绑' }));
    expect(await screen.findByText('未绑定')).toBeInTheDocument();
    expect(bodies.find(([p]) => p === '/v1/admin/user/totp/disable')?.[1]).toEqual({ recoveryCode: 'abcde-12345' });
    expect(screen.getByRole('button', { name: '绑定身份验证器' })).toBeInTheDocument();
  });

  it('says when the server has no TOTP_KEY, and offers no binding', async () => {
    server({
      '/v1/admin/user/totp': () =>
        envelope({
          available: false,
          bound: false,
          required: false,
          boundAt: null,
          recoveryLeft: 0,
          stepUpSeconds: 300,
        }),
    });
    renderAt(<TotpSettings />, '/layout/welcome');
    expect(await screen.findByText('未绑定（服务器未启用）')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: '绑定身份验证器' })).toBeNull();
  });
});
