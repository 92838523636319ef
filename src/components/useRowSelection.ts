/**
 * Selected rows of a list for batch actions (batch approve, batch delete). Kept apart from the URL
 * state: a selection is a working set, not a place to come back to. Ids stay selected across pages
 * (ListPage sets keepNonExistentRowsSelected) until `clear()` after the batch is done.
 */
import { useCallback, useMemo, useState } from 'react';
import type { GridRowId, GridRowSelectionModel } from '@mui/x-data-grid';

export interface RowSelection<Id extends GridRowId = GridRowId> {
  /** The selected row ids, in the order they were picked. */
  ids: Id[];
  model: GridRowSelectionModel;
  setModel: (model: GridRowSelectionModel) => void;
  clear: () => void;
}

const empty = (): GridRowSelectionModel => ({ type: 'include', ids: new Set() });

export function useRowSelection<Id extends GridRowId = number>(): RowSelection<Id> {
  const [model, setModelState] = useState<GridRowSelectionModel>(empty);
  const setModel = useCallback((next: GridRowSelectionModel) => setModelState(next), []);
  const clear = useCallback(() => setModelState(empty()), []);
  // ListPage turns off the "all but these" model, so the ids are always the selected ones.
  const ids = useMemo(() => [...model.ids] as Id[], [model]);
  return { ids, model, setModel, clear };
}

export default useRowSelection;
