/**
 * A column of a list table (DataTable): what the pages declare, in the shape MUI X's GridColDef taught
 * them (field, headerName, width, flex, valueGetter, valueFormatter, renderCell), so a page reads the
 * same as before the table became our own (docs/decisions.md "Tables").
 */
import type { ReactNode } from 'react';

export type RowId = string | number;
export type Align = 'left' | 'right' | 'center';
export type Density = 'compact' | 'standard' | 'comfortable';

export interface CellParams<R> {
  row: R;
  /** The row's value of the field, or what the column's valueGetter made of it. */
  value: unknown;
  field: string;
}

export interface Column<R> {
  /** The row's property (also the key of the column's settings and its cells' `data-field`). */
  field: string;
  headerName: string;
  /** Width in px; a column without one takes a share of what is left (at least `minWidth`). */
  width?: number;
  minWidth?: number;
  maxWidth?: number;
  /** Kept for pages written for the grid: any flex makes the column share the rest. */
  flex?: number;
  align?: Align;
  headerAlign?: Align;
  /** The server sorts only whitelisted fields: a column is sortable only when it says so. */
  sortable?: boolean;
  valueGetter?: (value: never, row: R) => unknown;
  /** Text of the value; an empty result shows '-'. */
  valueFormatter?: (value: never, row: R) => unknown;
  /** The cell's content itself (then nothing is added, not even '-'). */
  renderCell?: (params: CellParams<R>) => ReactNode;
  /** Kept in view while the table scrolls sideways (on screens wider than 800 px): ID and member left, 操作 right. */
  pin?: 'left' | 'right';
  /** False: the column settings cannot hide it (操作). */
  hideable?: boolean;
}

/** The width a column starts with before any resize. */
export function baseWidth(c: Pick<Column<unknown>, 'width' | 'minWidth'>): number {
  return c.width ?? c.minWidth ?? 120;
}
