/**
 * The error pages, one module (one chunk): 404, where every unknown path lands (/Layout/errors/404), and
 * 403, a page of the console the manager's role may not open, reached by its URL.
 */
import { useNavigate } from 'react-router-dom';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';

export const FORBIDDEN_TEXT = '无权限访问该页面';

export default function NotFoundPage() {
  return <ErrorPage code="404" text="抱歉，您访问的页面不存在" />;
}

export function ForbiddenPage() {
  return <ErrorPage code="403" text={FORBIDDEN_TEXT} />;
}

function ErrorPage({ code, text }: { code: string; text: string }) {
  const navigate = useNavigate();
  return (
    <Box sx={{ textAlign: 'center', py: 10 }}>
      <Typography variant="h1" component="h1" color="text.secondary" sx={{ fontWeight: 700 }}>
        {code}
      </Typography>
      <Typography sx={{ mt: 2, mb: 4 }} color="text.secondary">
        {text}
      </Typography>
      <Button variant="contained" onClick={() => navigate('/layout/welcome')}>
        返回首页
      </Button>
    </Box>
  );
}
