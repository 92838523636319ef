/**
 * A code from the authenticator (6 digits) or, switched by the link below it, one of the recovery
 * codes: what step-up and unbinding ask for. The caller keeps the value; `proofOf` turns it into the
 * request body and says what is wrong with it first.
 */
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';

export interface ProofValue {
  recovery: boolean;
  text: string;
}
export const emptyProof: ProofValue = { recovery: false, text: '' };

/** The request body ({code} or {recoveryCode}), or the Chinese message naming what is missing. */
export function proofOf(v: ProofValue): { body: { code?: string; recoveryCode?: string } } | { error: string } {
  const text = v.text.replace(/\s/g, '');
  if (v.recovery) return text ? { body: { recoveryCode: v.text.trim() } } : { error: '请输入恢复码' };
  return /^\d{6}$/.test(text) ? { body: { code: text } } : { error: '请输入6位数字验证码' };
}

export default function ProofField({
  value,
  onChange,
  error,
  allowRecovery = true,
}: {
  value: ProofValue;
  onChange: (v: ProofValue) => void;
  error?: string;
  allowRecovery?: boolean;
}) {
  return (
    <Stack spacing={1} sx={{ pt: 1 }}>
      <TextField
        key={value.recovery ? 'recovery' : 'code'}
        label={value.recovery ? '恢复码' : '验证码'}
        placeholder={value.recovery ? 'XXXXX-XXXXX' : '6位数字'}
        value={value.text}
        onChange={(e) => onChange({ ...value, text: e.target.value })}
        error={Boolean(error)}
        helperText={error}
        autoFocus
        autoComplete={value.recovery ? 'off' : 'one-time-code'}
        slotProps={{
          htmlInput: { inputMode: value.recovery ? 'text' : 'numeric', maxLength: value.recovery ? 16 : 7 },
        }}
      />
      {allowRecovery && (
        <Link
          component="button"
          type="button"
          variant="body2"
          sx={{ alignSelf: 'flex-start' }}
          onClick={() => onChange({ recovery: !value.recovery, text: '' })}
        >
          {value.recovery ? '使用验证码' : '手机不在身边？使用恢复码'}
        </Link>
      )}
    </Stack>
  );
}
