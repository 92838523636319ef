/**
 * Selected rows of a list for batch actions (batch approve, batch delete). Kept apart from the URL
 * state: a selection is a working set, not a place to come back to. Ids stay selected across pages
 * until `clear()` after the batch is done.
 */
import { useCallback, useMemo, useState } from 'react';
import type { RowId } from './table/columnTypes';

export interface RowSelection<Id extends RowId = RowId> {
  /** The selected row ids, in the order they were picked. */
  ids: Id[];
  selected: ReadonlySet<RowId>;
  /** Selects (`on`) or unselects rows. */
  toggle: (ids: RowId[], on: boolean) => void;
  clear: () => void;
}

export function useRowSelection<Id extends RowId = number>(): RowSelection<Id> {
  // A Set keeps insertion order: the ids come out in the order they were picked.
  const [selected, setSelected] = useState<ReadonlySet<RowId>>(() => new Set());
  const toggle = useCallback(
    (ids: RowId[], on: boolean) =>
      setSelected((current) => {
        const next = new Set(current);
        for (const id of ids) {
          if (on) next.add(id);
          else next.delete(id);
        }
        return next;
      }),
    [],
  );
  const clear = useCallback(() => setSelected(new Set()), []);
  const ids = useMemo(() => [...selected] as Id[], [selected]);
  return { ids, selected, toggle, clear };
}

export default useRowSelection;
