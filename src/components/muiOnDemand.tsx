/**
 * MUI components that other modules import but our pages never render, loaded the first time one
 * does render instead of with every page. webpack/onDemand.js points those imports here, through
 * ./muiOnDemandDefault (`?<Name>` picks the component):
 * - in TextField and Select: Input and FilledInput, the `standard` and `filled` variants (every
 *   field here is `outlined`);
 * - in Tabs: TabScrollButton, shown only by scrollable tabs (ours are not).
 * Everything else imports the real modules; Jest does not go through webpack and uses them too.
 */
import type { ComponentType } from 'react';
import { onDemand } from './onDemand';

/** MUI finds inputs among a FormControl's children by this static name. */
const asInput = (component: ComponentType<any>) => Object.assign(component, { muiName: 'Input' });

export const FilledInput = asInput(onDemand(() => import('@mui/material/FilledInput')));
export const Input = asInput(onDemand(() => import('@mui/material/Input')));
export const TabScrollButton = onDemand(() => import('@mui/material/TabScrollButton'));
