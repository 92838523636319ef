/** The welcome page: greets the manager by name and offers a card per page of their menu. */
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

export const greeting = (name: string) => `您好，${name}，欢迎使用后台管理控制台`;

export default function WelcomePage() {
  const username = useAppSelector((s) => s.auth.username) ?? '';
  const { data: menu = [] } = useGetMenuQuery();
  const shortcuts = menuLeaves(menu);
  return (
    <Box>
      <Paper sx={{ p: 3, mb: 2 }}>
        <Typography component="h1" variant="h5">
          {greeting(username)}
        </Typography>
        <Typography color="text.secondary" sx={{ mt: 1 }}>
          请从左侧菜单或下方快捷入口开始工作。
        </Typography>
      </Paper>
      {shortcuts.length > 0 && (
        <Box
          component="ul"
          aria-label="快捷入口"
          sx={{
            listStyle: 'none',
            m: 0,
            p: 0,
            display: 'grid',
            gap: 2,
            gridTemplateColumns: 'repeat(auto-fill, minmax(180px, 1fr))',
          }}
        >
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
        </Box>
      )}
    </Box>
  );
}
