/**
 * Promise-based confirmation: `await confirm({...})`. The hook owns one ConfirmDialog; render the
 * returned element once in the component that asks. A question asked while another is open cancels
 * the first (its promise resolves as a cancel) rather than stacking dialogs.
 */
import { useCallback, useEffect, useRef, useState, type ReactElement } from 'react';
import { ConfirmDialog, type ConfirmOptions, type RemarkOptions } from './ConfirmDialog';

export interface Confirm {
  /** With a remark: the trimmed remark on confirm, null on cancel. */
  (options: ConfirmOptions & { remark: RemarkOptions }): Promise<string | null>;
  /** true on confirm, false on cancel. */
  (options: ConfirmOptions): Promise<boolean>;
}

type Pending = { options: ConfirmOptions; resolve: (result: boolean | string | null) => void };

export function useConfirm(): [Confirm, ReactElement] {
  const [pending, setPending] = useState<Pending | null>(null);
  const [open, setOpen] = useState(false);
  const current = useRef<Pending | null>(null);

  const settle = useCallback((result: boolean | string | null) => {
    const p = current.current;
    current.current = null;
    setOpen(false);
    p?.resolve(result);
  }, []);

  const confirm = useCallback(
    (options: ConfirmOptions) =>
      new Promise<boolean | string | null>((resolve) => {
        if (current.current) settle(current.current.options.remark ? null : false);
        const next = { options, resolve };
        current.current = next;
        setPending(next);
        setOpen(true);
      }),
    [settle],
  ) as Confirm;

  // Leaving the page while asked counts as a cancel, so no await hangs forever.
  useEffect(
    () => () => {
      const p = current.current;
      current.current = null;
      p?.resolve(p.options.remark ? null : false);
    },
    [],
  );

  // The options stay set while the dialog fades out, so its text does not flash empty.
  const element = <ConfirmDialog open={open} options={pending?.options ?? null} onClose={settle} />;
  return [confirm, element];
}

export default useConfirm;
