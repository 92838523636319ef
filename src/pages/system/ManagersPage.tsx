/**
 * 系统管理 / 管理员 (DOMAIN.md §3 System): the managers list and, for holders of oplog:view, the
 * operation log. The open tab is part of the URL (`?tab=log`), like the lists' filters.
 */
import { useSearchParams } from 'react-router-dom';
import Box from '@mui/material/Box';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import { onDemand } from '../../components/onDemand';
import { usePermissions } from '../../components/useCan';
import ManagerList from './ManagerList';

// The log (and the permission tree its action filter lists) loads when its tab is first shown.
const OpLogList = onDemand(() => import('./OpLogList'));

export const LOG_TAB = 'log';

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
      <Tabs value={tab} onChange={(_e, v: string) => select(v)} sx={{ mb: 2 }} aria-label="管理员">
        <Tab value="managers" label="管理员" />
        {showLog ? <Tab value={LOG_TAB} label="操作日志" /> : null}
      </Tabs>
      {/* Until the codes are known the tab is not: do not load the wrong list meanwhile. */}
      {isLoading ? null : tab === LOG_TAB ? <OpLogList /> : <ManagerList />}
    </Box>
  );
}
