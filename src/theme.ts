/** The console's MUI theme: Chinese component texts (zhCN) and a CJK-friendly font stack. */
import { createTheme } from '@mui/material/styles';
import { zhCN } from '@mui/material/locale';

export const theme = createTheme(
  {
    palette: {
      primary: { main: '#1677ff' },
      background: { default: '#f0f2f5' },
    },
    typography: {
      fontSize: 14,
      fontFamily: [
        '-apple-system',
        'BlinkMacSystemFont',
        '"Segoe UI"',
        '"PingFang SC"',
        '"Hiragino Sans GB"',
        '"Microsoft YaHei"',
        '"Noto Sans CJK SC"',
        '"Helvetica Neue"',
        'Arial',
        'sans-serif',
      ].join(','),
    },
  },
  zhCN,
);
