/** The 403 page: a page of the console the manager's role may not open, reached by its URL. */
import { useNavigate } from 'react-router-dom';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';

export const FORBIDDEN_TEXT = '无权限访问该页面';

export default function ForbiddenPage() {
  const navigate = useNavigate();
  return (
    <Box sx={{ textAlign: 'center', py: 10 }}>
      <Typography variant="h1" component="h1" color="text.secondary" sx={{ fontWeight: 700 }}>
        403
      </Typography>
      <Typography sx={{ mt: 2, mb: 4 }} color="text.secondary">
        {FORBIDDEN_TEXT}
      </Typography>
      <Button variant="contained" onClick={() => navigate('/layout/welcome')}>
        返回首页
      </Button>
    </Box>
  );
}
