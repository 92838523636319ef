/**
 * What a manager set up for himself and finds again at his next visit: the sidebar's collapse, each
 * table's columns and density. Kept in this browser's localStorage under the manager's user name, one
 * JSON object per manager (`lz-admin-prefs:<username>`), so two managers sharing a browser each keep
 * their own and nothing of it reaches the server (docs/decisions.md "Tables").
 */
import { useCallback, useState } from 'react';
import { useAppSelector } from '../store/hooks';

const PREFIX = 'lz-admin-prefs:';
/** The sidebar collapsed (true) or not, as the manager last chose with its button. */
export const SIDEBAR_PREF = 'sidebarCollapsed';

function readAll(username: string): Record<string, unknown> {
  try {
    const raw = window.localStorage.getItem(PREFIX + username);
    const parsed: unknown = raw ? JSON.parse(raw) : {};
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

export function readPref(username: string | null, key: string): unknown {
  return username ? readAll(username)[key] : undefined;
}

/** Writes one preference (undefined removes it); a full or refused storage only loses the preference. */
export function writePref(username: string | null, key: string, value: unknown): void {
  if (!username) return;
  const all = readAll(username);
  if (value === undefined) delete all[key];
  else all[key] = value;
  try {
    window.localStorage.setItem(PREFIX + username, JSON.stringify(all));
  } catch {
    // Private mode or a full storage: the setting holds for this visit only.
  }
}

/**
 * One preference of the signed-in manager as state: `parse` turns what is stored (anything, possibly
 * from an older version) into a valid value.
 */
export function usePref<T>(key: string, parse: (stored: unknown) => T): [T, (next: T | undefined) => void] {
  const username = useAppSelector((s) => s.auth.username);
  const [state, setState] = useState(() => ({ username, key, value: parse(readPref(username, key)) }));
  let value = state.value;
  if (state.username !== username || state.key !== key) {
    value = parse(readPref(username, key));
    setState({ username, key, value });
  }
  const set = useCallback(
    (next: T | undefined) => {
      writePref(username, key, next);
      setState({ username, key, value: next === undefined ? parse(undefined) : next });
    },
    // `parse` is a module-level function at every call site.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [username, key],
  );
  return [value, set];
}
