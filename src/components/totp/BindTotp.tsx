/**
 * Binding an authenticator (issue 15), in three steps: the server makes a secret and its QR code
 * (an otpauth URI drawn on the server, no web service); the manager scans it (or types the secret)
 * and enters the code his app shows; the ten recovery codes are shown this once, to copy or save.
 */
import { useEffect, useRef, useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { TOTP_ISSUER } from '../../../domain/totp';
import type { ApiError } from '../../services/http';
import type { SetupTotpApiResponse } from '../../services/generated/auth';
import { useEnableTotpMutation, useSetupTotpMutation } from '../../services/totp';

/** The secret in groups of four, as authenticator apps show and accept it. */
const grouped = (secret: string) => secret.replace(/(.{4})(?=.)/g, '$1 ');

/** `onCancel`: a 取消 button before the binding is confirmed (none on the screen a role requires). */
export default function BindTotp({ onDone, onCancel }: { onDone: () => void; onCancel?: () => void }) {
  const [setup, { data: ticket, error: setupError }] = useSetupTotpMutation();
  const [enable, { isLoading }] = useEnableTotpMutation();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string>();
  const [codes, setCodes] = useState<string[]>();

  // One secret per binding screen (StrictMode runs effects twice: a second secret would replace the
  // first while its QR code may still be the one shown).
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    void setup();
  }, [setup]);

  const confirm = async () => {
    const text = code.replace(/\s/g, '');
    if (!/^\d{6}$/.test(text)) return setError('请输入6位数字验证码');
    setError(undefined);
    try {
      setCodes((await enable({ body: { code: text } }).unwrap()).recoveryCodes);
    } catch (err) {
      setError((err as ApiError).msg);
    }
  };

  if (codes) return <RecoveryCodes codes={codes} onDone={onDone} />;
  if (setupError) return <Alert severity="error">{(setupError as ApiError).msg}</Alert>;
  if (!ticket) return <Typography color="text.secondary">正在生成二维码…</Typography>;
  return (
    <ScanStep
      ticket={ticket}
      code={code}
      setCode={setCode}
      error={error}
      busy={isLoading}
      onConfirm={confirm}
      onCancel={onCancel}
    />
  );
}

function ScanStep({
  ticket,
  code,
  setCode,
  error,
  busy,
  onConfirm,
  onCancel,
}: {
  ticket: SetupTotpApiResponse;
  code: string;
  setCode: (v: string) => void;
  error?: string;
  busy: boolean;
  onConfirm: () => void;
  onCancel?: () => void;
}) {
  return (
    <Stack spacing={2}>
      <Typography variant="body2">
        1. 在手机上打开身份验证器（如 Google Authenticator、Microsoft
        Authenticator），扫描下方二维码；无法扫描时可手动输入密钥。
      </Typography>
      <Box sx={{ display: 'flex', gap: 2, alignItems: 'center', flexWrap: 'wrap' }}>
        <Box component="img" src={ticket.qr} alt="身份验证器二维码" sx={{ width: 180, height: 180 }} />
        <Box>
          <Typography variant="caption" color="text.secondary">
            密钥（{TOTP_ISSUER}）
          </Typography>
          <Typography data-testid="totp-secret" sx={{ fontFamily: 'monospace', wordBreak: 'break-all' }}>
            {grouped(ticket.secret)}
          </Typography>
        </Box>
      </Box>
      <Typography variant="body2">2. 输入身份验证器中显示的6位验证码完成绑定。</Typography>
      <Box
        component="form"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          onConfirm();
        }}
        sx={{ display: 'flex', gap: 1, alignItems: 'flex-start' }}
      >
        <TextField
          label="验证码"
          size="small"
          value={code}
          onChange={(e) => setCode(e.target.value)}
          error={Boolean(error)}
          helperText={error}
          autoComplete="one-time-code"
          slotProps={{ htmlInput: { inputMode: 'numeric', maxLength: 7 } }}
        />
        <Button type="submit" variant="contained" disabled={busy}>
          确认绑定
        </Button>
        {onCancel && <Button onClick={onCancel}>取消</Button>}
      </Box>
    </Stack>
  );
}

function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const text = codes.join('\n');
  const [copied, setCopied] = useState(false);
  const download = () => {
    const url = URL.createObjectURL(new Blob([`${TOTP_ISSUER} 恢复码\n${text}\n`], { type: 'text/plain' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = '恢复码.txt';
    a.click();
    URL.revokeObjectURL(url);
  };
  return (
    <Stack spacing={2}>
      <Alert severity="success">绑定成功</Alert>
      <Alert severity="warning">
        请妥善保存以下恢复码：手机丢失时，每个恢复码可代替验证码使用一次。恢复码只显示这一次。
      </Alert>
      <Box
        component="ul"
        aria-label="恢复码"
        sx={{
          m: 0,
          p: 1.5,
          listStyle: 'none',
          columns: 2,
          fontFamily: 'monospace',
          bgcolor: 'action.hover',
          borderRadius: 1,
        }}
      >
        {codes.map((c) => (
          <li key={c}>{c}</li>
        ))}
      </Box>
      <Stack direction="row" spacing={1}>
        <Button
          onClick={() => {
            void navigator.clipboard?.writeText(text).then(() => setCopied(true));
          }}
        >
          {copied ? '已复制' : '复制'}
        </Button>
        <Button onClick={download}>下载</Button>
        <Box sx={{ flex: 1 }} />
        <Button variant="contained" onClick={onDone}>
          我已保存，完成
        </Button>
      </Stack>
    </Stack>
  );
}
