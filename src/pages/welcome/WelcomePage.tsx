/**
 * The welcome page: greets the manager by name with the login before this one, shows what waits for
 * action on the pages they may open (提现待审核, 提取待审核, 充值待确认, 申诉中, 待发货; each a link to its
 * list already filtered, refreshed by itself), and offers a card per page of their menu.
 */
import { Link as RouterLink } from 'react-router-dom';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import CardContent from '@mui/material/CardContent';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { menuIconFor } from '../../icons/menuIcons';
import { menuLeaves } from '../../layout/menuTree';
import { useGetMenuQuery } from '../../services/generated/auth';
import { useAppSelector } from '../../store/hooks';
import { WaitingItems } from '../../../domain/waiting';
import { formatTime } from '../../../domain/time';
import CardGrid from '../../components/CardGrid';
import { MoneyText } from '../../components/MoneyText';
import { useWelcome, waitingPath } from '../../layout/waitingCounts';

export const greeting = (name: string) => `您好，${name}，欢迎使用后台管理控制台`;

export default function WelcomePage() {
  const username = useAppSelector((s) => s.auth.username) ?? '';
  const { data: menu = [] } = useGetMenuQuery();
  const shortcuts = menuLeaves(menu);
  const { data: welcome } = useWelcome();
  return (
    <Box>
      <Paper sx={{ p: 3, mb: 2 }}>
        <Typography component="h1" variant="h5">
          {greeting(username)}
        </Typography>
        <Typography color="text.secondary" sx={{ mt: 1 }}>
          {welcome?.lastLoginAt
            ? `上次登录：${formatTime(welcome.lastLoginAt)}，IP ${welcome.lastLoginIp}`
            : '请从左侧菜单或下方快捷入口开始工作。'}
        </Typography>
      </Paper>
      {!!welcome?.waiting.length && (
        <CardGrid label="待处理" min={200} sx={{ mb: 2 }}>
          {welcome.waiting.map((w) => (
            <li key={w.key}>
              <Card>
                <CardActionArea component={RouterLink} to={`${waitingPath(w.key)}?${WaitingItems[w.key].query}`}>
                  <CardContent>
                    <Typography color="text.secondary">{WaitingItems[w.key].title}</Typography>
                    <Typography
                      variant="h4"
                      component="p"
                      color={w.count > 0 ? 'warning.main' : 'text.primary'}
                      aria-label={`${WaitingItems[w.key].title} ${w.count}`}
                    >
                      {w.count}
                    </Typography>
                    {w.amount && w.asset && w.count > 0 ? (
                      <Typography variant="body2" color="text.secondary">
                        合计 <MoneyText value={w.amount} asset={w.asset} showAsset />
                      </Typography>
                    ) : null}
                  </CardContent>
                </CardActionArea>
              </Card>
            </li>
          ))}
        </CardGrid>
      )}
      {shortcuts.length > 0 && (
        <CardGrid label="快捷入口" min={180}>
          {shortcuts.map(({ entry, groups }) => {
            const Icon = menuIconFor(groups[0]?.name ?? entry.name);
            return (
              <li key={entry.id}>
                <Card>
                  <CardActionArea component={RouterLink} to={entry.layout}>
                    <CardContent sx={{ display: 'flex', alignItems: 'center', gap: 1.5 }}>
                      <Icon color="primary" />
                      <Box sx={{ minWidth: 0 }}>
                        <Typography noWrap>{entry.title}</Typography>
                        {groups.length > 0 && (
                          <Typography variant="body2" color="text.secondary" noWrap>
                            {groups.map((g) => g.title).join(' › ')}
                          </Typography>
                        )}
                      </Box>
                    </CardContent>
                  </CardActionArea>
                </Card>
              </li>
            );
          })}
        </CardGrid>
      )}
    </Box>
  );
}
