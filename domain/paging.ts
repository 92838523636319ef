/**
 * Paging of the big lists (server/db/keyset.ts): a page number reaches the first MAX_OFFSET rows;
 * past them the console pages with the cursors a list answers (`next` → `after`, `prev` → `before`).
 */
export const MAX_OFFSET = 10_000;

/**
 * A cursor as lists answer it and take it back: `<sort value>_<id>`, both integers; the sort value may
 * be negative (a product's 排序).
 */
export const CURSOR_PATTERN = '^-?\\d{1,16}_\\d{1,16}$';
