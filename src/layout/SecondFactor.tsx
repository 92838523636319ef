/**
 * The shell's side of the second factor (issue 15), a chunk loaded after the first paint:
 * - a 428 from a money action opens the step-up dialog; requests that meet a 428 meanwhile wait for
 *   the same dialog (a batch asks once), and all go on once the code is accepted;
 * - a 426 (the role asks for an authenticator this manager has not bound), or the status this chunk
 *   reads when it loads (a 426 may have come before), covers the console with the binding screen until
 *   he has bound one (or logs out); then every query runs again.
 */
import { useEffect, useRef, useState } from 'react';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import BindTotp from '../components/totp/BindTotp';
import StepUpDialog from '../components/totp/StepUpDialog';
import { Code } from '../../domain/codes';
import { TotpMessages } from '../../domain/totp';
import { baseApi } from '../services/baseApi';
import { answerHook } from '../services/http';
import { useGetTotpStatusQuery } from '../services/totp';
import { useAppDispatch } from '../store/hooks';

export default function SecondFactor({ onLogout }: { onLogout: () => void }) {
  const dispatch = useAppDispatch();
  const [asking, setAsking] = useState(false);
  const [told, setTold] = useState(false);
  const [mustBind, setMustBind] = useState(false);
  const { data: status } = useGetTotpStatusQuery();
  // Latched: binding refetches the status (bound), yet the screen stays to show the recovery codes.
  const needed = told || Boolean(status && status.required && !status.bound);
  useEffect(() => {
    if (needed) setMustBind(true);
  }, [needed]);
  const waiting = useRef<Promise<boolean> | null>(null);
  const answer = useRef<(ok: boolean) => void>(() => undefined);
  /** When a code was last accepted here: a 428 to a request sent before it goes again without asking. */
  const verifiedAt = useRef(0);

  useEffect(() => {
    const stepUp = () =>
      (waiting.current ??= new Promise<boolean>((resolve) => {
        answer.current = resolve;
        setAsking(true);
      }));
    answerHook.current = async (result, again, sentAt) => {
      const code = result.error?.code;
      if (code === Code.totpBindRequired) setTold(true);
      if (code !== Code.stepUp) return result;
      if (verifiedAt.current > sentAt) return again();
      return (await stepUp()) ? again() : { error: { code, msg: TotpMessages.stepUpCancelled } };
    };
    return () => {
      answerHook.current = undefined;
      answer.current(false);
    };
  }, []);

  const closeStepUp = (ok: boolean) => {
    if (ok) verifiedAt.current = Date.now();
    waiting.current = null;
    setAsking(false);
    answer.current(ok);
  };

  return (
    <>
      {asking && <StepUpDialog onClose={closeStepUp} />}
      {mustBind && (
        <Dialog open fullWidth maxWidth="sm" aria-labelledby="must-bind-title">
          <DialogTitle id="must-bind-title">请先绑定身份验证器</DialogTitle>
          <DialogContent>
            <DialogContentText sx={{ mb: 2 }}>
              您所属的角色要求使用身份验证器登录和操作资金。绑定完成后即可继续使用控制台。
            </DialogContentText>
            <BindTotp
              onDone={() => {
                setTold(false);
                setMustBind(false);
                dispatch(baseApi.util.resetApiState());
              }}
            />
          </DialogContent>
          <DialogActions>
            <Button onClick={onLogout}>退出登录</Button>
          </DialogActions>
        </Dialog>
      )}
    </>
  );
}
