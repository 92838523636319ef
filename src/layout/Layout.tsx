/**
 * The shell of /layout (SPEC.md §2, §9): header, sidebar and the main area where the child route
 * renders. The main area follows the sidebar (left margin 160/48 px) and pads 10 px on small
 * screens, 16 px otherwise. Window resizes feed the layout slice, which collapses the sidebar on
 * small screens. The MUI theme (Chinese locale) starts here: every page below is inside it.
 */
import { Suspense, useEffect, useState } from 'react';
import { useStore } from 'react-redux';
import { Navigate, Outlet, useLocation } from 'react-router-dom';
import Box from '@mui/material/Box';
import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider } from '@mui/material/styles';
import { theme } from '../theme';
import { useAppDispatch, useAppSelector } from '../store/hooks';
import { setCollapsed, widthChanged } from '../store/layoutSlice';
import type { RootState } from '../store/store';
import Header, { HEADER_HEIGHT } from './Header';
import { mainPadding, sidebarWidth } from './layoutSizes';
import LoadingOverlay from './LoadingOverlay';
import PageSkeleton from './PageSkeleton';
import { readPref, SIDEBAR_PREF } from './prefs';
import Sidebar from './Sidebar';
import TabStrip from './TabStrip';
import Toaster from './Toaster';
import { pagePaths } from '../../domain/pagePaths';
import { onDemand } from '../components/onDemand';
import { useGetMenuQuery } from '../services/generated/auth';
import { breadcrumbMap, pathKey } from './menuTree';

/** Present for screen readers, not on screen. */
const visuallyHidden = {
  position: 'absolute',
  // Strings: in `sx` the numbers 1 and -1 would mean 100 % and a theme spacing, and a 100 % wide title
  // out of the flow made every page scroll sideways by the sidebar's width.
  width: '1px',
  height: '1px',
  margin: '-1px',
  padding: 0,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
  border: 0,
} as const;

/** The console's pages that need a permission, by their path as the router compares it. */
const GUARDED = new Set(Object.values(pagePaths).map((p) => pathKey(`/layout/${p}`)));
/** The 403 page, loaded the first time a manager opens a page by URL that the role does not allow. */
const ForbiddenPage = onDemand(() => import('../pages/errors/NotFoundPage'), 'ForbiddenPage');

/**
 * The page of the URL, or the 403 page when it is one of the console's pages and the server's menu
 * (which lists only what the role may open) does not have it: no page renders, so nothing asks the
 * server for data it will refuse.
 */
function PageOrForbidden() {
  const { pathname } = useLocation();
  const { data: menu } = useGetMenuQuery();
  const key = pathKey(pathname);
  const trail = menu ? breadcrumbMap(menu).get(key) : undefined;
  if (menu && GUARDED.has(key) && !trail) return <ForbiddenPage />;
  return (
    <>
      {/* The page's level-one heading for screen readers (the breadcrumb shows it on screen). */}
      {trail ? (
        <Box component="h1" sx={visuallyHidden}>
          {trail[trail.length - 1]}
        </Box>
      ) : null}
      {/* A page loads its code the first time it opens: its outline shows meanwhile. */}
      <Suspense fallback={<PageSkeleton />}>
        <Outlet />
      </Suspense>
    </>
  );
}

export function useWindowWidth() {
  const dispatch = useAppDispatch();
  useEffect(() => {
    const update = () => dispatch(widthChanged(window.innerWidth));
    update();
    window.addEventListener('resize', update);
    return () => window.removeEventListener('resize', update);
  }, [dispatch]);
}

/**
 * The sidebar as the manager left it (collapsed or not) at his last visit, once the window is known to
 * be wide enough to choose; on a phone-sized screen it always starts collapsed. Written by the sidebar's
 * button only (a collapse the window's width made is not a choice).
 */
function useRememberedSidebar() {
  const dispatch = useAppDispatch();
  const username = useAppSelector((s) => s.auth.username);
  const small = useAppSelector((s) => s.layout.breakpoint === 'small');
  const store = useStore<RootState>();
  // On entering the console and on leaving a phone-sized width (which collapsed it, then expanded it).
  useEffect(() => {
    // The store as it is now: the window's width was read by an effect of this same render.
    if (store.getState().layout.breakpoint === 'small' || !username) return;
    const stored = readPref(username, SIDEBAR_PREF);
    if (typeof stored === 'boolean') dispatch(setCollapsed(stored));
  }, [dispatch, store, username, small]);
}

export default function Layout() {
  useWindowWidth();
  useRememberedSidebar();
  const token = useAppSelector((s) => s.auth.token);
  const collapsed = useAppSelector((s) => s.layout.collapsed);
  const small = useAppSelector((s) => s.layout.breakpoint === 'small');
  const { pathname, search, hash } = useLocation();

  // The route loader already guards navigation; this covers a token cleared while a page is open.
  if (!token) return <Navigate to={`/login?redirect=${encodeURIComponent(pathname + search + hash)}`} replace />;
  return (
    <ThemeProvider theme={theme}>
      <CssBaseline />
      <Shell collapsed={collapsed} padding={mainPadding(small)} />
    </ThemeProvider>
  );
}

function Shell({ collapsed, padding }: { collapsed: boolean; padding: number }) {
  // 刷新 on a tab mounts the page again.
  const [generation, setGeneration] = useState(0);
  return (
    <Box sx={{ minHeight: '100vh', bgcolor: 'background.default' }}>
      <Header />
      <Sidebar />
      <Box
        component="main"
        data-testid="main"
        style={{
          marginLeft: sidebarWidth(collapsed),
          padding,
          paddingTop: HEADER_HEIGHT + padding,
        }}
        sx={{ boxSizing: 'border-box', minWidth: 0, transition: 'margin-left 0.2s' }}
      >
        <TabStrip onRefresh={() => setGeneration((g) => g + 1)} />
        <PageOrForbidden key={generation} />
      </Box>
      <LoadingOverlay />
      <Toaster />
    </Box>
  );
}
