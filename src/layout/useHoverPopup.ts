import { useCallback, useEffect, useRef, useState } from 'react';

/**
 * Open/close state of a popup driven by hovering: it shows `delay` ms after the pointer enters its
 * anchor and hides `delay` ms after the pointer has left both the anchor and the popup, so moving
 * from one to the other keeps it open. A click on the anchor toggles at once (touch screens).
 */
export function useHoverPopup(delay: number) {
  const [open, setOpen] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  const cancel = useCallback(() => {
    if (timer.current !== null) clearTimeout(timer.current);
    timer.current = null;
  }, []);
  const schedule = useCallback(
    (next: boolean) => {
      cancel();
      timer.current = setTimeout(() => {
        timer.current = null;
        setOpen(next);
      }, delay);
    },
    [cancel, delay],
  );
  const close = useCallback(() => {
    cancel();
    setOpen(false);
  }, [cancel]);

  useEffect(() => cancel, [cancel]);

  return {
    open,
    close,
    anchorProps: {
      onMouseEnter: () => schedule(true),
      onMouseLeave: () => schedule(false),
      onClick: () => {
        cancel();
        setOpen((o) => !o);
      },
    },
    popupProps: {
      // Re-entering the popup before the hide delay has run keeps it open.
      onMouseEnter: cancel,
      onMouseLeave: () => schedule(false),
    },
  };
}
