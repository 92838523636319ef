/**
 * 系统管理 / 管理员 (DOMAIN.md §3 System): the managers list and, for holders of oplog:view, the
 * operation log. The open tab is part of the URL (`?tab=log`), like the lists' filters.
 */
import { useSearchParams } from 'react-router-dom';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { onDemand } from '../../components/onDemand';
import { usePermissions } from '../../components/useCan';
import ManagerList from './ManagerList';

// The log (and the permission tree its action filter lists) loads when its tab is first shown.
const OpLogList = onDemand(() => import('./OpLogList'));

export const LOG_TAB = 'log';

/**
 * A tab of the two-tab bar: a text button with the selected one underlined (MUI's Tabs would add its
 * scroll and indicator machinery, ~4 KiB, to the heaviest list page for two tabs).
 */
function PageTab(props: { value: string; label: string; selected: string; onSelect: (v: string) => void }) {
  const on = props.value === props.selected;
  return (
    <Button
      role="tab"
      aria-selected={on}
      tabIndex={on ? 0 : -1}
      onClick={() => props.onSelect(props.value)}
      onKeyDown={(e) => {
        if (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight') return;
        const sib = (
          e.key === 'ArrowRight' ? e.currentTarget.nextElementSibling : e.currentTarget.previousElementSibling
        ) as HTMLElement | null;
        sib?.focus();
        sib?.click();
      }}
      sx={{
        borderRadius: 0,
        px: 2,
        minHeight: 48,
        color: on ? 'primary.main' : 'text.secondary',
        borderBottom: 2,
        borderColor: on ? 'primary.main' : 'transparent',
        mb: '-1px',
      }}
    >
      {props.label}
    </Button>
  );
}

export default function ManagersPage() {
  const [search, setSearch] = useSearchParams();
  const { can, isLoading } = usePermissions();
  const showLog = can('oplog:view');
  const tab = showLog && search.get('tab') === LOG_TAB ? LOG_TAB : 'managers';

  const select = (next: string) => {
    // Each tab starts from its own clean URL state.
    setSearch(next === LOG_TAB ? { tab: LOG_TAB } : {});
  };

  return (
    <Box>
      <Box role="tablist" aria-label="管理员" sx={{ display: 'flex', borderBottom: 1, borderColor: 'divider', mb: 2 }}>
        <PageTab value="managers" label="管理员" selected={tab} onSelect={select} />
        {showLog ? <PageTab value={LOG_TAB} label="操作日志" selected={tab} onSelect={select} /> : null}
      </Box>
      {/* Until the codes are known the tab is not: do not load the wrong list meanwhile. */}
      {isLoading ? null : tab === LOG_TAB ? <OpLogList /> : <ManagerList />}
    </Box>
  );
}
