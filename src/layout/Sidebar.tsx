/**
 * The sidebar (SPEC.md §2, §9): the server menu nested to any depth, 160 px wide or 48 px collapsed.
 * Expanded, groups fold open in place; collapsed, only the top-level icons show and a group opens a
 * popup menu on hover (300 ms show/hide delay), nested popups for deeper groups. The item of the
 * current route is selected and its groups are opened.
 */
import { lazy, Suspense, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { Link as RouterLink, useLocation } from 'react-router-dom';
import Box from '@mui/material/Box';
import Collapse from '@mui/material/Collapse';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import MenuItem from '@mui/material/MenuItem';
import MenuList from '@mui/material/MenuList';
import Paper from '@mui/material/Paper';
import Popper from '@mui/material/Popper';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import ChevronRight from '@mui/icons-material/ChevronRight';
import ExpandLess from '@mui/icons-material/ExpandLess';
import ExpandMore from '@mui/icons-material/ExpandMore';
import MenuIcon from '@mui/icons-material/Menu';
import MenuOpen from '@mui/icons-material/MenuOpen';
import { menuIconFor } from '../icons/menuIcons';
import { useGetMenuQuery, type MenuEntry } from '../services/generated/auth';
import { useAppDispatch, useAppSelector } from '../store/hooks';
import { SIDEBAR_PREF, writePref } from './prefs';
import { toggleSidebar } from '../store/layoutSlice';
import { MENU_POPUP_DELAY_MS, sidebarWidth } from './layoutSizes';
import { activeTrail, isLeaf } from './menuTree';
import { useHoverPopup } from './useHoverPopup';
import { WaitingBadge, waitingIn } from './WaitingBadge';

export const APP_TITLE = '后台管理控制台';

const BadgeFeed = lazy(() => import('./BadgeFeed'));
const NO_BADGES: ReadonlyMap<string, number> = new Map();

export default function Sidebar() {
  const dispatch = useAppDispatch();
  const collapsed = useAppSelector((s) => s.layout.collapsed);
  const small = useAppSelector((s) => s.layout.breakpoint === 'small');
  const username = useAppSelector((s) => s.auth.username);
  const { data: menu = [] } = useGetMenuQuery();
  const { pathname } = useLocation();
  const trail = useMemo(() => activeTrail(menu, pathname), [menu, pathname]);
  const [badges, setBadges] = useState(NO_BADGES);
  const width = sidebarWidth(collapsed);

  return (
    <Drawer
      variant="permanent"
      component="nav"
      aria-label="侧边菜单"
      sx={{ flexShrink: 0, whiteSpace: 'nowrap' }}
      slotProps={{
        paper: {
          // The element whose width is the sidebar's (the browser tests measure it).
          ...({ 'data-testid': 'sidebar' } as object),
          style: { width },
          sx: {
            boxSizing: 'border-box',
            overflowX: 'hidden',
            bgcolor: '#001529',
            color: 'rgba(255,255,255,0.85)',
            borderRight: 0,
            transition: (t) => t.transitions.create('width', { duration: t.transitions.duration.shorter }),
          },
        },
      }}
    >
      <Box sx={{ height: 64, display: 'flex', alignItems: 'center', justifyContent: 'center', flexShrink: 0 }}>
        <Typography component="div" sx={{ fontWeight: 600, fontSize: collapsed ? 14 : 16, color: '#fff' }}>
          {collapsed ? '后台' : APP_TITLE}
        </Typography>
      </Box>
      <Suspense fallback={null}>
        <BadgeFeed onBadges={setBadges} />
      </Suspense>
      <List component="div" disablePadding sx={{ flexGrow: 1, overflowY: 'auto', overflowX: 'hidden' }}>
        {menu.map((entry) =>
          collapsed ? (
            <CollapsedEntry key={entry.id} entry={entry} trail={trail} badges={badges} />
          ) : (
            <ExpandedEntry key={entry.id} entry={entry} depth={0} trail={trail} badges={badges} />
          ),
        )}
      </List>
      <Box sx={{ display: 'flex', justifyContent: collapsed ? 'center' : 'flex-end', p: 0.5, flexShrink: 0 }}>
        <IconButton
          size="small"
          aria-label={collapsed ? '展开菜单' : '收起菜单'}
          onClick={() => {
            dispatch(toggleSidebar());
            // The manager's own choice is what is remembered (not a collapse the window's width made).
            if (!small) writePref(username, SIDEBAR_PREF, !collapsed);
          }}
          sx={{ color: 'inherit' }}
        >
          {collapsed ? <MenuIcon fontSize="small" /> : <MenuOpen fontSize="small" />}
        </IconButton>
      </Box>
    </Drawer>
  );
}

const itemSx = {
  minHeight: 44,
  color: 'inherit',
  '&.Mui-selected': { bgcolor: 'primary.main', color: '#fff' },
  '&.Mui-selected:hover': { bgcolor: 'primary.dark' },
} as const;

function EntryIcon({ entry }: { entry: MenuEntry }) {
  const Icon = menuIconFor(entry.name);
  return <Icon fontSize="small" data-icon={entry.name} />;
}

/** Expanded mode: a leaf links to its route; a group folds its children open below it. */
function ExpandedEntry({
  entry,
  depth,
  trail,
  badges,
}: {
  entry: MenuEntry;
  depth: number;
  trail: number[];
  badges: ReadonlyMap<string, number>;
}) {
  const inTrail = trail.includes(entry.id);
  const [open, setOpen] = useState(inTrail);
  // Navigating into a group (by URL, breadcrumb or welcome card) opens it.
  useEffect(() => {
    if (inTrail) setOpen(true);
  }, [inTrail]);
  const indent = { pl: 1.5 + depth * 1.5 };
  const icon =
    depth === 0 ? (
      <ListItemIcon sx={{ minWidth: 28, color: 'inherit' }}>
        <EntryIcon entry={entry} />
      </ListItemIcon>
    ) : null;
  const text = <ListItemText primary={entry.title} slotProps={{ primary: { noWrap: true, sx: { fontSize: 14 } } }} />;

  if (isLeaf(entry)) {
    return (
      <ListItemButton
        component={RouterLink}
        to={entry.layout}
        selected={inTrail}
        aria-current={inTrail ? 'page' : undefined}
        sx={{ ...itemSx, ...indent }}
      >
        {icon}
        {text}
        <WaitingBadge count={badges.get(entry.layout)} />
      </ListItemButton>
    );
  }
  return (
    <>
      <ListItemButton aria-expanded={open} onClick={() => setOpen(!open)} sx={{ ...itemSx, ...indent, pr: 0.5 }}>
        {icon}
        {text}
        {!open && <WaitingBadge count={waitingIn(entry, badges)} />}
        {open ? <ExpandLess fontSize="small" /> : <ExpandMore fontSize="small" />}
      </ListItemButton>
      <Collapse in={open} timeout="auto" unmountOnExit>
        <List component="div" disablePadding sx={{ bgcolor: 'rgba(0,0,0,0.25)' }}>
          {entry.sub.map((child) => (
            <ExpandedEntry key={child.id} entry={child} depth={depth + 1} trail={trail} badges={badges} />
          ))}
        </List>
      </Collapse>
    </>
  );
}

/** Collapsed mode, top level: an icon; a leaf shows its title as a tooltip, a group a hover popup. */
function CollapsedEntry({
  entry,
  trail,
  badges,
}: {
  entry: MenuEntry;
  trail: number[];
  badges: ReadonlyMap<string, number>;
}) {
  const inTrail = trail.includes(entry.id);
  const sx = { ...itemSx, justifyContent: 'center', px: 0, position: 'relative' } as const;
  if (isLeaf(entry)) {
    return (
      <Tooltip title={entry.title} placement="right">
        <ListItemButton
          component={RouterLink}
          to={entry.layout}
          selected={inTrail}
          aria-label={entry.title}
          aria-current={inTrail ? 'page' : undefined}
          sx={sx}
        >
          <EntryIcon entry={entry} />
          <WaitingBadge corner count={badges.get(entry.layout)} />
        </ListItemButton>
      </Tooltip>
    );
  }
  return (
    <HoverGroup entry={entry} trail={trail} badges={badges} portal>
      {(anchorProps, ref) => (
        <ListItemButton ref={ref} {...anchorProps} selected={inTrail} aria-label={entry.title} sx={sx}>
          <EntryIcon entry={entry} />
          <WaitingBadge corner count={waitingIn(entry, badges)} />
        </ListItemButton>
      )}
    </HoverGroup>
  );
}

type AnchorProps = ReturnType<typeof useHoverPopup>['anchorProps'] & {
  'aria-haspopup': 'menu';
  'aria-expanded': boolean;
};

/**
 * A group's hover popup. Nested popups render inside their parent's (no portal), so moving the
 * pointer into a deeper popup does not count as leaving the outer one.
 */
function HoverGroup({
  entry,
  trail,
  badges,
  portal,
  onNavigate,
  children,
}: {
  entry: MenuEntry;
  trail: number[];
  badges: ReadonlyMap<string, number>;
  portal?: boolean;
  onNavigate?: () => void;
  children: (anchorProps: AnchorProps, ref: (el: HTMLElement | null) => void) => ReactNode;
}) {
  const popup = useHoverPopup(MENU_POPUP_DELAY_MS);
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const navigated = useRef(onNavigate);
  navigated.current = onNavigate;
  const done = () => {
    popup.close();
    navigated.current?.();
  };
  return (
    <>
      {children({ ...popup.anchorProps, 'aria-haspopup': 'menu', 'aria-expanded': popup.open }, setAnchor)}
      <Popper
        open={popup.open && anchor !== null}
        anchorEl={anchor}
        placement="right-start"
        disablePortal={!portal}
        sx={{ zIndex: (t) => t.zIndex.drawer + 2 }}
      >
        <Paper elevation={6} {...popup.popupProps} sx={{ minWidth: 140, ml: 0.5 }}>
          <MenuList dense aria-label={entry.title}>
            {entry.sub.map((child) => {
              const selected = trail.includes(child.id);
              if (isLeaf(child)) {
                return (
                  <MenuItem key={child.id} component={RouterLink} to={child.layout} selected={selected} onClick={done}>
                    <ListItemText>{child.title}</ListItemText>
                    <WaitingBadge count={badges.get(child.layout)} />
                  </MenuItem>
                );
              }
              return (
                <HoverGroup key={child.id} entry={child} trail={trail} badges={badges} onNavigate={done}>
                  {(anchorProps, ref) => (
                    <MenuItem ref={ref} {...anchorProps} selected={selected}>
                      <ListItemText>{child.title}</ListItemText>
                      <WaitingBadge count={waitingIn(child, badges)} />
                      <ChevronRight fontSize="small" />
                    </MenuItem>
                  )}
                </HoverGroup>
              );
            })}
          </MenuList>
        </Paper>
      </Popper>
    </>
  );
}
