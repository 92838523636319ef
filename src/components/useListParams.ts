/**
 * The headless half of every list page (in the spirit of react-admin's useListController): filters,
 * page, size and sort live in the URL query so that back/forward, reload and a shared link restore the
 * exact list. The view (ListPage) only reads and calls what this returns.
 *
 * URL shape: `?username=ab&status=1&page=3&size=50&sort=createdAt&order=desc`. Values equal to their
 * default are left out, so a fresh list has a clean URL. Only the filter names declared in
 * `defaults.filters` are read, so unrelated query keys (a `tab`, a `redirect`) are never sent.
 *
 * Big lists page by cursor (server/db/keyset.ts): 下一页 carries the `next` of the page on screen as
 * `after=…`, 上一页 its `prev` as `before=…`, so page 40,000 of a million rows is as quick as page 1 and
 * a reload or a shared link shows the same rows. Any other move (a page size, a sort, a filter, page 1)
 * drops the cursor.
 */
import { useCallback, useMemo, useState, type ChangeEvent } from 'react';
import { useSearchParams } from 'react-router-dom';
import { CURSOR_PATTERN } from '../../domain/paging';

export type SortOrder = 'asc' | 'desc';
export type FilterValues = Record<string, string>;

export const PAGE_SIZE_OPTIONS = [10, 20, 50, 100] as const;
export const DEFAULT_PAGE_SIZE = 20;

export interface ListDefaults<F extends FilterValues> {
  /** Every filter the page has, with its default value ('' for "no filter"). */
  filters?: F;
  size?: number;
  sort?: string;
  order?: SortOrder;
  /** Filters sent as numbers (an IntEnum status, a member id); a value that is not an integer is dropped. */
  numeric?: readonly (keyof F & string)[];
  /** Prefix of this list's URL keys, for a second list on one page (e.g. 'log.'). */
  prefix?: string;
}

/** The argument of a generated list hook: paging, sort and the non-empty filters, flat. */
export type ListQueryArgs<F extends FilterValues> = {
  page: number;
  size: number;
  sort?: string;
  order?: SortOrder;
  after?: string;
  before?: string;
} & { [K in keyof F]?: string | number };

/** Where a page starts when it was reached by 下一页 / 上一页 of a list that answers cursors. */
export interface PageCursor {
  after?: string;
  before?: string;
}

