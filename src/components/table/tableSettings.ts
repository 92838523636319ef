/**
 * A table's columns as the manager set them up: hidden ones, their order, resized widths, the density.
 * Remembered per manager and table (layout/prefs). Stored values are read defensively: a column that
 * no longer exists, a width out of range or an unknown density is dropped, never trusted.
 */
import { usePref } from '../../layout/prefs';
import type { Column, Density } from './columnTypes';

export interface TableSettings {
  hidden: string[];
  /** Fields in the order the manager put them; fields not named keep their place after these. */
  order: string[];
  widths: Record<string, number>;
  density: Density;
}

export const DEFAULT_SETTINGS: TableSettings = { hidden: [], order: [], widths: {}, density: 'standard' };
const DENSITIES: readonly Density[] = ['compact', 'standard', 'comfortable'];
const FIELD = /^[A-Za-z_][\w.]{0,63}$/;

const fields = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((f): f is string => typeof f === 'string' && FIELD.test(f)).slice(0, 100) : [];

export function parseTableSettings(stored: unknown): TableSettings {
  if (!stored || typeof stored !== 'object') return DEFAULT_SETTINGS;
  const s = stored as Record<string, unknown>;
  const widths: Record<string, number> = {};
  if (s.widths && typeof s.widths === 'object') {
    for (const [field, w] of Object.entries(s.widths as Record<string, unknown>)) {
      if (FIELD.test(field) && typeof w === 'number' && Number.isInteger(w) && w >= 40 && w <= 1200) widths[field] = w;
    }
  }
  return {
    hidden: fields(s.hidden),
    order: fields(s.order),
    widths,
    density: DENSITIES.includes(s.density as Density) ? (s.density as Density) : 'standard',
  };
}

/**
 * The columns as shown: the manager's order (pinned-left ones first, pinned-right ones last, whatever the
 * order says), without the hidden ones, except those that cannot be hidden.
 */
export function arrangeColumns<R>(columns: Column<R>[], s: TableSettings): Column<R>[] {
  const rank = new Map(s.order.map((f, i) => [f, i]));
  const place = (c: Column<R>, i: number) => (rank.has(c.field) ? (rank.get(c.field) as number) : s.order.length + i);
  const group = (c: Column<R>) => (c.pin === 'left' ? 0 : c.pin === 'right' ? 2 : 1);
  return columns
    .map((c, i) => ({ c, i }))
    .filter(({ c }) => c.hideable === false || !s.hidden.includes(c.field))
    .sort((a, b) => group(a.c) - group(b.c) || place(a.c, a.i) - place(b.c, b.i))
    .map(({ c }) => c);
}

/** Moves a field one place up (-1) or down (+1) among the movable columns. */
export function moveColumn<R>(columns: Column<R>[], s: TableSettings, field: string, by: -1 | 1): TableSettings {
  const movable = arrangeColumns(columns, { ...s, hidden: [] })
    .filter((c) => !c.pin)
    .map((c) => c.field);
  const at = movable.indexOf(field);
  const to = at + by;
  if (at < 0 || to < 0 || to >= movable.length) return s;
  [movable[at], movable[to]] = [movable[to], movable[at]];
  return { ...s, order: movable };
}

/** The settings of one table (`key`, e.g. "withdrawList") for the signed-in manager. */
export function useTableSettings(key: string | undefined) {
  return usePref<TableSettings>(`table:${key ?? ''}`, parseTableSettings);
}
