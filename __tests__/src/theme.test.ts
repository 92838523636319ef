/**
 * The browser build leaves MUI's CSS-variables theme code out (src/muiWithoutCssVars.ts, see
 * webpack/onDemand.js): that is only right while no theme we build asks for CSS variables.
 */
import { createTheme } from '@mui/material/styles';
import { zhCN } from '@mui/x-data-grid/locales';
import { theme } from '../../src/theme';

describe('theme', () => {
  it('needs no CSS variables, nor does the DataGrid theme built on it', () => {
    for (const t of [theme, createTheme(theme, zhCN)]) {
      expect('colorSchemes' in t).toBe(false);
      expect((t as { vars?: unknown }).vars).toBeUndefined();
    }
  });
});
