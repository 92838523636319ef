/** The 404 page, where every unknown path lands (/Layout/errors/404). */
import { useNavigate } from 'react-router-dom';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';

export default function NotFoundPage() {
  const navigate = useNavigate();
  return (
    <Box sx={{ textAlign: 'center', py: 10 }}>
      <Typography variant="h1" component="h1" color="text.secondary" sx={{ fontWeight: 700 }}>
        404
      </Typography>
      <Typography sx={{ mt: 2, mb: 4 }} color="text.secondary">
        抱歉，您访问的页面不存在
      </Typography>
      <Button variant="contained" onClick={() => navigate('/layout/welcome')}>
        返回首页
      </Button>
    </Box>
  );
}
