/**
 * Runs a file download (src/services/download.ts) for a component: token from the store, progress
 * as state, the file saved on success, errors as toasts, 301/302 ending the session as the baseQuery
 * does. Never touches the loading overlay: the caller shows `progress` instead.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { useStore } from 'react-redux';
import { Code } from '../../domain/codes';
import { redirectToLogin } from '../services/http';
import { DownloadError, downloadFile, saveBlob, type DownloadProgress, type QueryValue } from '../services/download';
import { loggedOut } from '../store/authSlice';
import type { RootState } from '../store';
import { toastShown } from '../store/toastSlice';

/** Progress re-renders at most this often (a large export arrives in thousands of chunks). */
export const PROGRESS_INTERVAL_MS = 100;

export interface DownloadState {
  busy: boolean;
  progress: DownloadProgress | null;
}

export interface StartOptions {
  params?: Record<string, QueryValue>;
  fallbackName?: string;
  /** Toast on success, default "导出成功"; false for none. */
  successText?: string | false;
}

export function useDownload() {
  const store = useStore<RootState>();
  const [state, setState] = useState<DownloadState>({ busy: false, progress: null });
  const controller = useRef<AbortController | null>(null);

  useEffect(() => () => controller.current?.abort(), []);

  const cancel = useCallback(() => controller.current?.abort(), []);

  /** Resolves true when the file was saved, false when it failed or was cancelled. */
  const start = useCallback(
    async (path: string, options: StartOptions = {}): Promise<boolean> => {
      if (controller.current) return false; // one export at a time per button
      const abort = new AbortController();
      controller.current = abort;
      setState({ busy: true, progress: { received: 0, total: null, percent: null } });
      // Throttled, with a trailing update so a stalled stream still shows its latest count.
      let last = 0;
      let lastPercent: number | null = null;
      let latest: DownloadProgress | null = null;
      let timer: ReturnType<typeof setTimeout> | null = null;
      const flush = () => {
        timer = null;
        if (!latest || abort.signal.aborted || controller.current !== abort) return;
        last = Date.now();
        lastPercent = latest.percent;
        setState({ busy: true, progress: latest });
      };
      try {
        const { blob, filename } = await downloadFile(path, {
          params: options.params,
          token: store.getState().auth.token,
          signal: abort.signal,
          fallbackName: options.fallbackName,
          onProgress: (progress) => {
            latest = progress;
            const wait = PROGRESS_INTERVAL_MS - (Date.now() - last);
            if (wait <= 0 || progress.percent !== lastPercent) flush();
            else timer ??= setTimeout(flush, wait);
          },
        });
        if (abort.signal.aborted) return false;
        saveBlob(blob, filename);
        if (options.successText !== false) store.dispatch(toastShown(options.successText ?? '导出成功', 'success'));
        return true;
      } catch (error) {
        if (abort.signal.aborted) return false;
        if (error instanceof DownloadError) {
          if (error.code === Code.notLoggedIn || error.code === Code.sessionEnded) {
            store.dispatch(loggedOut());
            redirectToLogin();
          } else {
            store.dispatch(toastShown(error.message, 'error'));
          }
        } else {
          store.dispatch(toastShown(error instanceof Error && error.message ? error.message : '导出失败', 'error'));
        }
        return false;
      } finally {
        if (timer) clearTimeout(timer);
        if (controller.current === abort) controller.current = null;
        setState({ busy: false, progress: null });
      }
    },
    [store],
  );

  return { ...state, start, cancel };
}

export default useDownload;
