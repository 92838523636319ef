/**
 * The browser build gives the DataGrid Chinese default texts instead of its English ones
 * (src/components/gridLocaleText.ts, see webpack/onDemand.js). This checks, for the installed grid,
 * that the Chinese set lacks only texts of Premium features, which a community grid never shows.
 */
import { GRID_DEFAULT_LOCALE_TEXT as english } from '@mui/x-data-grid';
import { GRID_DEFAULT_LOCALE_TEXT as chinese } from '../../../src/components/gridLocaleText';

const PREMIUM =
  /^(pivot|charts|aiAssistant|prompt|formulaBar|toolbar(Pivot|Charts|Assistant)|columnMenuManage(Pivot|Charts)|aggregationFunctionLabelNone|emptyPivotOverlayLabel)/;

describe('gridLocaleText', () => {
  it('has every text of a community grid', () => {
    const missing = Object.keys(english).filter((key) => !(key in chinese) && !PREMIUM.test(key));
    expect(missing).toEqual([]);
    expect(chinese.noRowsLabel).toBe('没有数据。');
  });
});
