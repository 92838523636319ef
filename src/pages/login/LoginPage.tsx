/**
 * The login screen: user name and password, both required; Enter submits; the server's answer
 * (wrong password, too many attempts…) shows inside the form. Login calls never raise the loading
 * overlay. After login the user goes back to `redirect` or to the welcome page. The call goes
 * through the shared baseQuery (src/services/session.ts).
 *
 * Plain elements and a small style sheet instead of MUI: the login route is the first thing every
 * manager downloads and its budget (docs/performance.md) does not leave room for MUI and Emotion;
 * the colours and sizes follow the console theme (src/theme.ts).
 */
import { lazy, Suspense, useState, type FormEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import type { ApiError } from '../../services/http';
import { requestLogin } from '../../services/session';
import { loggedIn } from '../../store/authSlice';
import { useAppDispatch } from '../../store/hooks';
import Field from './Field';

/** A manager with an authenticator gives a code after the password: loaded only then (the /login budget). */
const TotpStep = lazy(() => import('./TotpStep'));

export const HOME_PATH = '/layout/welcome';
export const APP_TITLE = '后台管理控制台';

/** Only same-site paths are followed, so a crafted link cannot send the user elsewhere. */
export function safeRedirect(target: string | null): string {
  if (!target || !target.startsWith('/') || target.startsWith('//') || target.startsWith('/\\')) return HOME_PATH;
  if (/^\/login(\?|#|$)/i.test(target)) return HOME_PATH;
  return target;
}

const css = `
body{margin:0}
.login-page{min-height:100vh;display:flex;align-items:center;justify-content:center;padding:16px;box-sizing:border-box;
  background:#f0f2f5;font-family:-apple-system,BlinkMacSystemFont,"Segoe UI","PingFang SC","Hiragino Sans GB","Microsoft YaHei","Noto Sans CJK SC","Helvetica Neue",Arial,sans-serif;color:rgba(0,0,0,.87)}
.login-card{width:100%;max-width:380px;box-sizing:border-box;padding:32px;background:#fff;border-radius:8px;
  box-shadow:0 3px 3px -2px rgba(0,0,0,.2),0 3px 4px 0 rgba(0,0,0,.14),0 1px 8px 0 rgba(0,0,0,.12)}
.login-card h1{margin:0 0 24px;font-size:24px;font-weight:600;text-align:center}
.login-field{margin:16px 0 8px}
.login-field label{display:block;margin-bottom:6px;font-size:14px;color:rgba(0,0,0,.6)}
.login-field input{width:100%;box-sizing:border-box;height:44px;padding:0 12px;font-size:16px;border:1px solid rgba(0,0,0,.23);
  border-radius:4px;outline:none;transition:border-color .15s,box-shadow .15s;font-family:inherit}
.login-field input:hover{border-color:rgba(0,0,0,.87)}
.login-field input:focus{border-color:#0958d9;box-shadow:0 0 0 1px #0958d9}
.login-field.invalid label,.login-field .login-help{color:#d32f2f}
.login-field.invalid input{border-color:#d32f2f}
.login-field.invalid input:focus{box-shadow:0 0 0 1px #d32f2f}
.login-help{margin:4px 14px 0;font-size:12px}
.login-alert{margin-bottom:8px;padding:8px 12px;border-radius:4px;background:#fdeded;color:#5f2120;font-size:14px}
.login-submit{width:100%;height:44px;margin-top:24px;border:0;border-radius:4px;background:#0958d9;color:#fff;font-size:16px;
  font-family:inherit;cursor:pointer;box-shadow:0 3px 1px -2px rgba(0,0,0,.2),0 2px 2px 0 rgba(0,0,0,.14),0 1px 5px 0 rgba(0,0,0,.12)}
.login-submit:hover{background:#003eb3}
.login-submit:focus-visible{outline:2px solid #003eb3;outline-offset:2px}
.login-submit:disabled{background:rgba(0,0,0,.12);color:rgba(0,0,0,.38);cursor:default;box-shadow:none}
`;

export default function LoginPage() {
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<{ username?: string; password?: string }>({});
  const [serverError, setServerError] = useState<string | null>(null);
  const [isLoading, setLoading] = useState(false);
  const [challenge, setChallenge] = useState<string>();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const enter = (token: string, name: string) => {
    dispatch(loggedIn({ token, username: name }));
    navigate(safeRedirect(params.get('redirect')), { replace: true });
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (isLoading) return;
    const name = username.trim();
    const next = {
      username: name ? undefined : '用户名不能为空',
      password: password ? undefined : '密码不能为空',
    };
    setErrors(next);
    setServerError(null);
    if (next.username || next.password) return;
    setLoading(true);
    try {
      const result = await dispatch(requestLogin({ username: name, password }));
      if (result.token) return enter(result.token, result.username);
      setChallenge(result.challenge);
      setLoading(false);
    } catch (err) {
      setServerError((err as ApiError).msg);
      setLoading(false);
    }
  };

  return (
    <main className="login-page">
      <style>{css}</style>
      <div className="login-card">
        <h1>{APP_TITLE}</h1>
        {challenge ? (
          <Suspense>
            <TotpStep challenge={challenge} onDone={enter} onBack={() => setChallenge(undefined)} />
          </Suspense>
        ) : (
          <form noValidate onSubmit={submit} aria-label="登录">
            {serverError && (
              <div className="login-alert" role="alert">
                {serverError}
              </div>
            )}
            <Field
              label="用户名"
              name="username"
              autoComplete="username"
              autoFocus
              value={username}
              onChange={setUsername}
              error={errors.username}
            />
            <Field
              label="密码"
              name="password"
              type="password"
              autoComplete="current-password"
              value={password}
              onChange={setPassword}
              error={errors.password}
            />
            <button className="login-submit" type="submit" disabled={isLoading}>
              {isLoading ? '登录中...' : '登录'}
            </button>
          </form>
        )}
      </div>
    </main>
  );
}
