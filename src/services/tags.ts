/**
 * The one place that says how a module's cache tags work, so every `services/<module>.ts` reads the
 * same: a list query provides its type's LIST tag (`providesList`), and a change invalidates its tags
 * (`invalidates`) by one rule: always, unless the call never got an answer (a transport failure,
 * code 0). A refusal (a 409: someone else changed the row; a validation error) refetches too, since
 * the page may be showing a stale row.
 */
import type { ApiError } from './http';

export const LIST = 'LIST' as const;

/** What a movement of money makes stale on other pages: balances, member rows and bills. */
export const MONEY_MOVED = ['Asset', 'Member', 'Bill'] as const;

type Tag<T extends string> = T | { type: T; id?: string | number };

/** `providesTags` of a list query: the type's LIST tag (plus any extra tags the list shows). */
export function providesList<const T extends string>(type: T, ...extra: Tag<T>[]): Tag<T>[] {
  return [{ type, id: LIST }, ...extra];
}

/** `invalidatesTags` of a change: its tags (fixed, or computed from the argument) by the one rule above. */
export function invalidates<const T extends string, Arg = unknown>(tags: readonly Tag<T>[] | ((arg: Arg) => Tag<T>[])) {
  return (_result: unknown, error: ApiError | undefined, arg: Arg): Tag<T>[] => {
    if (error?.code === 0) return [];
    return typeof tags === 'function' ? tags(arg) : [...tags];
  };
}
