/**
 * Stands for `@mui/material/<Name>` where webpack/onDemand.js redirects an import to
 * `muiOnDemandDefault.ts?<Name>`: the default export is ./muiOnDemand's component of that name.
 */
import type { ComponentType } from 'react';
import * as components from './muiOnDemand';

declare const __resourceQuery: string; // '?Tabs'

const component = (components as Record<string, ComponentType<any>>)[__resourceQuery.slice(1)];
if (!component) throw new Error(`muiOnDemand has no ${__resourceQuery.slice(1)}`);

export default component;
