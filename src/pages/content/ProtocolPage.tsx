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
import { useCan } from '../../components/useCan';
import { useGetProtocolQuery, useSaveProtocolMutation } from '../../services/notices';

const RichTextEditor = lazy(() => import('../../components/RichTextEditor'));

export const LEAVE_TEXT = '有未保存的修改，确认离开？离开后修改将丢失。';
const LEAVE: ConfirmOptions = { content: LEAVE_TEXT, danger: true, confirmText: '离开' };

export default function ProtocolPage({ id }: { id: ProtocolId }) {
  const { data, isFetching, refetch } = useGetProtocolQuery({ id }, { refetchOnMountOrArgChange: true });
  const canSave = useCan(ProtocolCodes[id].update);
  const [saveProtocol] = useSaveProtocolMutation();
  const [run, actionDialog] = useAction();
  const [title, setTitle] = useState('');
  const [content, setContent] = useState('');
  const [busy, setBusy] = useState(0);
  const loadedKey = data ? `${data.id}-${data.updatedAt ?? 0}` : '';

  useEffect(() => {
    if (!data) return;
    setTitle(data.title);
    setContent(data.content);
  }, [loadedKey]); // eslint-disable-line react-hooks/exhaustive-deps

  const dirty = !!data && data.id === id && (title !== data.title || content !== data.content);
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
      call: () =>
        saveProtocol({ body: { id, title: title.trim(), content, updatedAt: data?.updatedAt ?? 0 } }).unwrap(),
      success: '保存成功',
    });

  if (!data || data.id !== id) {
    return <CircularProgress aria-label="加载中" />;
  }
  return (
    <Paper sx={{ p: 2 }}>
      <Stack spacing={2}>
        <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', flexWrap: 'wrap', gap: 1 }}>
          <Typography component="h1" variant="h6">
            {ProtocolTitles[id]}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {data.updatedAt ? `最后修改：${formatTime(data.updatedAt)}（${data.updatedBy}）` : '尚未编辑'}
          </Typography>
        </Stack>
        {!canSave && <Alert severity="info">你只有查看权限</Alert>}
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
            key={loadedKey}
            initial={data.content}
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
          <Button onClick={() => refetch()} disabled={isFetching}>
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
    </Paper>
  );
}
