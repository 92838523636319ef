/**
 * A dialog that asks for a code from the authenticator (or a recovery code) and hands it to `send`:
 * step-up before a money action (身份验证) and unbinding (解绑身份验证器). A refusal stays in the dialog
 * under the field; the dialog closes once `send` resolves.
 */
import { useState, type ReactNode } from 'react';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import type { ApiError } from '../../services/http';
import ProofField, { emptyProof, proofOf } from './ProofField';

export default function ProofDialog({
  id,
  title,
  text,
  submitText,
  danger = false,
  send,
  onDone,
  onCancel,
}: {
  id: string;
  title: string;
  text: ReactNode;
  submitText: string;
  danger?: boolean;
  send: (body: { code?: string; recoveryCode?: string }) => Promise<unknown>;
  onDone: () => void;
  onCancel: () => void;
}) {
  const [proof, setProof] = useState(emptyProof);
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    const p = proofOf(proof);
    if ('error' in p) return setError(p.error);
    setError(undefined);
    setBusy(true);
    try {
      await send(p.body);
      onDone();
    } catch (err) {
      setError((err as ApiError).msg);
      setBusy(false);
    }
  };
  return (
    <Dialog open onClose={onCancel} maxWidth="xs" fullWidth aria-labelledby={`${id}-title`}>
      <DialogTitle id={`${id}-title`}>{title}</DialogTitle>
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <DialogContent>
          <DialogContentText>{text}</DialogContentText>
          <ProofField value={proof} onChange={setProof} error={error} />
        </DialogContent>
        <DialogActions>
          <Button onClick={onCancel}>取消</Button>
          <Button type="submit" variant="contained" color={danger ? 'error' : 'primary'} disabled={busy}>
            {submitText}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
