/**
 * 会员管理 / 会员列表 (DOMAIN.md §3 Members): `member/list` with filters, page and sort in the URL;
 * 新增会员; per row 详情 (drawer with balances, latest bills, payment methods), 调整余额 and the
 * status / level / zone / password actions, each confirmed. Buttons follow the caller's codes; the
 * server checks every call.
 */
import { useMemo, useState } from 'react';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import type { GridColDef } from '@mui/x-data-grid';
import { Assets, type Asset } from '../../../domain/assets';
import { MemberLevel, MemberStatus, RealNameStatus } from '../../../domain/members';
import { Can } from '../../components/Can';
import { actionsColumn, statusColumn, timeColumn } from '../../components/columns';
import DateRangeFilter from '../../components/DateRangeFilter';
import ListPage from '../../components/ListPage';
import { MoneyText } from '../../components/MoneyText';
import { onDemand, useOpenedOnce } from '../../components/onDemand';
import { usePermissions } from '../../components/useCan';
import useConfirm from '../../components/useConfirm';
import { useListParams } from '../../components/useListParams';
import type { ListMembersApiArg } from '../../services/generated/api';
import { useListMembersQuery, useListZonesQuery, useMemberOptMutation } from '../../services/members';
import { useAppDispatch } from '../../store/hooks';
import { toastShown } from '../../store/toastSlice';
import type { FieldAction } from './MemberFieldDialog';
import type { MemberRow } from './memberTypes';

// The dialogs and the detail drawer load when first opened.
const AdjustDialog = onDemand(() => import('./AdjustDialog'));
const MemberCreateDialog = onDemand(() => import('./MemberCreateDialog'));
const MemberDrawer = onDemand(() => import('./MemberDrawer'));
const MemberFieldDialog = onDemand(() => import('./MemberFieldDialog'));

const FILTERS = { keyword: '', inviterUid: '', zoneId: '', level: '', status: '', start: '', end: '' };
const NUMERIC = ['zoneId', 'level', 'status'] as const;
/** Every zone fits one page (there are tens). */
const ALL_ZONES = { size: 100 };

type StatusAction = 'freeze' | 'unfreeze' | 'banWithdraw';
const STATUS_ACTIONS: Record<StatusAction, { label: string; from: number[]; danger?: boolean }> = {
  freeze: { label: '冻结', from: [1, 3], danger: true },
  unfreeze: { label: '解冻', from: [2, 3] },
  banWithdraw: { label: '禁止提现', from: [1], danger: true },
};

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

