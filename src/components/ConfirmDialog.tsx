/**
 * The confirmation asked before anything irreversible ("温馨提示" / "确认…？" / 确定 / 取消), optionally
 * with a remark the action needs (a reject reason). The view is controlled; useConfirm() wraps it in
 * a promise so an action reads top to bottom:
 *
 *   const [confirm, confirmDialog] = useConfirm();
 *   if (!(await confirm({ content: '确认删除该管理员？', danger: true }))) return;
 *   const reason = await confirm({ content: '确认驳回该提现？', remark: {} });   // string | null
 *   …
 *   return <>{…}{confirmDialog}</>;
 */
import { useId, useState, type ReactNode } from 'react';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import WarningAmberIcon from '@mui/icons-material/WarningAmber';
import { CONTROL_CHARS } from '../../domain/formats';

export interface RemarkOptions {
  /** Field label, default "备注". */
  label?: string;
  /** Placeholder and the error when left empty, default "请输入驳回原因". */
  placeholder?: string;
  /** Default true: the confirm button refuses an empty (or blank) remark. */
  required?: boolean;
  maxLength?: number;
}

export interface ConfirmOptions {
  /** Default "温馨提示". */
  title?: string;
  content: ReactNode;
  /** Default "确定". */
  confirmText?: string;
  /** Default "取消". */
  cancelText?: string;
  /** A destructive action: the confirm button is red. */
  danger?: boolean;
  /** Asks for a remark; the promise then resolves with its trimmed text (null on cancel). */
  remark?: RemarkOptions;
  /** The warning icon before the content; default true. */
  icon?: boolean;
}

export const DEFAULT_REMARK_MAX = 200;

export interface ConfirmDialogProps {
  open: boolean;
  options: ConfirmOptions | null;
  /** false/null on cancel (button, Esc, backdrop); true or the remark text on confirm. */
  onClose: (result: boolean | string | null) => void;
}

export function ConfirmDialog({ open, options, onClose }: ConfirmDialogProps) {
  const id = useId();
  const [remark, setRemark] = useState('');
  /** Why the remark cannot go (shown under it), or null. */
  const [error, setError] = useState<string | null>(null);
  const [shownFor, setShownFor] = useState<ConfirmOptions | null>(null);
  // A new question starts with an empty remark.
  if (options !== shownFor) {
    setShownFor(options);
    setRemark('');
    setError(null);
  }
  if (!options) return null;
  const remarkOpts = options.remark;
  const required = remarkOpts ? remarkOpts.required !== false : false;
  const placeholder = remarkOpts?.placeholder ?? '请输入驳回原因';
  const maxLength = remarkOpts?.maxLength ?? DEFAULT_REMARK_MAX;
  const label = remarkOpts?.label ?? '备注';

  const cancel = () => onClose(remarkOpts ? null : false);
  const accept = () => {
    if (!remarkOpts) return onClose(true);
    const text = remark.trim();
    if (required && !text) return setError(placeholder);
    // The server refuses them in every text (line breaks are allowed in a remark): say so here, while
    // what was typed is still on screen, rather than close and answer with a toast.
    if (CONTROL_CHARS.test(text)) return setError(`${label}不能包含控制字符`);
    onClose(text);
  };

  return (
    <Dialog
      open={open}
      onClose={cancel}
      maxWidth="xs"
      fullWidth
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-content`}
    >
      <DialogTitle id={`${id}-title`}>{options.title ?? '温馨提示'}</DialogTitle>
      <DialogContent>
        <Stack direction="row" spacing={1.5} sx={{ alignItems: 'flex-start' }}>
          {options.icon === false ? null : (
            <WarningAmberIcon color={options.danger ? 'error' : 'warning'} aria-hidden sx={{ mt: '2px' }} />
          )}
          <Typography id={`${id}-content`} component="div" sx={{ flex: 1, wordBreak: 'break-word' }}>
            {options.content}
          </Typography>
        </Stack>
        {remarkOpts ? (
          <TextField
            autoFocus
            fullWidth
            multiline
            minRows={3}
            margin="normal"
            label={label}
            placeholder={placeholder}
            required={required}
            value={remark}
            error={error !== null}
            helperText={error ?? `${remark.length}/${maxLength}`}
            onChange={(e) => {
              setRemark(e.target.value.slice(0, maxLength));
              if (error && e.target.value.trim()) setError(null);
            }}
            slotProps={{ htmlInput: { maxLength } }}
          />
        ) : null}
      </DialogContent>
      <DialogActions>
        {/* A destructive question starts on 取消: an Enter held from the form before cannot confirm it. */}
        <Button onClick={cancel} autoFocus={!remarkOpts && options.danger}>
          {options.cancelText ?? '取消'}
        </Button>
        <Button
          onClick={accept}
          variant="contained"
          color={options.danger ? 'error' : 'primary'}
          autoFocus={!remarkOpts && !options.danger}
        >
          {options.confirmText ?? '确定'}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

export default ConfirmDialog;
