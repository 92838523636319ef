/** The member list's columns: identity, level and status chips, a balance cell per asset, times, row actions. */
import type { ReactNode } from 'react';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { Column } from '../../components/table/columnTypes';
import { Assets, type Asset } from '../../../domain/assets';
import { MemberLevel, MemberStatus, RealNameStatus } from '../../../domain/members';
import { actionsColumn, statusColumn, timeColumn } from '../../components/columns';
import { MoneyText } from '../../components/MoneyText';
import type { MemberRow } from './memberTypes';

function BalanceCell({ row, asset }: { row: MemberRow; asset: Asset }) {
  const b = row.balances[asset];
  const hasFrozen = !/^0(\.0*)?$/.test(b.frozen);
  return (
    <Stack sx={{ justifyContent: 'center', height: '100%', lineHeight: 1.3, alignItems: 'flex-end' }}>
      <MoneyText value={b.available} asset={asset} />
      {hasFrozen ? (
        <Typography variant="caption" color="text.secondary">
          冻结 <MoneyText value={b.frozen} asset={asset} />
        </Typography>
      ) : null}
    </Stack>
  );
}

/** `actions` renders the buttons of a row (详情, 调整余额, 更多 as the caller may). */
export function memberColumns(actions: (row: MemberRow) => ReactNode): Column<MemberRow>[] {
  return [
    { field: 'id', headerName: 'ID', width: 80, sortable: true },
    { field: 'uid', headerName: 'UID', width: 100 },
    { field: 'phone', headerName: '手机号', width: 125 },
    { field: 'nickname', headerName: '昵称', width: 110 },
    { field: 'inviterUid', headerName: '邀请人', width: 100, valueFormatter: (v: unknown) => v ?? '-' },
    { field: 'zoneName', headerName: '专区', width: 100, valueFormatter: (v: unknown) => v ?? '-' },
    statusColumn('level', '等级', MemberLevel.map, { width: 95, sortable: true }),
    statusColumn('status', '状态', MemberStatus.map, { width: 100 }),
    statusColumn('realNameStatus', '实名', RealNameStatus.map, { width: 90 }),
    ...Assets.map((asset): Column<MemberRow> => ({
      field: `balance${asset}`,
      headerName: asset === 'ENERGY' ? '能量' : asset,
      width: 130,
      align: 'right',
      headerAlign: 'right',
      renderCell: ({ row }) => <BalanceCell row={row} asset={asset} />,
    })),
    timeColumn('createdAt', '注册时间', { sortable: true }),
    timeColumn('lastLoginAt', '最后登录'),
    actionsColumn(actions, { width: 210 }),
  ];
}