export default function MemberListPage() {
  const params = useListParams({ filters: FILTERS, numeric: NUMERIC });
  const { data, isFetching } = useListMembersQuery(params.queryArgs as ListMembersApiArg);
  const { can } = usePermissions();
  const { data: zoneData } = useListZonesQuery(ALL_ZONES, { skip: !can('zone:view') });
  const zones = useMemo(() => zoneData?.list ?? [], [zoneData]);
  const [confirm, confirmDialog] = useConfirm();
  const dispatch = useAppDispatch();
  const [opt] = useMemberOptMutation();
  const [creating, setCreating] = useState(false);
  const [adjusting, setAdjusting] = useState<MemberRow | null>(null);
  const [editing, setEditing] = useState<{ member: MemberRow; action: FieldAction } | null>(null);
  const [detailId, setDetailId] = useState<number | null>(null);
  const [menu, setMenu] = useState<{ anchor: HTMLElement; row: MemberRow } | null>(null);
  const [newPassword, setNewPassword] = useState<{ uid: string; password: string } | null>(null);
  const createOpened = useOpenedOnce(creating);
  const adjustOpened = useOpenedOnce(adjusting !== null);
  const editOpened = useOpenedOnce(editing !== null);
  const detailOpened = useOpenedOnce(detailId !== null);
  // The drawer shows the row as the list has it now, so an adjustment appears there at once.
  const detail = data?.list.find((m) => m.id === detailId) ?? null;

  const columns = useMemo<GridColDef<MemberRow>[]>(() => {
    const cols: GridColDef<MemberRow>[] = [
      { field: 'id', headerName: 'ID', width: 80, sortable: true },
      { field: 'uid', headerName: 'UID', width: 100 },
      { field: 'phone', headerName: '手机号', width: 125 },
      { field: 'nickname', headerName: '昵称', width: 110 },
      { field: 'inviterUid', headerName: '邀请人', width: 100, valueFormatter: (v: unknown) => v ?? '-' },
      { field: 'zoneName', headerName: '专区', width: 100, valueFormatter: (v: unknown) => v ?? '-' },
      statusColumn('level', '等级', MemberLevel.map, { width: 95, sortable: true }),
      statusColumn('status', '状态', MemberStatus.map, { width: 100 }),
      statusColumn('realNameStatus', '实名', RealNameStatus.map, { width: 90 }),
      ...Assets.map((asset): GridColDef<MemberRow> => ({
        field: `balance${asset}`,
        headerName: asset === 'ENERGY' ? '能量' : asset,
        width: 130,
        align: 'right',
        headerAlign: 'right',
        renderCell: ({ row }) => <BalanceCell row={row} asset={asset} />,
      })),
      timeColumn('createdAt', '注册时间', { sortable: true }),
      timeColumn('lastLoginAt', '最后登录'),
      actionsColumn(
        (row) => (
          <>
            <Button size="small" onClick={() => setDetailId(row.id)}>
              详情
            </Button>
            {can('member:adjust') ? (
              <Button size="small" onClick={() => setAdjusting(row)}>
                调整余额
              </Button>
            ) : null}
            {can('member:opt') ? (
              <Button size="small" aria-haspopup="menu" onClick={(e) => setMenu({ anchor: e.currentTarget, row })}>
                更多
              </Button>
            ) : null}
          </>
        ),
        { width: 210 },
      ),
    ];
    return cols;
  }, [can]);

  const changeStatus = async (row: MemberRow, action: StatusAction) => {
    const a = STATUS_ACTIONS[action];
    const note = action === 'freeze' ? '冻结后该会员不能登录' : action === 'banWithdraw' ? '禁止后该会员不能提现' : '';
    if (!(await confirm({ content: `确认${a.label}会员 ${row.uid}（${row.nickname}）？${note}`, danger: a.danger })))
      return;
    try {
      await opt({ body: { id: row.id, action } }).unwrap();
      dispatch(toastShown(`${a.label}成功`, 'success'));
    } catch {
      // The refusal is already a toast (store listener).
    }
  };

  const resetPassword = async (row: MemberRow) => {
    if (
      !(await confirm({
        content: `确认重置会员 ${row.uid}（${row.nickname}）的登录密码？系统将生成新密码，原密码立即失效。`,
        danger: true,
      }))
    )
      return;
    try {
      const r = await opt({ body: { id: row.id, action: 'resetPassword' } }).unwrap();
      if (r.password) setNewPassword({ uid: row.uid, password: r.password });
      dispatch(toastShown('重置成功', 'success'));
    } catch {
      // Shown as a toast by the store listener.
    }
  };

  const menuRow = menu?.row;
  const pick = (fn: (row: MemberRow) => void) => () => {
    const row = menu!.row;
    setMenu(null);
    fn(row);
  };

  return (
    <>
      <ListPage
        params={params}
        columns={columns}
        data={data}
        isFetching={isFetching}
        label="会员列表"
        // Wider than most screens: render every column (a page is at most 100 rows) so the row actions
        // at the end exist before they are scrolled to.
        gridProps={{ rowHeight: 56, disableVirtualization: true }}
        toolbar={
          <Can code="member:create">
            <Button variant="contained" startIcon={<AddIcon />} onClick={() => setCreating(true)}>
              新增会员
            </Button>
          </Can>
        }
      >
        <TextField
          label="关键字"
          placeholder="UID/手机号/昵称"
          size="small"
          sx={{ width: 180 }}
          {...params.field('keyword')}
        />
        <TextField label="邀请人UID" size="small" sx={{ width: 130 }} {...params.field('inviterUid')} />
        {can('zone:view') ? (
          <TextField select label="专区" size="small" sx={{ width: 140 }} {...params.field('zoneId')}>
            <MenuItem value="">全部</MenuItem>
            {zones.map((z) => (
              <MenuItem key={z.id} value={String(z.id)}>
                {z.name}
              </MenuItem>
            ))}
          </TextField>
        ) : null}
        <TextField select label="等级" size="small" sx={{ width: 120 }} {...params.field('level')}>
          <MenuItem value="">全部</MenuItem>
          {MemberLevel.values.map((v) => (
            <MenuItem key={v} value={String(v)}>
              {MemberLevel.label(v)}
            </MenuItem>
          ))}
        </TextField>
        <TextField select label="状态" size="small" sx={{ width: 120 }} {...params.field('status')}>
          <MenuItem value="">全部</MenuItem>
          {MemberStatus.values.map((v) => (
            <MenuItem key={v} value={String(v)}>
              {MemberStatus.label(v)}
            </MenuItem>
          ))}
        </TextField>
        <DateRangeFilter params={params} startLabel="注册开始" endLabel="注册结束" />
      </ListPage>
      <Menu anchorEl={menu?.anchor} open={Boolean(menu)} onClose={() => setMenu(null)}>
        {menuRow
          ? (Object.keys(STATUS_ACTIONS) as StatusAction[])
              .filter((action) => STATUS_ACTIONS[action].from.includes(menuRow.status))
              .map((action) => (
                <MenuItem key={action} onClick={pick((row) => changeStatus(row, action))}>
                  {STATUS_ACTIONS[action].label}
                </MenuItem>
              ))
          : null}
        <MenuItem onClick={pick((member) => setEditing({ member, action: 'setLevel' }))}>修改等级</MenuItem>
        {can('zone:view') ? (
          <MenuItem onClick={pick((member) => setEditing({ member, action: 'setZone' }))}>修改专区</MenuItem>
        ) : null}
        <MenuItem onClick={pick(resetPassword)}>重置密码</MenuItem>
      </Menu>
      {createOpened ? <MemberCreateDialog open={creating} zones={zones} onClose={() => setCreating(false)} /> : null}
      {adjustOpened ? <AdjustDialog member={adjusting} onClose={() => setAdjusting(null)} /> : null}
      {editOpened ? <MemberFieldDialog target={editing} zones={zones} onClose={() => setEditing(null)} /> : null}
      {detailOpened ? <MemberDrawer member={detail} onClose={() => setDetailId(null)} /> : null}
      <Dialog open={newPassword !== null} onClose={() => setNewPassword(null)} aria-labelledby="new-password-title">
        <DialogTitle id="new-password-title">新密码</DialogTitle>
        <DialogContent>
          <Typography>会员 {newPassword?.uid} 的新登录密码（仅显示一次，请转告会员）：</Typography>
          <Typography variant="h6" sx={{ fontFamily: 'monospace', mt: 1 }} aria-label="新登录密码">
            {newPassword?.password}
          </Typography>
        </DialogContent>
        <DialogActions>
          <Button
            onClick={() => {
              void navigator.clipboard?.writeText(newPassword?.password ?? '');
              dispatch(toastShown('已复制', 'success'));
            }}
          >
            复制
          </Button>
          <Button variant="contained" onClick={() => setNewPassword(null)}>
            关闭
          </Button>
        </DialogActions>
      </Dialog>
      {confirmDialog}
    </>
  );
}
