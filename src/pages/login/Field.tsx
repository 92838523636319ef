/** A labelled input of the login forms (password and code step), with its message below it. */
import { useId, type InputHTMLAttributes } from 'react';

export default function Field({
  label,
  name,
  type = 'text',
  autoComplete,
  autoFocus,
  inputMode,
  value,
  onChange,
  error,
}: {
  label: string;
  name: string;
  type?: InputHTMLAttributes<HTMLInputElement>['type'];
  inputMode?: InputHTMLAttributes<HTMLInputElement>['inputMode'];
  autoComplete: string;
  autoFocus?: boolean;
  value: string;
  onChange: (value: string) => void;
  error?: string;
}) {
  const id = useId();
  return (
    <div className={error ? 'login-field invalid' : 'login-field'}>
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        name={name}
        type={type}
        autoComplete={autoComplete}
        autoFocus={autoFocus}
        inputMode={inputMode}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={Boolean(error)}
        aria-describedby={error ? `${id}-error` : undefined}
      />
      {error && (
        <p className="login-help" id={`${id}-error`}>
          {error}
        </p>
      )}
    </div>
  );
}
