/**
 * 会员管理 / 专区管理 (DOMAIN.md §3 Members): `zone/list` with filters in the URL; create, edit,
 * enable / disable and delete (refused by the server while the zone has members), each confirmed.
 */
import { useMemo, useState } from 'react';
import Button from '@mui/material/Button';
import TextField from '@mui/material/TextField';
import AddIcon from '@mui/icons-material/Add';
import type { Column } from '../../components/table/columnTypes';
import { ZoneStatus } from '../../../domain/members';
import { Can } from '../../components/Can';
import { actionsColumn, statusColumn, timeColumn } from '../../components/columns';
import ListPage from '../../components/ListPage';
import { usePermissions } from '../../components/useCan';
import useAction from '../../components/useAction';
import { useListParams } from '../../components/useListParams';
import EnumSelect from '../../components/EnumSelect';
import type { ListZonesApiArg } from '../../services/generated/zone';
import { useListZonesQuery, useZoneOptMutation } from '../../services/members';
import ZoneDialog, { type ZoneRow } from './ZoneDialog';

const FILTERS = { name: '', status: '' };
const NUMERIC = ['status'] as const;

export default function ZonesPage() {
  const params = useListParams({ filters: FILTERS, numeric: NUMERIC });
  const { data, isFetching, refetch } = useListZonesQuery(params.queryArgs as ListZonesApiArg);
  const { can } = usePermissions();
  const [run, actionDialog] = useAction();
  const [opt] = useZoneOptMutation();
  const [dialog, setDialog] = useState<{ open: boolean; zone: ZoneRow | null }>({ open: false, zone: null });

  const columns = useMemo<Column<ZoneRow>[]>(() => {
    const act = (row: ZoneRow, action: 'enable' | 'disable' | 'delete') => {
      const verb = action === 'enable' ? '启用' : action === 'disable' ? '停用' : '删除';
      const note = action === 'disable' ? '停用后不能再分配会员到该专区' : '';
      return run({
        confirm: { content: `确认${verb}专区 ${row.name}？${note}`, danger: action !== 'enable' },
        call: () => opt({ body: { action, id: row.id } }).unwrap(),
        success: `${verb}成功`,
      });
    };
    const cols: Column<ZoneRow>[] = [
      { field: 'id', headerName: 'ID', width: 80, sortable: true },
      { field: 'name', headerName: '专区名称', width: 160 },
      {
        field: 'leaderUid',
        headerName: '负责人',
        width: 170,
        valueFormatter: (_v: unknown, row: ZoneRow) =>
          row.leaderUid ? `${row.leaderUid}${row.leaderNickname ? `（${row.leaderNickname}）` : ''}` : '-',
      },
      { field: 'memberCount', headerName: '会员数', width: 100, sortable: true, align: 'right', headerAlign: 'right' },
      statusColumn('status', '状态', ZoneStatus.map),
      { field: 'sort', headerName: '排序', width: 80, sortable: true },
      timeColumn('createdAt', '创建时间', { sortable: true }),
    ];
    if (can('zone:opt')) {
      cols.push(
        actionsColumn((row) => (
          <>
            <Button size="small" onClick={() => setDialog({ open: true, zone: row })}>
              编辑
            </Button>
            <Button
              size="small"
              color={row.status === ZoneStatus.is.enabled ? 'warning' : 'success'}
              onClick={() => act(row, row.status === ZoneStatus.is.enabled ? 'disable' : 'enable')}
            >
              {row.status === ZoneStatus.is.enabled ? '停用' : '启用'}
            </Button>
            <Button size="small" color="error" onClick={() => act(row, 'delete')}>
              删除
            </Button>
          </>
        )),
      );
    }
    return cols;
  }, [can, run, opt]);

  return (
    <>
      <ListPage
        params={params}
        columns={columns}
        data={data}
        isFetching={isFetching}
        onRefresh={refetch}
        label="专区列表"
        toolbar={
          <Can code="zone:opt">
            <Button variant="contained" startIcon={<AddIcon />} onClick={() => setDialog({ open: true, zone: null })}>
              新增专区
            </Button>
          </Can>
        }
      >
        <TextField label="专区名称" size="small" {...params.field('name')} />
        <EnumSelect filter label="状态" {...params.field('status')} options={ZoneStatus} />
      </ListPage>
      <ZoneDialog open={dialog.open} zone={dialog.zone} onClose={() => setDialog((d) => ({ ...d, open: false }))} />
      {actionDialog}
    </>
  );
}
