/**
 * Whether the logged-in manager's role holds a permission code (domain/permissions.ts). The codes are
 * fetched once per session by `GET /v1/admin/user/permissions` (no roleId) and shared through the RTK
 * Query cache: any number of useCan calls, rows or buttons make one request; logout resets the cache.
 * Hiding a button is comfort only; the server checks every call.
 */
import { useMemo } from 'react';
import { useGetPermissionsQuery } from '../services/generated/system';
import { useAppSelector } from '../store/hooks';

/** The one cache key of the caller's own permissions (a roleId would ask about another role). */
const OWN = {};

export interface Permissions {
  codes: ReadonlySet<string>;
  /** True until the codes are known; `can` answers false meanwhile. */
  isLoading: boolean;
  /** Holds the code, or any of the codes of a list. */
  can: (code: string | readonly string[]) => boolean;
}

export function usePermissions(): Permissions {
  const loggedIn = useAppSelector((state) => Boolean(state.auth.token));
  const { data, isLoading } = useGetPermissionsQuery(OWN, { skip: !loggedIn });
  return useMemo(() => {
    // The hook may keep the last data while skipped: a logged-out screen holds nothing.
    const codes = new Set(loggedIn ? (data?.codes ?? []) : []);
    const can = (code: string | readonly string[]) =>
      typeof code === 'string' ? codes.has(code) : code.some((c) => codes.has(c));
    return { codes, isLoading: loggedIn && isLoading, can };
  }, [data, isLoading, loggedIn]);
}

export function useCan(code: string | readonly string[]): boolean {
  return usePermissions().can(code);
}

export default useCan;
