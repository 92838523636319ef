/**
 * 平台介绍 (protocol 6) and 玩法说明 (protocol 8): one screen, two ids. The shared rich-text editor with
 * its 预览 tab; 保存 sends the version it loaded, so a save over another manager's newer one is refused
 * (409) instead of overwriting it. Leaving with unsaved changes — another menu entry, back, a reload
 * or closing the tab — asks first.
 */
import { lazy, Suspense, useEffect, useState } from 'react';
import { useBlocker } from 'react-router-dom';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { PROTOCOL_TITLE_MAX, ProtocolCodes, ProtocolTitles, type ProtocolId } from '../../../domain/content';
import { formatTime } from '../../../domain/time';
import { ConfirmDialog, type ConfirmOptions } from '../../components/ConfirmDialog';
import useAction from '../../components/useAction';
import { useConfirm } from '../../components/useConfirm';
import { useCan } from '../../components/useCan';
import { useGetProtocolQuery, useSaveProtocolMutation } from '../../services/notices';

const RichTextEditor = lazy(() => import('../../components/RichTextEditor'));

export const LEAVE_TEXT = '有未保存的修改，确认离开？离开后修改将丢失。';
export const NEWER_TEXT = '其他管理员已保存了新版本，你的修改无法直接保存。请先复制你的修改，再载入最新版本。';
const DISCARD_TEXT = '载入最新版本会放弃你未保存的修改，确认继续？';
const LEAVE: ConfirmOptions = { content: LEAVE_TEXT, danger: true, confirmText: '离开' };

type Text = { title: string; content: string; updatedAt: number | null };

export default function ProtocolPage({ id }: { id: ProtocolId }) {
  const { data, isFetching, isError, refetch } = useGetProtocolQuery({ id }, { refetchOnMountOrArgChange: true });
  const canSave = useCan(ProtocolCodes[id].update);
  const [saveProtocol] = useSaveProtocolMutation();
  const [run, actionDialog] = useAction();
  const [confirm, confirmDialog] = useConfirm();
  // The version the editor started from: what 保存 replaces and what "unsaved" compares with.
  const [base, setBase] = useState<Text | null>(null);
  const [title, setTitle] = useState('');
  const [content, setContent] = useState('');
  const [busy, setBusy] = useState(0);
  const dirty = !!base && (title !== base.title || content !== base.content);
  const load = (t: Text) => {
    setBase(t);
    setTitle(t.title);
    setContent(t.content);
  };
  // A newer version from the server replaces what is shown only while nothing is edited: a refused
  // save (another manager saved first) refetches, and the operator's work must not vanish with it.
  const fresh = data && data.id === id ? data : undefined;
  const newer = !!fresh && !!base && fresh.updatedAt !== base.updatedAt;
  useEffect(() => {
    if (fresh && (!base || (newer && !dirty))) load(fresh);
  }, [fresh, newer]); // eslint-disable-line react-hooks/exhaustive-deps

  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) => dirty && currentLocation.pathname !== nextLocation.pathname,
  );
  useEffect(() => {
    if (!dirty) return;
    const warn = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);

  const save = () =>
    run({
      call: async () => {
        const saved = await saveProtocol({
          body: { id, title: title.trim(), content, updatedAt: base?.updatedAt ?? 0 },
        }).unwrap();
        load(saved);
        return saved;
      },
      success: '保存成功',
    });
  const loadNewest = async () => {
    if (dirty && !(await confirm({ content: DISCARD_TEXT, danger: true, confirmText: '放弃并载入' }))) return;
    const r = await refetch();
    if (r.data) load(r.data);
  };

  if (isError && !fresh) {
    return (
      <Alert severity="error" action={<Button onClick={() => refetch()}>重试</Button>}>
        {ProtocolTitles[id]}加载失败
      </Alert>
    );
  }
  if (!base || !fresh) {
    return <CircularProgress aria-label="加载中" />;
  }
  return (
    <Paper sx={{ p: 2 }}>
      <Stack spacing={2}>
        <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', flexWrap: 'wrap', gap: 1 }}>
          <Typography component="h2" variant="h6">
            {ProtocolTitles[id]}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {fresh.updatedAt ? `最后修改：${formatTime(fresh.updatedAt)}（${fresh.updatedBy}）` : '尚未编辑'}
          </Typography>
        </Stack>
        {!canSave && <Alert severity="info">你只有查看权限</Alert>}
        {newer && dirty && (
          <Alert
            severity="warning"
            action={
              <Button color="inherit" size="small" onClick={loadNewest}>
                载入最新版本
              </Button>
            }
          >
            {NEWER_TEXT}
          </Alert>
        )}
        <TextField
          label="标题"
          required
          value={title}
          onChange={(e) => setTitle(e.target.value)}
          disabled={!canSave}
          slotProps={{ htmlInput: { maxLength: PROTOCOL_TITLE_MAX } }}
          sx={{ maxWidth: 480 }}
        />
        <Suspense fallback={<CircularProgress size={24} aria-label="编辑器加载中" />}>
          <RichTextEditor
            label="正文"
            key={`${id}-${base.updatedAt ?? 0}`}
            initial={base.content}
            onChange={setContent}
            onBusy={(b) => setBusy((n) => n + (b ? 1 : -1))}
            minHeight={360}
          />
        </Suspense>
        <Box sx={{ display: 'flex', gap: 1 }}>
          {canSave && (
            <Button variant="contained" onClick={save} disabled={!dirty || !title.trim() || busy > 0 || isFetching}>
              保存
            </Button>
          )}
          <Button onClick={loadNewest} disabled={isFetching}>
            刷新
          </Button>
          {dirty && (
            <Typography variant="body2" color="warning.main" sx={{ alignSelf: 'center' }}>
              有未保存的修改
            </Typography>
          )}
        </Box>
      </Stack>
      <ConfirmDialog
        open={blocker.state === 'blocked'}
        options={blocker.state === 'blocked' ? LEAVE : null}
        onClose={(ok) => (ok ? blocker.proceed?.() : blocker.reset?.())}
      />
      {actionDialog}
      {confirmDialog}
    </Paper>
  );
}
