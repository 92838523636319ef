/**
 * The notice editor dialog: title, 置顶, rich-text content (the shared editor, with its 预览 tab), 保存
 * (a draft, or the offline notice as it was) and 保存并发布. Closing with unsaved changes asks first.
 */
import { lazy, Suspense, useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import { NOTICE_TITLE_MAX } from '../../../domain/content';
import { errorMessage } from '../../components/FormDialog';
import { useConfirm } from '../../components/useConfirm';
import { useAppDispatch } from '../../store/hooks';
import { toastShown } from '../../store/toastSlice';
import { useNoticeOptMutation } from '../../services/notices';
import type { Notice } from './NoticeListPage';

const RichTextEditor = lazy(() => import('../../components/RichTextEditor'));

export default function NoticeEditor({ notice, onClose }: { notice: Notice | null; onClose: () => void }) {
  const dispatch = useAppDispatch();
  const [opt] = useNoticeOptMutation();
  const [confirm, confirmDialog] = useConfirm();
  const [title, setTitle] = useState(notice?.title ?? '');
  const [pinned, setPinned] = useState(notice?.pinned ?? false);
  const [content, setContent] = useState(notice?.content ?? '');
  const [busy, setBusy] = useState(0);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [tried, setTried] = useState(false);
  const dirty =
    title !== (notice?.title ?? '') || pinned !== (notice?.pinned ?? false) || content !== (notice?.content ?? '');
  const titleError = tried && !title.trim() ? '请填写标题' : '';

  const save = async (publish: boolean) => {
    setTried(true);
    if (!title.trim()) return;
    if (!content) {
      setError('内容不能为空');
      return;
    }
    setSaving(true);
    setError(null);
    try {
      const body = { title: title.trim(), content, pinned, publish };
      await opt({
        body: notice
          ? { action: 'update', id: notice.id, updatedAt: notice.updatedAt, ...body }
          : { action: 'create', ...body },
      }).unwrap();
      dispatch(toastShown(publish ? '已保存并发布' : '已保存'));
      onClose();
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setSaving(false);
    }
  };
  const cancel = async () => {
    if (dirty && !(await confirm({ content: '有未保存的修改，确认放弃？', danger: true }))) return;
    onClose();
  };

  return (
    <Dialog open maxWidth="md" fullWidth scroll="paper" aria-labelledby="notice-editor-title" onClose={() => undefined}>
      <DialogTitle id="notice-editor-title">{notice ? `编辑公告 #${notice.id}` : '新增公告'}</DialogTitle>
      <DialogContent dividers>
        <Stack spacing={2}>
          {error && <Alert severity="error">{error}</Alert>}
          <TextField
            label="标题"
            required
            value={title}
            onChange={(e) => setTitle(e.target.value)}
            error={!!titleError}
            helperText={titleError || `${title.length}/${NOTICE_TITLE_MAX}`}
            slotProps={{ htmlInput: { maxLength: NOTICE_TITLE_MAX } }}
          />
          <FormControlLabel
            control={<Switch checked={pinned} onChange={(e) => setPinned(e.target.checked)} />}
            label="置顶"
          />
          <Suspense fallback={<CircularProgress size={24} aria-label="编辑器加载中" />}>
            <RichTextEditor
              label="公告内容"
              initial={notice?.content ?? ''}
              onChange={setContent}
              onBusy={(b) => setBusy((n) => n + (b ? 1 : -1))}
              minHeight={280}
            />
          </Suspense>
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={cancel} disabled={saving}>
          取消
        </Button>
        <Button onClick={() => save(false)} disabled={saving || busy > 0}>
          保存
        </Button>
        <Button
          variant="contained"
          onClick={() => save(true)}
          disabled={saving || busy > 0}
          startIcon={saving ? <CircularProgress size={16} /> : null}
        >
          保存并发布
        </Button>
      </DialogActions>
      {confirmDialog}
    </Dialog>
  );
}
