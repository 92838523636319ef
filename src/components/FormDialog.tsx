/**
 * A dialog around a form: title, fields (children), 取消 / 确定. 确定 (or Enter in a field) checks the
 * fields first (useForm), then awaits `onSubmit`; while it runs the button spins and the dialog
 * cannot be closed; a refusal shows the server's msg inside the dialog and keeps what was typed;
 * success closes it and, when given, shows `successText` as a toast.
 *
 *   <FormDialog open={open} title="新增管理员" form={form} onClose={close}
 *     onSubmit={() => createManager({ body: form.values }).unwrap()} successText="新增成功">
 *     <TextField {...form.field('username')} />
 *   </FormDialog>
 */
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import { ClientMessages as Messages } from '../../domain/codes';
import { useAppDispatch, useAppStore } from '../store/hooks';
import { errorShownInPlace, toastShown } from '../store/toastSlice';

export interface FormDialogProps {
  open: boolean;
  title: string;
  /** Called on 取消, Esc and after a success; not while submitting. */
  onClose: () => void;
  /**
   * Runs after the fields pass; a rejection with `{ msg }` (an ApiError) is shown in the dialog.
   * Resolving with KEEP_OPEN (a confirmation the operator declined) leaves the dialog as it was.
   */
  onSubmit: () => Promise<unknown> | unknown;
  /** The form whose fields are checked before submitting (useForm()). */
  form?: { validate: () => boolean };
  children: ReactNode;
  submitText?: string;
  cancelText?: string;
  /** A success toast, e.g. "保存成功". */
  successText?: string;
  maxWidth?: 'xs' | 'sm' | 'md' | 'lg';
  /** Something in the form is still working (an image uploading): 确定 waits for it. */
  waiting?: boolean;
}

/** What `onSubmit` resolves with when nothing was done and the dialog stays open. */
export const KEEP_OPEN = Symbol('keep the dialog open');

export function errorMessage(error: unknown): string {
  if (error && typeof error === 'object' && 'msg' in error && typeof error.msg === 'string' && error.msg) {
    return error.msg;
  }
  return Messages.busy;
}

export function FormDialog({
  open,
  title,
  onClose,
  onSubmit,
  form,
  children,
  submitText = '确定',
  cancelText = '取消',
  successText,
  maxWidth = 'sm',
  waiting = false,
}: FormDialogProps) {
  const id = useId();
  const dispatch = useAppDispatch();
  const store = useAppStore();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [wasOpen, setWasOpen] = useState(open);
  // Each opening starts without the last refusal.
  if (open !== wasOpen) {
    setWasOpen(open);
    if (open) setFailure(null);
  }

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy || waiting) return;
    setFailure(null);
    if (form && !form.validate()) return;
    setBusy(true);
    const toastsBefore = store.getState().toast.nextId;
    try {
      const done = await onSubmit();
      setBusy(false);
      if (done === KEEP_OPEN) return;
      if (successText) dispatch(toastShown(successText, 'success'));
      onClose();
    } catch (error) {
      setBusy(false);
      const message = errorMessage(error);
      setFailure(message);
      // Shown in the dialog, where the operator is looking: not a second time as a toast.
      dispatch(errorShownInPlace({ msg: message, since: toastsBefore }));
    }
  };

  return (
    <Dialog
      open={open}
      onClose={busy ? undefined : onClose}
      fullWidth
      maxWidth={maxWidth}
      aria-labelledby={`${id}-title`}
      // The paper is the <form>, so the title and actions stay put while a long form scrolls.
      slotProps={{ paper: { component: 'form', onSubmit: submit, noValidate: true } as object }}
    >
      <DialogTitle id={`${id}-title`}>{title}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          {failure ? (
            <Alert severity="error" role="alert">
              {failure}
            </Alert>
          ) : null}
          {children}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={busy}>
          {cancelText}
        </Button>
        <Button
          type="submit"
          variant="contained"
          disabled={busy || waiting}
          startIcon={busy ? <CircularProgress size={16} color="inherit" aria-hidden /> : undefined}
        >
          {submitText}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

export default FormDialog;
