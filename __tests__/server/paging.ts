/**
 * The keyset paging check the big lists' tests share: a list read by cursor (forward by each page's
 * `next`, back by each page's `prev`) gives exactly the pages it gives by page number.
 */

/** One list call: the query in, the API envelope out. */
export type ListCall = (query: Record<string, unknown>) => Promise<{ code: number; data: any }>;

/**
 * Reads every page of `query` by page number, then again forward from the first page by `after` (the
 * previous page's `next`) and back from the last by `before` (the following page's `prev`), and expects
 * the same pages each way: every answer 200 with the first page's total, more than one page, each page
 * full but the last, nothing past either end (no rows, no cursors). Returns the ids in list order.
 */
export async function expectCursorPagingMatchesOffset(
  list: ListCall,
  query: Record<string, unknown>,
  size: number,
  idOf: (row: any) => number = (row: { id: number }) => row.id,
): Promise<number[]> {
  const q = query; // named in every expectation, so a failure says which case
  const ids = (r: { data: { list: unknown[] } }) => r.data.list.map(idOf);
  const first = await list({ ...q, size });
  expect({ q, code: first.code }).toEqual({ q, code: 200 });
  const total: number = first.data.total;
  const pages = Math.ceil(total / size);
  expect({ q, morePagesThanOne: pages > 1 }).toEqual({ q, morePagesThanOne: true });

  const byOffset: number[][] = [];
  for (let p = 1; p <= pages; p++) {
    const r = await list({ ...q, size, page: p });
    expect({ q, p, code: r.code, total: r.data.total }).toEqual({ q, p, code: 200, total });
    byOffset.push(ids(r));
  }
  expect({ q, sizes: byOffset.map((page) => page.length) }).toEqual({
    q,
    sizes: byOffset.map((_, i) => (i < pages - 1 ? size : total - size * (pages - 1))),
  });

  const byCursor = [first];
  for (let p = 2; p <= pages; p++) {
    const r = await list({ ...q, size, page: p, after: byCursor[p - 2].data.next });
    expect({ q, p, code: r.code, total: r.data.total }).toEqual({ q, p, code: 200, total });
    byCursor.push(r);
  }
  expect({ q, pages: byCursor.map(ids) }).toEqual({ q, pages: byOffset });
  const past = await list({ ...q, size, after: byCursor[pages - 1].data.next });
  expect({ q, past: past.data }).toMatchObject({ q, past: { list: [], next: null, prev: null } });

  for (let p = pages - 1; p >= 1; p--) {
    const r = await list({ ...q, size, page: p, before: byCursor[p].data.prev });
    expect({ q, p, code: r.code, ids: ids(r) }).toEqual({ q, p, code: 200, ids: byOffset[p - 1] });
  }
  const before = await list({ ...q, size, before: first.data.prev });
  expect({ q, before: before.data }).toMatchObject({ q, before: { list: [], next: null, prev: null } });
  return byOffset.flat();
}
