/**
 * The header (SPEC.md §2, §9): an AppBar under the sidebar, its content starting 170 px (58 px
 * collapsed) from the left; the breadcrumb trail, and the account dropdown (150 ms hover delay)
 * with the user name, 个人中心 (ProfileDialog), 修改密码 and 退出登录; the 提醒设置 button beside it
 * (src/layout/LiveAlerts).
 */
import { lazy, Suspense, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import ListItemIcon from '@mui/material/ListItemIcon';
import MenuItem from '@mui/material/MenuItem';
import MenuList from '@mui/material/MenuList';
import Paper from '@mui/material/Paper';
import Popper from '@mui/material/Popper';
import Toolbar from '@mui/material/Toolbar';
import AccountCircle from '@mui/icons-material/AccountCircle';
import KeyboardArrowDown from '@mui/icons-material/KeyboardArrowDown';
import Logout from '@mui/icons-material/Logout';
import LockReset from '@mui/icons-material/LockReset';
import Person from '@mui/icons-material/Person';
import { pagePaths } from '../../domain/pagePaths';
import { useLogoutMutation } from '../services/generated/auth';
import { loggedOut } from '../store/authSlice';
import { useAppDispatch, useAppSelector } from '../store/hooks';
import Breadcrumbs from './Breadcrumbs';
import { DROPDOWN_DELAY_MS, headerPaddingLeft } from './layoutSizes';
import LogoutDialog from './LogoutDialog';
import { useHoverPopup } from './useHoverPopup';
import { useOpenedOnce } from '../components/onDemand';

export const HEADER_HEIGHT = 64;

/** The 提醒设置 button, after the first paint (a chunk of its own). */
const LiveAlerts = lazy(async () => ({ default: (await import('./BadgeFeed')).LiveAlerts }));
/** 个人中心, loaded when first opened (the same chunk). */
const ProfileDialog = lazy(async () => ({ default: (await import('./BadgeFeed')).ProfileDialog }));
/** Step-up and the binding a role asks for (issue 15): a chunk of its own, after the first paint. */
const SecondFactor = lazy(() => import('./SecondFactor'));

export default function Header() {
  const collapsed = useAppSelector((s) => s.layout.collapsed);
  const username = useAppSelector((s) => s.auth.username) ?? '';
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [logout] = useLogoutMutation();
  const dropdown = useHoverPopup(DROPDOWN_DELAY_MS);
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [profile, setProfile] = useState(false);
  const profileOpened = useOpenedOnce(profile);

  const confirmLogout = async () => {
    setConfirming(false);
    // The token is cleared whatever the server answers (it may already have expired it).
    try {
      await logout().unwrap();
    } catch {
      /* ignored on purpose */
    }
    // Leave the shell first so that it does not react to the missing token on its own.
    await navigate('/login', { replace: true });
    dispatch(loggedOut());
  };

  return (
    <AppBar position="fixed" color="inherit" elevation={1}>
      <Toolbar style={{ paddingLeft: headerPaddingLeft(collapsed), minHeight: HEADER_HEIGHT }} sx={{ pr: 2 }}>
        <Box sx={{ flexGrow: 1, minWidth: 0, overflow: 'hidden' }}>
          <Breadcrumbs />
        </Box>
        {/* The button's place is kept while its chunk loads: nothing in the bar moves when it arrives. */}
        <Suspense fallback={<Box aria-hidden sx={{ width: 40, height: 40, flexShrink: 0 }} />}>
          <LiveAlerts />
        </Suspense>
        <Button
          ref={setAnchor}
          color="inherit"
          {...dropdown.anchorProps}
          aria-haspopup="menu"
          aria-expanded={dropdown.open}
          startIcon={<AccountCircle />}
          endIcon={<KeyboardArrowDown />}
          sx={{ textTransform: 'none' }}
        >
          {username}
        </Button>
        <Popper
          open={dropdown.open && anchor !== null}
          anchorEl={anchor}
          placement="bottom-end"
          sx={{ zIndex: (t) => t.zIndex.appBar + 1 }}
        >
          <Paper elevation={4} {...dropdown.popupProps}>
            <MenuList dense aria-label="账户菜单">
              <MenuItem
                onClick={() => {
                  dropdown.close();
                  setProfile(true);
                }}
              >
                <ListItemIcon>
                  <Person fontSize="small" />
                </ListItemIcon>
                个人中心
              </MenuItem>
              <MenuItem
                onClick={() => {
                  dropdown.close();
                  void navigate(`/layout/${pagePaths['password:update']}`);
                }}
              >
                <ListItemIcon>
                  <LockReset fontSize="small" />
                </ListItemIcon>
                修改密码
              </MenuItem>
              <MenuItem
                onClick={() => {
                  dropdown.close();
                  setConfirming(true);
                }}
              >
                <ListItemIcon>
                  <Logout fontSize="small" />
                </ListItemIcon>
                退出登录
              </MenuItem>
            </MenuList>
          </Paper>
        </Popper>
      </Toolbar>
      <Suspense fallback={null}>
        <SecondFactor onLogout={() => setConfirming(true)} />
      </Suspense>
      <LogoutDialog open={confirming} onCancel={() => setConfirming(false)} onConfirm={confirmLogout} />
      {profileOpened ? (
        <Suspense fallback={null}>
          <ProfileDialog open={profile} onClose={() => setProfile(false)} />
        </Suspense>
      ) : null}
    </AppBar>
  );
}
