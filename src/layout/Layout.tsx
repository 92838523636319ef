/**
 * The shell of /layout (SPEC.md §2, §9): header, sidebar and the main area where the child route
 * renders. The main area follows the sidebar (left margin 160/48 px) and pads 10 px on small
 * screens, 16 px otherwise. Window resizes feed the layout slice, which collapses the sidebar on
 * small screens. The MUI theme (Chinese locale) starts here: every page below is inside it.
 */
import { useEffect } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router-dom';
import Box from '@mui/material/Box';
import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider } from '@mui/material/styles';
import { theme } from '../theme';
import { useAppDispatch, useAppSelector } from '../store/hooks';
import { widthChanged } from '../store/layoutSlice';
import Header, { HEADER_HEIGHT } from './Header';
import { mainPadding, sidebarWidth } from './layoutSizes';
import LoadingOverlay from './LoadingOverlay';
import Sidebar from './Sidebar';
import Toaster from './Toaster';

export function useWindowWidth() {
  const dispatch = useAppDispatch();
  useEffect(() => {
    const update = () => dispatch(widthChanged(window.innerWidth));
    update();
    window.addEventListener('resize', update);
    return () => window.removeEventListener('resize', update);
  }, [dispatch]);
}

export default function Layout() {
  useWindowWidth();
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
        <Outlet />
      </Box>
      <LoadingOverlay />
      <Toaster />
    </Box>
  );
}
