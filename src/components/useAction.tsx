/**
 * A manager's action from a page, the one way: ask (optional) → call → success toast. A refusal of
 * the server is toasted once, by the store (every rejected API call is); the action then resolves as
 * not done. Anything else that throws is a bug and propagates: nothing is swallowed.
 *
 *   const [run, actionDialog] = useAction();
 *   await run({ confirm: { content: '确认删除？', danger: true }, call: () => remove({ body }).unwrap(),
 *     success: '删除成功' });
 *   // With a remark: `confirm: { content, remark: {} }`, and `call: (remark) => …`.
 *
 * Render `actionDialog` once in the component (it is useConfirm's dialog).
 */
import { useCallback, type ReactElement } from 'react';
import { useAppDispatch } from '../store/hooks';
import { toastShown } from '../store/toastSlice';
import type { ConfirmOptions } from './ConfirmDialog';
import { useConfirm } from './useConfirm';

export interface ActionOptions<T> {
  /** Asked first; a cancel ends the action. With `remark`, the typed remark is passed to `call`. */
  confirm?: ConfirmOptions;
  /** The call, unwrapped: `() => save({ body }).unwrap()`. */
  call: (remark: string | undefined) => Promise<T>;
  /** The toast after a success, or a function of the result (no toast when it returns undefined). */
  success?: string | ((result: T) => string | undefined);
}

/** `{ result }` when the call succeeded; null when cancelled or refused (the refusal is toasted). */
export type RunAction = <T>(options: ActionOptions<T>) => Promise<{ result: T } | null>;

/** An API refusal as the baseQuery gives it: `{ code, msg }`; the store has toasted it already. */
export function isApiError(error: unknown): error is { code: number; msg: string } {
  return (
    !!error &&
    typeof error === 'object' &&
    typeof (error as { code?: unknown }).code === 'number' &&
    typeof (error as { msg?: unknown }).msg === 'string'
  );
}

export function useAction(): [RunAction, ReactElement] {
  const [confirm, confirmDialog] = useConfirm();
  const dispatch = useAppDispatch();
  const run = useCallback<RunAction>(
    async ({ confirm: ask, call, success }) => {
      let remark: string | undefined;
      if (ask?.remark) {
        const text = await confirm({ ...ask, remark: ask.remark });
        if (text === null) return null;
        remark = text;
      } else if (ask && !(await confirm(ask))) return null;
      let result;
      try {
        result = await call(remark);
      } catch (error) {
        if (isApiError(error)) return null;
        throw error;
      }
      const text = typeof success === 'function' ? success(result) : success;
      if (text) dispatch(toastShown(text, 'success'));
      return { result };
    },
    [confirm, dispatch],
  );
  return [run, confirmDialog];
}

export default useAction;
