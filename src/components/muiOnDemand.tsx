/**
 * MUI components that other modules import but our pages never render, loaded the first time one
 * does render instead of with every page. webpack/onDemand.js points those imports here, through
 * ./muiOnDemandDefault (`?<Name>` picks the component):
 * - in the DataGrid's material slots (@mui/x-data-grid/material): Tabs, Tab, ToggleButton and Switch
 *   serve Pro and Premium panels; Autocomplete, Badge, Divider and FormControlLabel only the filter
 *   panel, multi-column sorting, the column menu and the column management panel;
 * - in TextField and Select: Input and FilledInput, the `standard` and `filled` variants (every
 *   field here is `outlined`);
 * - in Tabs: TabScrollButton, shown only by scrollable tabs (ours are not).
 * Everything else imports the real modules; Jest does not go through webpack and uses them too.
 */
import type { ComponentType } from 'react';
import { onDemand } from './onDemand';

/** MUI finds inputs among a FormControl's children by this static name. */
const asInput = (component: ComponentType<any>) => Object.assign(component, { muiName: 'Input' });

export const Autocomplete = onDemand(() => import('@mui/material/Autocomplete'));
export const Badge = onDemand(() => import('@mui/material/Badge'));
export const Divider = onDemand(() => import('@mui/material/Divider'));
export const FilledInput = asInput(onDemand(() => import('@mui/material/FilledInput')));
export const FormControlLabel = onDemand(() => import('@mui/material/FormControlLabel'));
export const Input = asInput(onDemand(() => import('@mui/material/Input')));
export const Switch = onDemand(() => import('@mui/material/Switch'));
export const Tab = onDemand(() => import('@mui/material/Tab'));
export const Tabs = onDemand(() => import('@mui/material/Tabs'));
export const TabScrollButton = onDemand(() => import('@mui/material/TabScrollButton'));
export const ToggleButton = onDemand(() => import('@mui/material/ToggleButton'));
