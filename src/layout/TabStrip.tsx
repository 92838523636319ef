/**
 * 标签页: the pages open, under the header. A click goes back to a tab's page as it was left (its URL);
 * × closes one; the 标签操作 menu (or a right click on a tab) refreshes the page on screen, closes this
 * one, the others or all. 首页 stays. The tabs are kept per manager and come back after a reload.
 */
import { useEffect, useMemo, useState, type MouseEvent } from 'react';
import { Link as RouterLink, useLocation, useNavigate } from 'react-router-dom';
import Box from '@mui/material/Box';
import ButtonBase from '@mui/material/ButtonBase';
import IconButton from '@mui/material/IconButton';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import CloseIcon from '@mui/icons-material/Close';
import MoreHorizIcon from '@mui/icons-material/MoreHoriz';
import { baseApi } from '../services/baseApi';
import { useGetMenuQuery } from '../services/generated/auth';
import { useAppDispatch } from '../store/hooks';
import { breadcrumbMap, pathKey } from './menuTree';
import { closeTabs, HOME_KEY, HOME_TITLE, nextTab, parseTabs, visit, type OpenTab } from './openTabs';
import { usePref } from './prefs';

/** The data of the pages (not the menu or the grants): what 刷新 asks the server for again. */
const PAGE_TAGS = [
  'Withdraw',
  'WithdrawSetting',
  'Deposit',
  'DepositSetting',
  'DepositAccount',
  'Match',
  'Order',
  'Product',
  'Member',
  'Zone',
  'Asset',
  'Bill',
  'Pledge',
  'PledgeRelease',
  'PledgeMode',
  'Seed',
  'SeedRelease',
  'Payment',
  'Transfer',
  'Notice',
  'Protocol',
  'Setting',
  'Price',
  'Manager',
  'Role',
  'OpLog',
] as const;
// Known to the api before the pages that provide them load (RTK Query checks invalidated types).
baseApi.enhanceEndpoints({ addTagTypes: PAGE_TAGS });

export interface TabStripProps {
  /** Mounts the page on screen again (its own state from scratch); its data is asked for again here. */
  onRefresh: () => void;
}

export default function TabStrip({ onRefresh }: TabStripProps) {
  const { pathname, search } = useLocation();
  const navigate = useNavigate();
  const dispatch = useAppDispatch();
  const { data: menu } = useGetMenuQuery();
  const titles = useMemo(() => breadcrumbMap(menu ?? []), [menu]);
  const [tabs, setTabs] = usePref<OpenTab[]>('tabs', parseTabs);
  const [menuFor, setMenuFor] = useState<{ anchor: HTMLElement | { x: number; y: number }; key: string } | null>(null);

  const key = pathKey(pathname);
  const trail = titles.get(key);
  const title = key === HOME_KEY ? HOME_TITLE : trail?.[trail.length - 1];
  const url = pathname + search;
  // The page on screen is a tab (a page of the menu or 首页; not the 404 or 403 page), showing its URL.
  useEffect(() => {
    if (!title) return;
    const next = visit(tabs, { key, url, title }, Date.now());
    if (next !== tabs) setTabs(next);
    // Only a move to another URL makes a visit; `tabs` is read as it is then.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, url, title]);

  /** Closes tabs; when the one on screen goes, shows `then` (else the most recent of the rest). */
  const close = (keys: string[], then?: OpenTab) => {
    const rest = closeTabs(tabs, keys);
    setTabs(rest);
    if (then && then.key !== key) navigate(then.url);
    else if (keys.includes(key) && key !== HOME_KEY) navigate(nextTab(rest).url);
  };
  const openMenu = (anchor: HTMLElement | { x: number; y: number }, tabKey: string) =>
    setMenuFor({ anchor, key: tabKey });
  const target = menuFor?.key ?? key;
  const act = (what: 'refresh' | 'close' | 'others' | 'all') => {
    setMenuFor(null);
    if (what === 'refresh') {
      if (target !== key) {
        const t = tabs.find((x) => x.key === target);
        if (t) navigate(t.url);
      }
      dispatch(baseApi.util.invalidateTags([...PAGE_TAGS] as never[]));
      onRefresh();
    } else if (what === 'close') close([target]);
    else if (what === 'others') {
      close(
        tabs.filter((t) => t.key !== target).map((t) => t.key),
        tabs.find((t) => t.key === target),
      );
    } else close(tabs.map((t) => t.key));
  };

  const anchorEl = menuFor && menuFor.anchor instanceof HTMLElement ? menuFor.anchor : null;
  const anchorPosition =
    menuFor && !(menuFor.anchor instanceof HTMLElement) ? { top: menuFor.anchor.y, left: menuFor.anchor.x } : undefined;

  return (
    <Box
      component="nav"
      aria-label="已打开的页面"
      sx={{
        display: 'flex',
        alignItems: 'center',
        gap: 0.5,
        mb: 1.5,
        minHeight: 34,
      }}
    >
      <Box sx={{ display: 'flex', gap: 0.5, overflowX: 'auto', flex: 1, py: 0.25 }}>
        {tabs.map((t) => {
          const active = t.key === key;
          return (
            <Box
              key={t.key}
              data-tab={t.key}
              onContextMenu={(e: MouseEvent) => {
                e.preventDefault();
                openMenu({ x: e.clientX, y: e.clientY }, t.key);
              }}
              sx={{
                display: 'inline-flex',
                alignItems: 'center',
                flexShrink: 0,
                border: 1,
                borderRadius: 1,
                borderColor: active ? 'primary.main' : 'divider',
                bgcolor: active ? 'primary.main' : 'background.paper',
                color: active ? 'primary.contrastText' : 'text.primary',
                fontSize: 13,
              }}
            >
              <ButtonBase
                component={RouterLink}
                to={t.url}
                aria-current={active ? 'page' : undefined}
                sx={{ px: 1.25, py: 0.5, borderRadius: 1, fontSize: 'inherit', whiteSpace: 'nowrap' }}
              >
                {t.title}
              </ButtonBase>
              {t.key === HOME_KEY ? null : (
                <IconButton
                  size="small"
                  aria-label={`关闭「${t.title}」`}
                  onClick={() => close([t.key])}
                  sx={{ p: 0.25, mr: 0.5, color: 'inherit' }}
                >
                  <CloseIcon sx={{ fontSize: 14 }} />
                </IconButton>
              )}
            </Box>
          );
        })}
      </Box>
      <IconButton
        size="small"
        aria-label="标签操作"
        aria-haspopup="menu"
        onClick={(e) => openMenu(e.currentTarget, key)}
      >
        <MoreHorizIcon fontSize="small" />
      </IconButton>
      <Menu
        open={menuFor !== null}
        anchorEl={anchorEl}
        anchorReference={anchorPosition ? 'anchorPosition' : 'anchorEl'}
        anchorPosition={anchorPosition}
        onClose={() => setMenuFor(null)}
      >
        <MenuItem onClick={() => act('refresh')}>刷新</MenuItem>
        <MenuItem onClick={() => act('close')} disabled={target === HOME_KEY}>
          关闭
        </MenuItem>
        <MenuItem onClick={() => act('others')} disabled={tabs.length <= (target === HOME_KEY ? 1 : 2)}>
          关闭其他
        </MenuItem>
        <MenuItem onClick={() => act('all')} disabled={tabs.length <= 1}>
          关闭全部
        </MenuItem>
      </Menu>
    </Box>
  );
}
