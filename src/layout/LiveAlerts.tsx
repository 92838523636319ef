/**
 * The header's 提醒设置 button: turns the tone and the browser notification for new withdrawal and
 * deposit requests on or off (both off at first; kept in this browser). A chunk of its own, loaded
 * after the shell has drawn.
 */
import { useState } from 'react';
import Checkbox from '@mui/material/Checkbox';
import IconButton from '@mui/material/IconButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Tooltip from '@mui/material/Tooltip';
import NotificationsActive from '@mui/icons-material/NotificationsActive';
import NotificationsNone from '@mui/icons-material/NotificationsNone';
import { readAlertSettings, saveAlertSettings, type AlertSettings } from './liveAlerts';

export default function LiveAlerts() {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [settings, setSettings] = useState<AlertSettings>(readAlertSettings);
  const [denied, setDenied] = useState(false);
  const change = (next: AlertSettings) => {
    setSettings(next);
    saveAlertSettings(next);
  };
  const toggleNotify = async () => {
    if (settings.notify) return change({ ...settings, notify: false });
    if (typeof Notification === 'undefined') return setDenied(true);
    const permission =
      Notification.permission === 'default' ? await Notification.requestPermission() : Notification.permission;
    if (permission !== 'granted') return setDenied(true);
    setDenied(false);
    change({ ...settings, notify: true });
  };
  const on = settings.sound || settings.notify;
  return (
    <>
      <Tooltip title="新申请提醒">
        <IconButton
          color="inherit"
          aria-label="提醒设置"
          aria-haspopup="menu"
          onClick={(e) => setAnchor(e.currentTarget)}
        >
          {on ? <NotificationsActive /> : <NotificationsNone />}
        </IconButton>
      </Tooltip>
      <Menu
        anchorEl={anchor}
        open={anchor !== null}
        onClose={() => setAnchor(null)}
        slotProps={{ list: { dense: true, 'aria-label': '提醒设置' } }}
      >
        <MenuItem
          role="menuitemcheckbox"
          aria-checked={settings.sound}
          onClick={() => change({ ...settings, sound: !settings.sound })}
        >
          <ListItemIcon>
            <Checkbox edge="start" size="small" checked={settings.sound} tabIndex={-1} disableRipple />
          </ListItemIcon>
          <ListItemText primary="新提现/充值提示音" />
        </MenuItem>
        <MenuItem role="menuitemcheckbox" aria-checked={settings.notify} onClick={() => void toggleNotify()}>
          <ListItemIcon>
            <Checkbox edge="start" size="small" checked={settings.notify} tabIndex={-1} disableRipple />
          </ListItemIcon>
          <ListItemText primary="桌面通知" secondary={denied ? '浏览器未允许通知' : undefined} />
        </MenuItem>
      </Menu>
    </>
  );
}
