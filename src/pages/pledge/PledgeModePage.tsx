/**
 * 质押设置: the pledge modes (rate shown as a percentage, days, min/max, status, sort, how many records
 * are in use), 新增 and 编辑 in a dialog, 启用/停用 through the same update after a confirmation. A mode
 * in use can be disabled (its records keep their terms) but never deleted.
 */
import { useMemo, useState } from 'react';
import Button from '@mui/material/Button';
import type { Column } from '../../components/table/columnTypes';
import { ratePercent } from '../../../domain/economy';
import { PledgeModeStatus } from '../../../domain/pledge';
import { actionsColumn, actionsWidth, moneyColumn, statusColumn, timeColumn } from '../../components/columns';
import { ListPage } from '../../components/ListPage';
import useAction from '../../components/useAction';
import { useCan } from '../../components/useCan';
import { useListParams } from '../../components/useListParams';
import { useListPledgeModesQuery, useSavePledgeModeMutation } from '../../services/pledge';
import PledgeModeDialog, { type PledgeMode } from './PledgeModeDialog';

export default function PledgeModePage() {
  const params = useListParams();
  const { data, isFetching, refetch } = useListPledgeModesQuery();
  const canEdit = useCan('pledgeMode:update');
  const [save] = useSavePledgeModeMutation();
  const [run, actionDialog] = useAction();
  const [editing, setEditing] = useState<{ mode: PledgeMode | null } | null>(null);

  const toggle = (m: PledgeMode) => {
    const next = m.status === 1 ? 0 : 1;
    return run({
      confirm:
        next === 0
          ? {
              content: `确认停用质押模式「${m.name}」？停用后会员不能再用它质押，已有的 ${m.inUse} 笔质押照常释放。`,
              danger: true,
            }
          : { content: `确认启用质押模式「${m.name}」？` },
      call: () =>
        save({
          body: {
            id: m.id,
            name: m.name,
            days: m.days,
            rate: m.rate,
            minAmount: m.minAmount,
            maxAmount: m.maxAmount,
            sort: m.sort,
            status: next,
          },
        }).unwrap(),
      success: next === 0 ? '已停用' : '已启用',
    });
  };

  const columns = useMemo<Column<PledgeMode>[]>(
    () => [
      { field: 'id', headerName: 'ID', width: 70 },
      { field: 'name', headerName: '模式名称', width: 140 },
      { field: 'days', headerName: '天数', width: 80, align: 'right', headerAlign: 'right' },
      {
        field: 'rate',
        headerName: '日收益率',
        width: 100,
        align: 'right',
        headerAlign: 'right',
        valueFormatter: (value: string) => ratePercent(value),
      },
      moneyColumn('minAmount', '最低金额', 'LZ', { width: 130 }),
      moneyColumn('maxAmount', '最高金额', 'LZ', { width: 140 }),
      statusColumn('status', '状态', PledgeModeStatus.map, { width: 90 }),
      { field: 'sort', headerName: '排序', width: 70, align: 'right', headerAlign: 'right' },
      { field: 'inUse', headerName: '使用中', width: 80, align: 'right', headerAlign: 'right' },
      timeColumn('updatedAt', '更新时间'),
      actionsColumn<PledgeMode>(
        (row) =>
          canEdit ? (
            <>
              <Button size="small" onClick={() => setEditing({ mode: row })}>
                编辑
              </Button>
              <Button size="small" color={row.status === 1 ? 'error' : 'primary'} onClick={() => toggle(row)}>
                {row.status === 1 ? '停用' : '启用'}
              </Button>
            </>
          ) : null,
        { width: actionsWidth(2) },
      ),
    ],
    // toggle only closes over stable hooks and the row.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [canEdit],
  );

  const list = data ? { list: data.list, total: data.list.length } : undefined;
  return (
    <>
      <ListPage
        params={params}
        columns={columns}
        data={list}
        isFetching={isFetching}
        onRefresh={refetch}
        label="质押模式"
        toolbar={
          canEdit ? (
            <Button variant="contained" onClick={() => setEditing({ mode: null })}>
              新增
            </Button>
          ) : null
        }
      />
      <PledgeModeDialog open={editing !== null} mode={editing?.mode ?? null} onClose={() => setEditing(null)} />
      {actionDialog}
    </>
  );
}
