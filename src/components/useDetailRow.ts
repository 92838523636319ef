/**
 * The row a list page's detail drawer shows: as the list now has it (after an action, a live refetch).
 * Once the loaded list no longer holds it (an action took it off a status-filtered list, a new row
 * pushed it to the next page) the drawer closes for good, rather than show a state the record has
 * left or reopen by itself when the row comes back.
 */
import { useEffect, useState } from 'react';

export function useDetailRow<R extends { id: number }>(list: R[] | undefined, isFetching: boolean) {
  const [id, setId] = useState<number | null>(null);
  const row = id === null ? null : (list?.find((r) => r.id === id) ?? null);
  useEffect(() => {
    if (id !== null && list && !isFetching && !row) setId(null);
  }, [id, list, isFetching, row]);
  return { row, open: (r: R) => setId(r.id), close: () => setId(null) };
}
