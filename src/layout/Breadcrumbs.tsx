/** The breadcrumb trail (group title › page title), shown only for paths the menu knows. */
import { useMemo } from 'react';
import { useLocation } from 'react-router-dom';
import MuiBreadcrumbs from '@mui/material/Breadcrumbs';
import Typography from '@mui/material/Typography';
import { useGetMenuQuery } from '../services/generated/auth';
import { breadcrumbMap, pathKey } from './menuTree';

export default function Breadcrumbs() {
  const { data: menu } = useGetMenuQuery();
  const { pathname } = useLocation();
  const map = useMemo(() => breadcrumbMap(menu ?? []), [menu]);
  const titles = map.get(pathKey(pathname));
  if (!titles) return null;
  return (
    <MuiBreadcrumbs separator="›" aria-label="面包屑">
      {titles.map((title, i) => (
        <Typography
          key={`${i}-${title}`}
          sx={{ fontSize: 14, color: i === titles.length - 1 ? 'text.primary' : 'text.secondary' }}
          aria-current={i === titles.length - 1 ? 'page' : undefined}
        >
          {title}
        </Typography>
      ))}
    </MuiBreadcrumbs>
  );
}
