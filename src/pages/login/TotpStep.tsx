/**
 * The login's second step for a manager with an authenticator (issue 15): the 6-digit code from the
 * app, or one of the recovery codes; the password step's challenge goes with it. Loaded on demand
 * so the /login route stays within its budget; the same plain elements and style as the login form.
 */
import { useState, type FormEvent } from 'react';
import type { ApiError } from '../../services/http';
import { CODE_PATH, requestLogin } from '../../services/session';
import { useAppDispatch } from '../../store/hooks';
import Field from './Field';

const css = `.login-link{border:0;background:none;padding:4px 0;color:#0958d9;font:inherit;font-size:14px;cursor:pointer}
.login-link:focus-visible{outline:2px solid #003eb3;outline-offset:2px}`;

export default function TotpStep({
  challenge,
  onDone,
  onBack,
}: {
  challenge: string;
  onDone: (token: string, username: string) => void;
  onBack: () => void;
}) {
  const [recovery, setRecovery] = useState(false);
  const [value, setValue] = useState('');
  const [error, setError] = useState<string>();
  const [serverError, setServerError] = useState<string | null>(null);
  const [isLoading, setLoading] = useState(false);
  const dispatch = useAppDispatch();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (isLoading) return;
    const text = value.replace(/\s/g, '');
    const invalid = recovery
      ? text
        ? undefined
        : '请输入恢复码'
      : /^\d{6}$/.test(text)
        ? undefined
        : '请输入6位数字验证码';
    setError(invalid);
    setServerError(null);
    if (invalid) return;
    setLoading(true);
    try {
      const body = recovery ? { challenge, recoveryCode: value.trim() } : { challenge, code: text };
      const result = await dispatch(requestLogin(body, CODE_PATH));
      onDone(result.token!, result.username);
    } catch (err) {
      setServerError((err as ApiError).msg);
      setLoading(false);
    }
  };

  const toggle = () => {
    setRecovery(!recovery);
    setValue('');
    setError(undefined);
  };

  return (
    <form noValidate onSubmit={submit} aria-label="身份验证">
      <style>{css}</style>
      <p style={{ margin: '0 0 8px', fontSize: 14, color: 'rgba(0,0,0,.6)' }}>
        {recovery
          ? '请输入一个未使用过的恢复码（每个恢复码只能使用一次）'
          : '请打开身份验证器，输入其中显示的6位验证码'}
      </p>
      {serverError && (
        <div className="login-alert" role="alert">
          {serverError}
        </div>
      )}
      <Field
        key={recovery ? 'recovery' : 'code'}
        label={recovery ? '恢复码' : '验证码'}
        name={recovery ? 'recoveryCode' : 'code'}
        autoComplete={recovery ? 'off' : 'one-time-code'}
        inputMode={recovery ? 'text' : 'numeric'}
        autoFocus
        value={value}
        onChange={setValue}
        error={error}
      />
      <button className="login-submit" type="submit" disabled={isLoading}>
        {isLoading ? '验证中...' : '验证'}
      </button>
      <div style={{ display: 'flex', justifyContent: 'space-between', marginTop: 16 }}>
        <button type="button" className="login-link" onClick={onBack}>
          返回
        </button>
        <button type="button" className="login-link" onClick={toggle}>
          {recovery ? '使用验证码' : '使用恢复码'}
        </button>
      </div>
    </form>
  );
}
