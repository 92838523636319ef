/**
 * The DataGrid's default texts in the browser build: its Chinese (zhCN) texts instead of the English
 * ones. webpack/onDemand.js points @mui/x-data-grid's constants/index import of localeTextConstants
 * here, so the English table (~9 KB minified) stays out of every list page; every grid gets the
 * Chinese texts of ListPage's `localeText` anyway. zhCN lacks only keys of Premium features (pivot,
 * charts, AI assistant, formula bar), which a community grid never shows;
 * __tests__/src/components/gridLocaleText.test.ts checks that for the installed version.
 */
import { zhCN } from '@mui/x-data-grid/locales';

export const GRID_DEFAULT_LOCALE_TEXT = zhCN.components.MuiDataGrid.defaultProps.localeText;
