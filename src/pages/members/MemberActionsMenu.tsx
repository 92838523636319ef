/**
 * The 更多 menu of a member row: freeze / unfreeze / ban withdrawals (as the status allows), level and
 * zone changes (dialogs of the page), and the password reset, each confirmed first.
 */
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import useAction from '../../components/useAction';
import { usePermissions } from '../../components/useCan';
import { useMemberOptMutation } from '../../services/members';
import { MemberStatusActions, type MemberStatusAction } from '../../../domain/members';
import type { FieldAction } from './MemberFieldDialog';
import type { MemberRow } from './memberTypes';

type StatusAction = MemberStatusAction;
/** How each status change is confirmed (which states offer it: MemberStatusActions of domain/). */
const STATUS_ACTIONS: Record<StatusAction, { label: string; danger?: boolean; note?: string }> = {
  freeze: { label: MemberStatusActions.freeze.label, danger: true, note: '冻结后该会员不能登录' },
  unfreeze: { label: MemberStatusActions.unfreeze.label },
  banWithdraw: { label: MemberStatusActions.banWithdraw.label, danger: true, note: '禁止后该会员不能提现' },
};

export interface MemberActionsMenuProps {
  menu: { anchor: HTMLElement; row: MemberRow } | null;
  onClose: () => void;
  onEdit: (member: MemberRow, action: FieldAction) => void;
  /** The new password of a reset, shown once by the page. */
  onPassword: (shown: { uid: string; password: string }) => void;
}

export function MemberActionsMenu({ menu, onClose, onEdit, onPassword }: MemberActionsMenuProps) {
  const { can } = usePermissions();
  const [run, actionDialog] = useAction();
  const [opt] = useMemberOptMutation();

  const changeStatus = (row: MemberRow, action: StatusAction) => {
    const a = STATUS_ACTIONS[action];
    return run({
      confirm: { content: `确认${a.label}会员 ${row.uid}（${row.nickname}）？${a.note ?? ''}`, danger: a.danger },
      call: () => opt({ body: { id: row.id, action } }).unwrap(),
      success: `${a.label}成功`,
    });
  };

  const resetPassword = (row: MemberRow) =>
    run({
      confirm: {
        content: `确认重置会员 ${row.uid}（${row.nickname}）的登录密码？系统将生成新密码，原密码立即失效。`,
        danger: true,
      },
      call: () => opt({ body: { id: row.id, action: 'resetPassword' } }).unwrap(),
      success: (r) => {
        if (r.password) onPassword({ uid: row.uid, password: r.password });
        return '重置成功';
      },
    });

  const row = menu?.row;
  const pick = (fn: (row: MemberRow) => unknown) => () => {
    const picked = menu!.row;
    onClose();
    void fn(picked);
  };

  return (
    <>
      <Menu anchorEl={menu?.anchor} open={Boolean(menu)} onClose={onClose}>
        {row
          ? MemberStatusActions.actionsIn(row.status).map((action) => (
              <MenuItem key={action} onClick={pick((r) => changeStatus(r, action))}>
                {STATUS_ACTIONS[action].label}
              </MenuItem>
            ))
          : null}
        <MenuItem onClick={pick((member) => onEdit(member, 'setLevel'))}>修改等级</MenuItem>
        {can('zone:view') ? <MenuItem onClick={pick((member) => onEdit(member, 'setZone'))}>修改专区</MenuItem> : null}
        <MenuItem onClick={pick(resetPassword)}>重置密码</MenuItem>
      </Menu>
      {actionDialog}
    </>
  );
}
