/**
 * A list's page statement compiled once per shape (ShapedPage): the page request's part of a shape (the
 * cursor's kind) and values, and the statement read with its cursors as readKeysetPage reads one.
 */
import type { Kysely, SelectQueryBuilder } from 'kysely';
import { inReadOrder, isEndOfList, keysetPageOf, type Keyset, type KeysetPageRequest } from './keyset';
import { ShapedQuery } from './shapes';

/** What of a page request changes its SQL (part of a ShapedQuery's shape): no cursor, its direction, or 末页. */
export type KeysetShape = 'page' | 'after' | 'before' | 'end';

/**
 * The values a page request binds (ShapedQuery): its offset and size, and its cursor's. Named `page_…`
 * so that no filter field of a list (merged into the same values) can take their place.
 */
export interface KeysetValues {
  page_offset: number;
  page_limit: number;
  page_cursor_value?: number;
  page_cursor_id?: number;
}

/** A page request's shape and values. */
function keysetParts(page: KeysetPageRequest): { shape: KeysetShape; values: KeysetValues } {
  const k = page.keyset;
  return {
    shape: !k ? 'page' : isEndOfList(k) ? 'end' : k.dir,
    values: { page_offset: page.offset, page_limit: page.limit, page_cursor_value: k?.value, page_cursor_id: k?.id },
  };
}

/** The page request a ShapedQuery's builder reads: the structure from `shape`, values only bound. */
function pageOfShape(shape: KeysetShape, order: 'asc' | 'desc', v: KeysetValues): KeysetPageRequest {
  const keyset: Keyset | undefined =
    shape === 'page'
      ? undefined
      : shape === 'end'
        ? { dir: 'before', value: 0, id: 0 }
        : { dir: shape, value: v.page_cursor_value!, id: v.page_cursor_id! };
  return { offset: v.page_offset, limit: v.page_limit, order, keyset };
}

/** What of a list's page changes its SQL: its filter's shape, sort, order, cursor kind and the list's own plan choice. */
export interface PageShape<F, X extends string> {
  filter: F;
  sort: X;
  order: 'asc' | 'desc';
  keyset: KeysetShape;
  /** A choice of the list's own that changes the statement (the member list: sort after a lookup). */
  plan: string;
}

/**
 * A list's page statement as a ShapedQuery (server/db/shapes.ts): built and compiled once per shape,
 * run with the filter's and the page's values. `build` makes the statement that shows the page's slice
 * (aliased `p`) for a shape, from `page` (the page request with slots for its values); it is read in the
 * order of `sortField` then id (inReadOrder) and answered with its cursors.
 */
export class ShapedPage<F, V extends object, X extends string, R extends { id: unknown }> {
  private readonly query: ShapedQuery<PageShape<F, X>, V & KeysetValues, R>;

  constructor(
    filterKey: (filter: F) => string,
    build: (
      db: Kysely<any>,
      s: PageShape<F, X>,
      v: V & KeysetValues,
      page: KeysetPageRequest,
    ) => SelectQueryBuilder<any, any, R>,
    private readonly sortField: (sort: X) => keyof R & string,
  ) {
    this.query = new ShapedQuery(
      (s: PageShape<F, X>) => `${filterKey(s.filter)} ${s.sort} ${s.order} ${s.keyset} ${s.plan}`,
      (db, s, v: V & KeysetValues) => {
        const page = pageOfShape(s.keyset, s.order, v);
        return inReadOrder(build(db as Kysely<any>, s, v, page), page, sortField(s.sort));
      },
    );
  }

  /** The page of `filter` (its shape and values) that `page` asks for, with its cursors. */
  async read(
    db: Kysely<any>,
    filter: { shape: F; values: V },
    page: KeysetPageRequest & { sort: X },
    plan = '',
  ): Promise<{ rows: R[]; next: string | null; prev: string | null }> {
    const k = keysetParts(page);
    const rows = await this.query.execute(
      db,
      { filter: filter.shape, sort: page.sort, order: page.order, keyset: k.shape, plan },
      { ...filter.values, ...k.values },
    );
    return keysetPageOf(rows, page, this.sortField(page.sort));
  }
}
