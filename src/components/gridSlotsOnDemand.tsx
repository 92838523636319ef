/**
 * The DataGrid's default toolbar (no list sets showToolbar) and column menu (opened from a column
 * header), loaded the first time one renders instead of with every list page. webpack/onDemand.js
 * points the grid's default slots (constants/defaultGridSlotsComponents) here; everything else, Jest
 * included, uses the real modules.
 */
import { onDemand } from './onDemand';

export const GridToolbar = onDemand(
  () => import('../../node_modules/@mui/x-data-grid/components/toolbarV8/GridToolbar.mjs'),
  'GridToolbar',
);
export const GridColumnMenu = onDemand(
  () => import('../../node_modules/@mui/x-data-grid/components/menu/columnMenu/GridColumnMenu.mjs'),
  'GridColumnMenu',
);
