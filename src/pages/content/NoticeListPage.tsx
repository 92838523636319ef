/**
 * 公告管理: notices pinned first, newest first, filtered by title, status and creation date. A draft or
 * an offline notice can be edited, published or deleted; a published one only taken offline (edit =
 * 下线 → 编辑 → 发布, so what members read never changes silently). Every action asks first; 预览 shows
 * the notice as a member sees it. The editor dialog (Tiptap) and the preview (DOMPurify) load on first use.
 */
import { lazy, Suspense, useMemo, useState } from 'react';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import TextField from '@mui/material/TextField';
import type { Column } from '../../components/table/columnTypes';
import { NoticeActions, noticeEditable, NoticeStatus } from '../../../domain/content';
import Can from '../../components/Can';
import { actionsColumn, actionsWidth, statusColumn, timeColumn } from '../../components/columns';
import { DateRangeFilter } from '../../components/DateRangeFilter';
import EnumSelect from '../../components/EnumSelect';
import { ListPage } from '../../components/ListPage';
import useAction from '../../components/useAction';
import { useCan } from '../../components/useCan';
import { useListParams } from '../../components/useListParams';
import type { ListNoticesApiArg, ListNoticesApiResponse } from '../../services/generated/notice';
import { useListNoticesQuery, useNoticeOptMutation } from '../../services/notices';

export type Notice = ListNoticesApiResponse['list'][number];

const NoticeEditor = lazy(() => import('./NoticeEditor'));
const NoticePreview = lazy(() => import('./NoticePreview'));

const FILTERS = { keyword: '', status: '', start: '', end: '' };
const NUMERIC = ['status'] as const;

export default function NoticeListPage() {
  const params = useListParams({ filters: FILTERS, numeric: NUMERIC });
  const { data, isFetching, refetch } = useListNoticesQuery(params.queryArgs as ListNoticesApiArg);
  const canOpt = useCan('notice:opt');
  const [opt] = useNoticeOptMutation();
  const [run, actionDialog] = useAction();
  const [editing, setEditing] = useState<{ notice: Notice | null } | null>(null);
  const [preview, setPreview] = useState<Notice | null>(null);

  const columns = useMemo<Column<Notice>[]>(() => {
    const act = (n: Notice, action: 'publish' | 'offline' | 'delete') =>
      run({
        confirm: {
          publish: { content: `确认发布公告「${n.title}」？发布后会员即可看到。` },
          offline: { content: `确认下线公告「${n.title}」？下线后会员将看不到它。`, danger: true },
          delete: { content: `确认删除公告「${n.title}」？删除后不可恢复。`, danger: true },
        }[action],
        call: () => opt({ body: { action, id: n.id } }).unwrap(),
        success: { publish: '已发布', offline: '已下线', delete: '已删除' }[action],
      });
    return [
      { field: 'id', headerName: 'ID', width: 70 },
      {
        field: 'title',
        headerName: '标题',
        flex: 1,
        minWidth: 220,
        renderCell: ({ row }) => (
          <>
            {row.pinned && <Chip size="small" color="primary" label="置顶" sx={{ mr: 1 }} />}
            {row.title}
          </>
        ),
      },
      statusColumn('status', '状态', NoticeStatus.map, { width: 90 }),
      timeColumn('publishedAt', '发布时间'),
      timeColumn('updatedAt', '更新时间'),
      { field: 'updatedBy', headerName: '操作人', width: 100 },
      actionsColumn<Notice>(
        (row) => (
          <>
            <Button size="small" onClick={() => setPreview(row)}>
              预览
            </Button>
            {canOpt && noticeEditable(row.status) && (
              <Button size="small" onClick={() => setEditing({ notice: row })}>
                编辑
              </Button>
            )}
            {canOpt &&
              NoticeActions.actionsIn(row.status).map((a) => (
                <Button
                  key={a}
                  size="small"
                  color={a === 'offline' ? 'warning' : 'primary'}
                  onClick={() => act(row, a)}
                >
                  {NoticeActions[a].label}
                </Button>
              ))}
            {canOpt && noticeEditable(row.status) && (
              <Button size="small" color="error" onClick={() => act(row, 'delete')}>
                删除
              </Button>
            )}
          </>
        ),
        { width: actionsWidth(4) }, // 预览, 编辑, 发布 or 下线, 删除
      ),
    ];
  }, [canOpt, opt, run]);

  return (
    <>
      <ListPage
        params={params}
        columns={columns}
        data={data}
        isFetching={isFetching}
        onRefresh={refetch}
        label="公告列表"
        toolbar={
          <Can code="notice:opt">
            <Button variant="contained" onClick={() => setEditing({ notice: null })}>
              新增公告
            </Button>
          </Can>
        }
      >
        <TextField label="标题" size="small" {...params.field('keyword')} />
        <EnumSelect filter label="状态" options={NoticeStatus} {...params.field('status')} />
        <DateRangeFilter params={params} />
      </ListPage>
      {editing && (
        <Suspense fallback={null}>
          <NoticeEditor notice={editing.notice} onClose={() => setEditing(null)} />
        </Suspense>
      )}
      {preview && (
        <Suspense fallback={null}>
          <NoticePreview notice={preview} onClose={() => setPreview(null)} />
        </Suspense>
      )}
      {actionDialog}
    </>
  );
}
