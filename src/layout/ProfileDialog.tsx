/**
 * 个人中心 (the account menu): who is signed in, the login before this one (time and address), and the
 * way to 修改密码, and the authenticator (bind or unbind, issue 15). Part of the BadgeFeed chunk: it needs the welcome query that chunk already holds.
 */
import { useNavigate } from 'react-router-dom';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import { pagePaths } from '../../domain/pagePaths';
import { formatTime } from '../../domain/time';
import TotpSettings from '../components/totp/TotpSettings';
import { useAppSelector } from '../store/hooks';
import { useWelcome } from './waitingCounts';

export const PASSWORD_PATH = `/layout/${pagePaths['password:update']}`;

export default function ProfileDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { data } = useWelcome();
  const username = useAppSelector((s) => s.auth.username) ?? '';
  const navigate = useNavigate();
  const rows: Array<[string, string]> = [
    ['用户名', username],
    ['上次登录时间', data?.lastLoginAt ? formatTime(data.lastLoginAt) : '-'],
    ['上次登录 IP', data?.lastLoginIp || '-'],
  ];
  return (
    <Dialog open={open} onClose={onClose} maxWidth="sm" fullWidth aria-labelledby="profile-title">
      <DialogTitle id="profile-title">个人中心</DialogTitle>
      <DialogContent>
        <Table size="small" aria-label="账户信息">
          <TableBody>
            {rows.map(([k, v]) => (
              <TableRow key={k}>
                <TableCell component="th" scope="row" sx={{ width: 120, color: 'text.secondary' }}>
                  {k}
                </TableCell>
                <TableCell>{v}</TableCell>
              </TableRow>
            ))}
            <TableRow>
              <TableCell component="th" scope="row" sx={{ color: 'text.secondary' }}>
                身份验证器
              </TableCell>
              <TableCell>
                <TotpSettings />
              </TableCell>
            </TableRow>
          </TableBody>
        </Table>
      </DialogContent>
      <DialogActions>
        <Button
          onClick={() => {
            onClose();
            void navigate(PASSWORD_PATH);
          }}
        >
          修改密码
        </Button>
        <Button variant="contained" onClick={onClose}>
          关闭
        </Button>
      </DialogActions>
    </Dialog>
  );
}
