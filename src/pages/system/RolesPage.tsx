/**
 * 系统管理 / 角色管理 (DOMAIN.md §3 System): roles with create/edit, 分配权限 (a checkbox tree) and
 * delete. The super role holds everything: it is never rebound or deleted, so it has no such buttons.
 * Deleting a role still held by a manager is refused by the server (a toast).
 */
import { useMemo, useState } from 'react';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import TextField from '@mui/material/TextField';
import AddIcon from '@mui/icons-material/Add';
import type { Column } from '../../components/table/columnTypes';
import { Can } from '../../components/Can';
import { actionsColumn, timeColumn } from '../../components/columns';
import ListPage from '../../components/ListPage';
import { usePermissions } from '../../components/useCan';
import useAction from '../../components/useAction';
import { useListParams } from '../../components/useListParams';
import { useDeleteRoleMutation, useListRolesQuery } from '../../services/system';
import type { ListRolesApiArg } from '../../services/generated/system';
import BindDialog from './BindDialog';
import RoleDialog, { type RoleRow } from './RoleDialog';

const FILTERS = { name: '' };

export default function RolesPage() {
  const params = useListParams({ filters: FILTERS });
  const { data, isFetching, refetch } = useListRolesQuery(params.queryArgs as ListRolesApiArg);
  const { can } = usePermissions();
  const [run, actionDialog] = useAction();
  const [remove] = useDeleteRoleMutation();
  const [edit, setEdit] = useState<{ open: boolean; role: RoleRow | null }>({ open: false, role: null });
  const [binding, setBinding] = useState<RoleRow | null>(null);

  const columns = useMemo<Column<RoleRow>[]>(() => {
    // A refusal (e.g. still held by a manager) is a toast from the store.
    const drop = (row: RoleRow) =>
      run({
        confirm: { content: `确认删除角色 ${row.name}？`, danger: true },
        call: () => remove({ roleId: row.id }).unwrap(),
        success: '删除成功',
      });
    const cols: Column<RoleRow>[] = [
      { field: 'id', headerName: 'ID', width: 80, sortable: true },
      {
        field: 'name',
        headerName: '角色名称',
        width: 200,
        sortable: true,
        renderCell: ({ row }) => (
          <>
            {row.name}
            {row.isSuper ? <Chip size="small" color="primary" label="全部权限" sx={{ ml: 1 }} /> : null}
          </>
        ),
      },
      { field: 'remark', headerName: '备注', flex: 1, minWidth: 160 },
      { field: 'managerCount', headerName: '管理员数', width: 100 },
      {
        field: 'requireTotp',
        headerName: '身份验证器',
        width: 110,
        valueFormatter: (v: boolean) => (v ? '必须绑定' : '-'),
      },
      timeColumn('createdAt', '创建时间', { sortable: true }),
    ];
    if (can(['role:create', 'role:bind', 'role:delete'])) {
      cols.push(
        actionsColumn(
          (row) => (
            <>
              {can('role:create') ? (
                <Button size="small" onClick={() => setEdit({ open: true, role: row })}>
                  编辑
                </Button>
              ) : null}
              {can('role:bind') && !row.isSuper ? (
                <Button size="small" onClick={() => setBinding(row)}>
                  分配权限
                </Button>
              ) : null}
              {can('role:delete') && !row.isSuper ? (
                <Button size="small" color="error" onClick={() => drop(row)}>
                  删除
                </Button>
              ) : null}
            </>
          ),
          { width: 240 },
        ),
      );
    }
    return cols;
  }, [can, run, remove]);

  return (
    <>
      <ListPage
        params={params}
        columns={columns}
        data={data}
        isFetching={isFetching}
        onRefresh={refetch}
        label="角色列表"
        toolbar={
          <Can code="role:create">
            <Button variant="contained" startIcon={<AddIcon />} onClick={() => setEdit({ open: true, role: null })}>
              新增角色
            </Button>
          </Can>
        }
      >
        <TextField label="角色名称" size="small" {...params.field('name')} />
      </ListPage>
      <RoleDialog open={edit.open} role={edit.role} onClose={() => setEdit((e) => ({ ...e, open: false }))} />
      <BindDialog role={binding} onClose={() => setBinding(null)} />
      {actionDialog}
    </>
  );
}
