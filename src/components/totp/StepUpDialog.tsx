/**
 * Step-up (issue 15): a money action answered 428, so the manager gives a fresh code; the action then
 * goes on by itself (baseQuery sends it again). Cancelling leaves the action undone.
 */
import { useState } from 'react';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import type { ApiError } from '../../services/baseApi';
import { useVerifyTotpMutation } from '../../services/totp';
import ProofField, { emptyProof, proofOf } from './ProofField';

export default function StepUpDialog({ onClose }: { onClose: (verified: boolean) => void }) {
  const [proof, setProof] = useState(emptyProof);
  const [error, setError] = useState<string>();
  const [verify, { isLoading }] = useVerifyTotpMutation();
  const submit = async () => {
    const p = proofOf(proof);
    if ('error' in p) return setError(p.error);
    setError(undefined);
    try {
      await verify({ body: p.body }).unwrap();
      onClose(true);
    } catch (err) {
      setError((err as ApiError).msg);
    }
  };
  return (
    <Dialog open onClose={() => onClose(false)} maxWidth="xs" fullWidth aria-labelledby="step-up-title">
      <DialogTitle id="step-up-title">身份验证</DialogTitle>
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <DialogContent>
          <DialogContentText>
            该操作涉及资金或权限，请输入身份验证器中的6位验证码，验证后操作将继续执行。
          </DialogContentText>
          <ProofField value={proof} onChange={setProof} error={error} />
        </DialogContent>
        <DialogActions>
          <Button onClick={() => onClose(false)}>取消</Button>
          <Button type="submit" variant="contained" disabled={isLoading}>
            验证并继续
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
