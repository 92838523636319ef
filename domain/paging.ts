/**
 * Paging of the big lists (server/db/keyset.ts): a page number reaches the first MAX_OFFSET rows;
 * past them the console pages with the cursors a list answers (`next` → `after`, `prev` → `before`).
 */
export const MAX_OFFSET = 10_000;
