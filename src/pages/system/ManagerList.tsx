/**
 * The 管理员 tab: `user/list` with filters in the URL, create/edit, enable/disable (an edit with the
 * row's version) and delete. Buttons follow the caller's codes; the server still refuses what the
 * rules forbid (self-delete, the last super manager, a stale row), shown as the baseQuery's toast.
 *
 * 重置验证器 (a lost phone) is the super manager's only. The page knows the caller's role only from
 * his own row: the button is hidden when that row is listed and not super; when it is not on the
 * page (filters, paging) the button shows and the server refuses anyone else (a toast).
 */
import { useMemo, useState } from 'react';
import Button from '@mui/material/Button';
import TextField from '@mui/material/TextField';
import AddIcon from '@mui/icons-material/Add';
import type { Column } from '../../components/table/columnTypes';
import { ManagerStatus } from '../../../domain/managers';
import { Can } from '../../components/Can';
import { actionsColumn, statusColumn, timeColumn } from '../../components/columns';
import ListPage from '../../components/ListPage';
import { StatusChip, type StatusMap } from '../../components/StatusChip';
import { usePermissions } from '../../components/useCan';
import useAction from '../../components/useAction';
import { useListParams } from '../../components/useListParams';
import {
  useDeleteManagerMutation,
  useListManagersQuery,
  useResetTotpMutation,
  useSaveManagerMutation,
} from '../../services/system';
import type { ListManagersApiArg } from '../../services/generated/system';
import { onDemand, useOpenedOnce } from '../../components/onDemand';
import EnumSelect from '../../components/EnumSelect';
import { useAppSelector } from '../../store/hooks';
import type { ManagerRow } from './ManagerDialog';

// The create / edit dialog loads when first opened.
const ManagerDialog = onDemand(() => import('./ManagerDialog'));

const FILTERS = { username: '', roleId: '', status: '' };
const NUMERIC = ['roleId', 'status'] as const;
/** 启用 first. */
const STATUS_OPTIONS = [...ManagerStatus.values].reverse().map((v) => ({ value: v, label: ManagerStatus.label(v) }));
/** The 身份验证器 column: whether the manager has bound an authenticator (`totpOn`). */
const TOTP_MAP: StatusMap<'on' | 'off'> = {
  on: { label: '已绑定', color: 'success' },
  off: { label: '未绑定', color: 'default' },
};

export default function ManagerList() {
  const params = useListParams({ filters: FILTERS, numeric: NUMERIC });
  const { data, isFetching, refetch } = useListManagersQuery(params.queryArgs as ListManagersApiArg);
  const roles = useMemo(() => data?.roles ?? [], [data]);
  const { can } = usePermissions();
  const [run, actionDialog] = useAction();
  const [save] = useSaveManagerMutation();
  const [remove] = useDeleteManagerMutation();
  const [resetTotp] = useResetTotpMutation();
  const me = useAppSelector((s) => s.auth.username);
  // Whether the caller is the super manager, when his own row is on the page (else unknown).
  const meSuper = data?.list.find((m) => m.username === me)?.isSuper;
  const mayResetTotp = meSuper !== false;
  const [dialog, setDialog] = useState<{ open: boolean; manager: ManagerRow | null }>({ open: false, manager: null });
  const dialogOpened = useOpenedOnce(dialog.open);

  const columns = useMemo<Column<ManagerRow>[]>(() => {
    const toggle = (row: ManagerRow) => {
      const next = row.status === ManagerStatus.is.enabled ? ManagerStatus.is.disabled : ManagerStatus.is.enabled;
      const verb = ManagerStatus.label(next);
      const note = next === 0 ? '禁用后其登录立即失效。' : '';
      return run({
        confirm: { content: `确认${verb}管理员 ${row.username}？${note}`, danger: next === 0 },
        call: () =>
          save({
            body: { id: row.id, version: row.version, username: row.username, roleId: row.roleId, status: next },
          }).unwrap(),
        success: `已${verb}`,
      });
    };
    const drop = (row: ManagerRow) =>
      run({
        confirm: { content: `确认删除管理员 ${row.username}？`, danger: true },
        call: () => remove({ body: { id: row.id } }).unwrap(),
        success: '删除成功',
      });
    const resetAuthenticator = (row: ManagerRow) =>
      run({
        confirm: {
          content: `确认重置 ${row.username} 的身份验证器？重置后其登录将只需密码，且当前登录会被强制退出。`,
          danger: true,
        },
        call: () => resetTotp({ body: { id: row.id } }).unwrap(),
        success: '重置成功',
      });
    const cols: Column<ManagerRow>[] = [
      { field: 'id', headerName: 'ID', width: 80, sortable: true },
      { field: 'username', headerName: '用户名', width: 150 },
      { field: 'roleName', headerName: '角色', width: 150 },
      statusColumn('status', '状态', ManagerStatus.map),
      {
        field: 'totpOn',
        headerName: '身份验证器',
        width: 110,
        renderCell: ({ row }) => <StatusChip value={row.totpOn ? 'on' : 'off'} map={TOTP_MAP} />,
      },
      timeColumn('lastLoginAt', '最后登录时间', { sortable: true }),
      { field: 'lastLoginIp', headerName: '最后登录IP', width: 150, valueFormatter: (v: unknown) => v ?? '' },
      timeColumn('createdAt', '创建时间', { sortable: true }),
    ];
    if (can(['manager:create', 'manager:delete'])) {
      cols.push(
        actionsColumn(
          (row) => (
            <>
              {can('manager:create') ? (
                <>
                  <Button size="small" onClick={() => setDialog({ open: true, manager: row })}>
                    编辑
                  </Button>
                  <Button
                    size="small"
                    color={row.status === ManagerStatus.is.enabled ? 'warning' : 'success'}
                    onClick={() => toggle(row)}
                  >
                    {row.status === ManagerStatus.is.enabled ? '禁用' : '启用'}
                  </Button>
                  {row.totpOn && mayResetTotp ? (
                    <Button size="small" color="warning" onClick={() => resetAuthenticator(row)}>
                      重置验证器
                    </Button>
                  ) : null}
                </>
              ) : null}
              {can('manager:delete') ? (
                <Button size="small" color="error" onClick={() => drop(row)}>
                  删除
                </Button>
              ) : null}
            </>
          ),
          { width: 300 },
        ),
      );
    }
    return cols;
  }, [can, run, remove, save, resetTotp, mayResetTotp]);

  return (
    <>
      <ListPage
        params={params}
        columns={columns}
        data={data}
        isFetching={isFetching}
        onRefresh={refetch}
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
        <EnumSelect
          filter
          label="角色"
          options={roles.map((r) => ({ value: r.id, label: r.name }))}
          sx={{ width: 160 }}
          {...params.field('roleId')}
        />
        <EnumSelect filter label="状态" options={STATUS_OPTIONS} {...params.field('status')} />
      </ListPage>
      {dialogOpened ? (
        <ManagerDialog
          open={dialog.open}
          manager={dialog.manager}
          roles={roles}
          onClose={() => setDialog((d) => ({ ...d, open: false }))}
        />
      ) : null}
      {actionDialog}
    </>
  );
}
