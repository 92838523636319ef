/**
 * 会员管理 / 会员列表 (DOMAIN.md §3 Members): `member/list` with filters, page and sort in the URL;
 * 新增会员; per row 详情 (drawer with balances, latest bills, payment methods), 调整余额 and the
 * status / level / zone / password actions (MemberActionsMenu), each confirmed. Buttons follow the
 * caller's codes; the server checks every call.
 */
import { useMemo, useState } from 'react';
import Button from '@mui/material/Button';
import TextField from '@mui/material/TextField';
import AddIcon from '@mui/icons-material/Add';
import { MemberLevel, MemberStatus } from '../../../domain/members';
import { Can } from '../../components/Can';
import DateRangeFilter from '../../components/DateRangeFilter';
import EnumSelect from '../../components/EnumSelect';
import ListPage from '../../components/ListPage';
import { onDemand, useOpenedOnce } from '../../components/onDemand';
import { usePermissions } from '../../components/useCan';
import { useListParams } from '../../components/useListParams';
import type { ListMembersApiArg } from '../../services/generated/member';
import { useListMembersQuery, useListZonesQuery } from '../../services/members';
import { MemberActionsMenu } from './MemberActionsMenu';
import { memberColumns } from './memberColumns';
import type { FieldAction } from './MemberFieldDialog';
import type { MemberRow } from './memberTypes';
import { NewPasswordDialog } from './NewPasswordDialog';

// The dialogs and the detail drawer load when first opened.
const AdjustDialog = onDemand(() => import('./AdjustDialog'));
const MemberCreateDialog = onDemand(() => import('./MemberCreateDialog'));
const MemberDrawer = onDemand(() => import('./MemberDrawer'));
const MemberFieldDialog = onDemand(() => import('./MemberFieldDialog'));

const FILTERS = { keyword: '', inviterUid: '', zoneId: '', level: '', status: '', start: '', end: '' };
const NUMERIC = ['zoneId', 'level', 'status'] as const;
/** Every zone fits one page (there are tens). */
const ALL_ZONES = { size: 100 };

export default function MemberListPage() {
  const params = useListParams({ filters: FILTERS, numeric: NUMERIC });
  const { data, isFetching, refetch } = useListMembersQuery(params.queryArgs as ListMembersApiArg);
  const { can } = usePermissions();
  const { data: zoneData } = useListZonesQuery(ALL_ZONES, { skip: !can('zone:view') });
  const zones = useMemo(() => zoneData?.list ?? [], [zoneData]);
  const zoneOptions = useMemo(() => zones.map((z) => ({ value: z.id, label: z.name })), [zones]);
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

  const columns = useMemo(
    () =>
      memberColumns((row) => (
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
      )),
    [can],
  );

  return (
    <>
      <ListPage
        params={params}
        columns={columns}
        data={data}
        isFetching={isFetching}
        onRefresh={refetch}
        label="会员列表"
        // Wider than most screens: render every column (a page is at most 100 rows) so the row actions
        // at the end exist before they are scrolled to.
        rowHeight={56}
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
          <EnumSelect filter label="专区" options={zoneOptions} sx={{ width: 140 }} {...params.field('zoneId')} />
        ) : null}
        <EnumSelect filter label="等级" options={MemberLevel} {...params.field('level')} />
        <EnumSelect filter label="状态" options={MemberStatus} {...params.field('status')} />
        <DateRangeFilter params={params} startLabel="注册开始" endLabel="注册结束" />
      </ListPage>
      <MemberActionsMenu
        menu={menu}
        onClose={() => setMenu(null)}
        onEdit={(member, action) => setEditing({ member, action })}
        onPassword={setNewPassword}
      />
      {createOpened ? <MemberCreateDialog open={creating} zones={zones} onClose={() => setCreating(false)} /> : null}
      {adjustOpened ? <AdjustDialog member={adjusting} onClose={() => setAdjusting(null)} /> : null}
      {editOpened ? <MemberFieldDialog target={editing} zones={zones} onClose={() => setEditing(null)} /> : null}
      {detailOpened ? <MemberDrawer member={detail} onClose={() => setDetailId(null)} /> : null}
      <NewPasswordDialog shown={newPassword} onClose={() => setNewPassword(null)} />
    </>
  );
}
