/**
 * 分配权限: the whole permission tree as checkboxes, checked as the role holds it now
 * (`user/permissions?roleId`), saved with `role/bind`. See permissionChecks.ts for the rules.
 */
import { useState } from 'react';
import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import CircularProgress from '@mui/material/CircularProgress';
import FormControlLabel from '@mui/material/FormControlLabel';
import type { PermissionTreeNode } from '../../services/generated/system';
import FormDialog from '../../components/FormDialog';
import { useBindRoleMutation, useGetPermissionsQuery } from '../../services/system';
import { ACCESS_ACTIONS, MONEY_ACTIONS, MONEY_PAGES } from '../../../domain/grants';
import { initialChecked, permissionIdsOf, stateOf, toggle } from './permissionChecks';

export interface BindDialogProps {
  /** The role to bind; null = closed. */
  role: { id: number; name: string } | null;
  onClose: () => void;
}

/** What an action's tick grants: 操作 for any, 资金 or 授权 where it moves money or changes who may act. */
function GrantTag({ code }: { code: string }) {
  const money = MONEY_ACTIONS.has(code) || MONEY_PAGES.has(code);
  const access = ACCESS_ACTIONS.has(code);
  return (
    <Box
      component="span"
      sx={{ fontSize: 12, color: money || access ? 'error.main' : 'text.secondary', whiteSpace: 'nowrap' }}
    >
      {MONEY_PAGES.has(code) ? '页面 · 资金' : money ? '操作 · 资金' : access ? '操作 · 授权' : '操作'}
    </Box>
  );
}

function TreeNodes({
  nodes,
  checked,
  onToggle,
  depth,
}: {
  nodes: PermissionTreeNode[];
  checked: ReadonlySet<number>;
  onToggle: (id: number, on: boolean) => void;
  depth: number;
}) {
  return (
    <Box
      component="ul"
      role={depth === 0 ? 'tree' : 'group'}
      aria-label={depth === 0 ? '权限' : undefined}
      sx={{ listStyle: 'none', m: 0, pl: depth === 0 ? 0 : 3 }}
    >
      {nodes.map((n) => {
        const state = stateOf(n, checked);
        return (
          <li key={n.id} role="treeitem" aria-selected={state === 'checked'}>
            <FormControlLabel
              label={n.title}
              sx={{ mr: 1 }}
              disabled={n.always}
              control={
                <Checkbox
                  size="small"
                  checked={state === 'checked'}
                  indeterminate={state === 'indeterminate'}
                  onChange={(e) => onToggle(n.id, e.target.checked)}
                  slotProps={{ input: { 'data-code': n.code } as object }}
                />
              }
            />
            {n.kind === 'action' || MONEY_PAGES.has(n.code) ? <GrantTag code={n.code} /> : null}
            {n.children.length > 0 ? (
              <TreeNodes nodes={n.children} checked={checked} onToggle={onToggle} depth={depth + 1} />
            ) : null}
          </li>
        );
      })}
    </Box>
  );
}

export default function BindDialog({ role, onClose }: BindDialogProps) {
  const open = role !== null;
  // The last role stays on screen while the dialog fades out.
  const [shown, setShown] = useState(role);
  if (role && role !== shown) setShown(role);
  const current = role ?? shown;

  const { data, isFetching, fulfilledTimeStamp } = useGetPermissionsQuery(
    { roleId: role?.id ?? 0 },
    { skip: !open, refetchOnMountOrArgChange: true },
  );
  const [bind] = useBindRoleMutation();
  const tree = data?.tree ?? [];

  // The checks start from each fresh answer for this role and then follow the clicks; an opening
  // forgets the clicks of the last one.
  const [local, setLocal] = useState<{ key: string | null; checked: Set<number> }>({ key: null, checked: new Set() });
  const [wasOpen, setWasOpen] = useState(open);
  let checked = local.checked;
  let ready = local.key !== null;
  if (open !== wasOpen) {
    setWasOpen(open);
    if (open) {
      checked = new Set();
      ready = false;
      setLocal({ key: null, checked });
    }
  }
  const key = open && data && !isFetching ? `${role.id}:${fulfilledTimeStamp}` : null;
  if (key !== null && key !== local.key) {
    checked = initialChecked(tree);
    ready = true;
    setLocal({ key, checked });
  }

  return (
    <FormDialog
      open={open}
      title={current ? `分配权限 - ${current.name}` : '分配权限'}
      onClose={onClose}
      onSubmit={() => {
        if (!role || !ready) return Promise.reject({ msg: '权限加载中，请稍后' });
        return bind({ body: { roleId: role.id, permissionIds: permissionIdsOf(tree, checked) } }).unwrap();
      }}
      successText="分配成功"
      maxWidth="sm"
    >
      {ready ? (
        <TreeNodes
          nodes={tree}
          checked={checked}
          onToggle={(id, on) => setLocal((s) => ({ key: s.key, checked: toggle(tree, s.checked, id, on) }))}
          depth={0}
        />
      ) : (
        <Box sx={{ display: 'flex', justifyContent: 'center', py: 4 }}>
          <CircularProgress aria-label="加载中" />
        </Box>
      )}
    </FormDialog>
  );
}