export interface ListParams<F extends FilterValues = FilterValues> {
  /** The applied filters (what the current query uses), as read from the URL. */
  filters: F;
  /** What the filter bar shows; applied by `search()`. */
  draft: F;
  page: number;
  size: number;
  sort?: string;
  order?: SortOrder;
  /** Changes one draft value without querying. */
  setDraft: (name: keyof F & string, value: string) => void;
  /** Props for a TextField/select bound to a draft value: `<TextField {...params.field('username')} />`. */
  field: (name: keyof F & string) => {
    name: string;
    value: string;
    onChange: (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => void;
  };
  /** Applies the draft (plus `patch`) as the filters and goes back to page 1; false when nothing changed. */
  search: (patch?: Partial<F>) => boolean;
  /** Replaces the applied filters (missing names fall back to their defaults) and goes to page 1. */
  setFilters: (next: Partial<F>) => void;
  /** Clears every filter back to its default and goes to page 1 (size and sort kept); false when nothing changed. */
  reset: () => boolean;
  /**
   * `replace` corrects the current history entry instead of adding one (a page past the end); `after` /
   * `before` say the page follows / precedes a row of the page on screen (its `next` / `prev`).
   */
  setPage: (page: number, opts?: { replace?: boolean } & PageCursor) => void;
  /** The cursor the current page was reached with, if any. */
  cursor: PageCursor;
  /** A new page size starts over at page 1. */
  setSize: (size: number) => void;
  /** A new sort starts over at page 1; no field clears the sort back to the default. */
  setSort: (sort?: string, order?: SortOrder) => void;
  /** Pass to the generated RTK Query hook: `useListManagersQuery(params.queryArgs)`. */
  queryArgs: ListQueryArgs<F>;
}

const POSITIVE_INT = /^[1-9]\d*$/;
const INTEGER = /^-?\d+$/;

function readPositive(raw: string | null, fallback: number, max = Number.MAX_SAFE_INTEGER): number {
  if (raw === null || !POSITIVE_INT.test(raw)) return fallback;
  const n = Number(raw);
  return n > max ? fallback : n;
}

interface UrlState<F extends FilterValues> {
  filters: F;
  page: number;
  size: number;
  sort?: string;
  order?: SortOrder;
  cursor: PageCursor;
}

const CURSOR = new RegExp(CURSOR_PATTERN);

export function useListParams<F extends FilterValues = FilterValues>(defaults: ListDefaults<F> = {}): ListParams<F> {
  const [searchParams, setSearchParams] = useSearchParams();
  const prefix = defaults.prefix ?? '';
  const defaultFilters = useMemo(() => defaults.filters ?? ({} as F), [defaults.filters]);
  const defaultSize = defaults.size ?? DEFAULT_PAGE_SIZE;
  const defaultSort = defaults.sort;
  const defaultOrder = defaults.order ?? (defaults.sort ? 'desc' : undefined);
  const numeric = defaults.numeric;
  // The defaults object is usually a literal re-created every render: key the memos on its content.
  const defaultsKey = JSON.stringify([prefix, defaultFilters, defaultSize, defaultSort, defaultOrder, numeric]);

  const state: UrlState<F> = useMemo(() => {
    const get = (key: string) => searchParams.get(prefix + key);
    const filters = { ...defaultFilters };
    for (const name of Object.keys(defaultFilters) as (keyof F & string)[]) {
      const value = get(name);
      if (value !== null) filters[name] = value as F[typeof name];
    }
    const rawOrder = get('order');
    const sort = get('sort') ?? defaultSort;
    const order: SortOrder | undefined =
      rawOrder === 'asc' || rawOrder === 'desc' ? rawOrder : sort ? (defaultOrder ?? 'desc') : undefined;
    const page = readPositive(get('page'), 1);
    const after = get('after');
    const before = get('before');
    // A cursor means something only past page 1, and only one of them.
    const cursor: PageCursor =
      page > 1 && after && CURSOR.test(after) ? { after } : page > 1 && before && CURSOR.test(before) ? { before } : {};
    return {
      filters,
      page,
      size: readPositive(get('size'), defaultSize, 100),
      sort: sort || undefined,
      order: sort ? order : undefined,
      cursor,
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [searchParams, defaultsKey]);

  /** Writes the state into the URL; says whether the URL changed (an unchanged one fetches nothing new). */
  const write = useCallback(
    (next: UrlState<F>, replace = false): boolean => {
      let changed = true;
      setSearchParams(
        (current) => {
          const params = new URLSearchParams(current);
          const put = (key: string, value: string | undefined, fallback: string | undefined) => {
            if (value === undefined || value === (fallback ?? '')) params.delete(prefix + key);
            else params.set(prefix + key, value);
          };
          for (const name of Object.keys(defaultFilters)) {
            const value = next.filters[name] ?? defaultFilters[name];
            // A filter cleared on purpose while its default is not empty must stay visible as `name=`.
            if (value === defaultFilters[name]) params.delete(prefix + name);
            else params.set(prefix + name, value);
          }
          put('page', String(next.page), '1');
          // Page 1 never carries a cursor: every move to it (search, reset, size, sort) drops it here.
          put('after', next.page > 1 ? next.cursor.after : undefined, undefined);
          put('before', next.page > 1 ? next.cursor.before : undefined, undefined);
          put('size', String(next.size), String(defaultSize));
          put('sort', next.sort, defaultSort);
          put('order', next.sort ? next.order : undefined, defaultSort ? defaultOrder : undefined);
          changed = params.toString() !== current.toString();
          return params;
        },
        { replace },
      );
      return changed;
    },
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [setSearchParams, defaultsKey],
  );

  // The draft follows the URL: a back/forward or reset shows the filters actually applied.
  const filtersKey = JSON.stringify(state.filters);
  const [draftState, setDraftState] = useState({ key: filtersKey, values: state.filters });
  let draft = draftState.values;
  if (draftState.key !== filtersKey) {
    draft = state.filters;
    setDraftState({ key: filtersKey, values: state.filters });
  }

  const setDraft = useCallback(
    (name: keyof F & string, value: string) =>
      setDraftState((s) => ({ key: s.key, values: { ...s.values, [name]: value } })),
    [],
  );

  const setFilters = useCallback(
    (next: Partial<F>) => write({ ...state, filters: { ...defaultFilters, ...next } as F, page: 1 }),
    [write, state, defaultFilters],
  );

  const search = useCallback(
    (patch?: Partial<F>) => write({ ...state, filters: { ...draft, ...patch } as F, page: 1 }),
    [write, state, draft],
  );

  const reset = useCallback(() => {
    setDraftState({ key: JSON.stringify(defaultFilters), values: defaultFilters });
    return write({ ...state, filters: defaultFilters, page: 1 });
  }, [write, state, defaultFilters]);

  const setPage = useCallback(
    (page: number, opts: { replace?: boolean } & PageCursor = {}) =>
      write(
        {
          ...state,
          page: Math.max(1, page),
          cursor: opts.after ? { after: opts.after } : opts.before ? { before: opts.before } : {},
        },
        opts.replace,
      ),
    [write, state],
  );
  const setSize = useCallback((size: number) => write({ ...state, size, page: 1 }), [write, state]);
  const setSort = useCallback(
    (sort?: string, order?: SortOrder) =>
      write({
        ...state,
        sort: sort || defaultSort,
        order: sort ? (order ?? 'asc') : defaultOrder,
        page: 1,
      }),
    [write, state, defaultSort, defaultOrder],
  );

  const field = useCallback(
    (name: keyof F & string) => ({
      name,
      value: draft[name] ?? '',
      onChange: (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => setDraft(name, event.target.value),
    }),
    [draft, setDraft],
  );

  const queryArgs = useMemo(() => {
    const args: Record<string, string | number> = { page: state.page, size: state.size };
    if (state.cursor.after) args.after = state.cursor.after;
    if (state.cursor.before) args.before = state.cursor.before;
    if (state.sort) {
      args.sort = state.sort;
      if (state.order) args.order = state.order;
    }
    for (const [name, raw] of Object.entries(state.filters)) {
      const value = raw.trim();
      if (value === '') continue;
      if ((numeric as readonly string[] | undefined)?.includes(name)) {
        if (INTEGER.test(value)) args[name] = Number(value);
        continue;
      }
      args[name] = value;
    }
    return args as ListQueryArgs<F>;
  }, [state, numeric]);

  return {
    filters: state.filters,
    draft,
    page: state.page,
    size: state.size,
    sort: state.sort,
    order: state.order,
    setDraft,
    field,
    search,
    setFilters,
    reset,
    setPage,
    cursor: state.cursor,
    setSize,
    setSort,
    queryArgs,
  };
}
