/**
 * The 管理员 tab: `user/list` with filters in the URL, create/edit, enable/disable (an edit with the
 * row's version) and delete. Buttons follow the caller's codes; the server still refuses what the
 * rules forbid (self-delete, the last super manager, a stale row), shown as the baseQuery's toast.
 */
import { useMemo, useState } from 'react';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import AddIcon from '@mui/icons-material/Add';
import type { GridColDef } from '@mui/x-data-grid';
import { ManagerStatus } from '../../../domain/managers';
import { Can } from '../../components/Can';
import { actionsColumn, statusColumn, timeColumn } from '../../components/columns';
import ListPage from '../../components/ListPage';
import { usePermissions } from '../../components/useCan';
import useConfirm from '../../components/useConfirm';
import { useListParams } from '../../components/useListParams';
import { useAppDispatch } from '../../store/hooks';
import { toastShown } from '../../store/toastSlice';
import { useDeleteManagerMutation, useListManagersQuery, useSaveManagerMutation } from '../../services/system';
import type { ListManagersApiArg } from '../../services/generated/api';
import { onDemand, useOpenedOnce } from '../../components/onDemand';
import type { ManagerRow } from './ManagerDialog';

// The create / edit dialog loads when first opened.
const ManagerDialog = onDemand(() => import('./ManagerDialog'));

const FILTERS = { username: '', roleId: '', status: '' };
const NUMERIC = ['roleId', 'status'] as const;

export default function ManagerList() {
  const params = useListParams({ filters: FILTERS, numeric: NUMERIC });
  const { data, isFetching } = useListManagersQuery(params.queryArgs as ListManagersApiArg);
  const roles = useMemo(() => data?.roles ?? [], [data]);
  const { can } = usePermissions();
  const [confirm, confirmDialog] = useConfirm();
  const dispatch = useAppDispatch();
  const [save] = useSaveManagerMutation();
  const [remove] = useDeleteManagerMutation();
  const [dialog, setDialog] = useState<{ open: boolean; manager: ManagerRow | null }>({ open: false, manager: null });
  const dialogOpened = useOpenedOnce(dialog.open);

  const columns = useMemo<GridColDef<ManagerRow>[]>(() => {
    const toggle = async (row: ManagerRow) => {
      const next = row.status === 1 ? 0 : 1;
      const verb = ManagerStatus.label(next);
      const note = next === 0 ? '，禁用后其登录立即失效' : '';
      if (!(await confirm({ content: `确认${verb}管理员 ${row.username}？${note}`, danger: next === 0 }))) return;
      try {
        await save({
          body: { id: row.id, version: row.version, username: row.username, roleId: row.roleId, status: next },
        }).unwrap();
        dispatch(toastShown(`已${verb}`, 'success'));
      } catch {
        // The refusal is already a toast (store listener).
      }
    };
    const drop = async (row: ManagerRow) => {
      if (!(await confirm({ content: `确认删除管理员 ${row.username}？`, danger: true }))) return;
      try {
        await remove({ body: { id: row.id } }).unwrap();
        dispatch(toastShown('删除成功', 'success'));
      } catch {
        // Shown as a toast by the store listener.
      }
    };
    const cols: GridColDef<ManagerRow>[] = [
      { field: 'id', headerName: 'ID', width: 80, sortable: true },
      { field: 'username', headerName: '用户名', width: 150 },
      { field: 'roleName', headerName: '角色', width: 150 },
      statusColumn('status', '状态', ManagerStatus.map),
      timeColumn('lastLoginAt', '最后登录时间', { sortable: true }),
      { field: 'lastLoginIp', headerName: '最后登录IP', width: 150, valueFormatter: (v: unknown) => v ?? '' },
      timeColumn('createdAt', '创建时间', { sortable: true }),
    ];
    if (can(['manager:create', 'manager:delete'])) {
      cols.push(
        actionsColumn((row) => (
          <>
            {can('manager:create') ? (
              <>
                <Button size="small" onClick={() => setDialog({ open: true, manager: row })}>
                  编辑
                </Button>
                <Button size="small" color={row.status === 1 ? 'warning' : 'success'} onClick={() => toggle(row)}>
                  {row.status === 1 ? '禁用' : '启用'}
                </Button>
              </>
            ) : null}
            {can('manager:delete') ? (
              <Button size="small" color="error" onClick={() => drop(row)}>
                删除
              </Button>
            ) : null}
          </>
        )),
      );
    }
    return cols;
  }, [can, confirm, dispatch, remove, save]);

  return (
    <>
      <ListPage
        params={params}
        columns={columns}
        data={data}
        isFetching={isFetching}
        label="管理员列表"
        toolbar={
          <Can code="manager:create">
            <Button
              variant="contained"
              startIcon={<AddIcon />}
              onClick={() => setDialog({ open: true, manager: null })}
            >
              新增管理员
            </Button>
          </Can>
        }
      >
        <TextField label="用户名" size="small" {...params.field('username')} />
        <TextField select label="角色" size="small" sx={{ width: 160 }} {...params.field('roleId')}>
          <MenuItem value="">全部</MenuItem>
          {roles.map((r) => (
            <MenuItem key={r.id} value={String(r.id)}>
              {r.name}
            </MenuItem>
          ))}
        </TextField>
        <TextField select label="状态" size="small" sx={{ width: 120 }} {...params.field('status')}>
          <MenuItem value="">全部</MenuItem>
          {[...ManagerStatus.values].reverse().map((v) => (
            <MenuItem key={v} value={String(v)}>
              {ManagerStatus.label(v)}
            </MenuItem>
          ))}
        </TextField>
      </ListPage>
      {dialogOpened ? (
        <ManagerDialog
          open={dialog.open}
          manager={dialog.manager}
          roles={roles}
          onClose={() => setDialog((d) => ({ ...d, open: false }))}
        />
      ) : null}
      {confirmDialog}
    </>
  );
}
