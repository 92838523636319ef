/**
 * Parts of the DataGrid that our list pages never render, loaded the first time one does render
 * instead of with every list page: the filter panel and its inputs (every list sets
 * disableColumnFilter and filters on the server), the column management panel, and the edit and
 * long-text cells (no column is editable or of type longText). webpack/onDemand.js points the grid's
 * own imports of those modules here (same export names); everything else, Jest included, uses the
 * real modules. Components of the grid's slots get the same treatment in ./gridSlotsOnDemand.
 */
import { onDemand } from './onDemand';

// The paths go around the package's `exports` (these modules are not public entry points) to the
// very modules the grid would have imported.
export const GridFilterPanel = onDemand(
  () => import('../../node_modules/@mui/x-data-grid/components/panel/filterPanel/GridFilterPanel.mjs'),
  'GridFilterPanel',
);
export const GridFilterInputValue = onDemand(
  () => import('../../node_modules/@mui/x-data-grid/components/panel/filterPanel/GridFilterInputValue.mjs'),
  'GridFilterInputValue',
);
export const GridFilterInputMultipleValue = onDemand(
  () => import('../../node_modules/@mui/x-data-grid/components/panel/filterPanel/GridFilterInputMultipleValue.mjs'),
  'GridFilterInputMultipleValue',
);
export const GridFilterInputDate = onDemand(
  () => import('../../node_modules/@mui/x-data-grid/components/panel/filterPanel/GridFilterInputDate.mjs'),
  'GridFilterInputDate',
);
export const GridFilterInputSingleSelect = onDemand(
  () => import('../../node_modules/@mui/x-data-grid/components/panel/filterPanel/GridFilterInputSingleSelect.mjs'),
  'GridFilterInputSingleSelect',
);
export const GridFilterInputMultipleSingleSelect = onDemand(
  () =>
    import('../../node_modules/@mui/x-data-grid/components/panel/filterPanel/GridFilterInputMultipleSingleSelect.mjs'),
  'GridFilterInputMultipleSingleSelect',
);
export const GridColumnsManagement = onDemand(
  () => import('../../node_modules/@mui/x-data-grid/components/columnsManagement/GridColumnsManagement.mjs'),
  'GridColumnsManagement',
);
export const GridEditInputCell = onDemand(
  () => import('../../node_modules/@mui/x-data-grid/components/cell/GridEditInputCell.mjs'),
  'GridEditInputCell',
);
export const GridEditDateCell = onDemand(
  () => import('../../node_modules/@mui/x-data-grid/components/cell/GridEditDateCell.mjs'),
  'GridEditDateCell',
);
export const GridEditBooleanCell = onDemand(
  () => import('../../node_modules/@mui/x-data-grid/components/cell/GridEditBooleanCell.mjs'),
  'GridEditBooleanCell',
);
export const GridEditSingleSelectCell = onDemand(
  () => import('../../node_modules/@mui/x-data-grid/components/cell/GridEditSingleSelectCell.mjs'),
  'GridEditSingleSelectCell',
);
export const GridEditLongTextCell = onDemand(
  () => import('../../node_modules/@mui/x-data-grid/components/cell/GridEditLongTextCell.mjs'),
  'GridEditLongTextCell',
);
export const GridLongTextCell = onDemand(
  () => import('../../node_modules/@mui/x-data-grid/components/cell/GridLongTextCell.mjs'),
  'GridLongTextCell',
);

type Params = Record<string, unknown>;
export const renderEditInputCell = (params: Params) => <GridEditInputCell {...params} />;
export const renderEditDateCell = (params: Params) => <GridEditDateCell {...params} />;
export const renderEditBooleanCell = (params: Params) => <GridEditBooleanCell {...params} />;
export const renderEditSingleSelectCell = (params: Params) => <GridEditSingleSelectCell {...params} />;
export const renderEditLongTextCell = (params: Params) => <GridEditLongTextCell {...params} />;
export const renderLongTextCell = (params: Params) => <GridLongTextCell {...params} />;
