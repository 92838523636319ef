import { useCallback, useEffect, useRef, useState } from 'react';

/**
 * Open/close state of a popup driven by hovering: it shows `delay` ms after the pointer enters its
 * anchor and hides `delay` ms after the pointer has left both the anchor and the popup, so moving
 * from one to the other keeps it open. A click on the anchor opens it at once; a tap or the keyboard
 * toggles it (touch screens have no hover to close it by). A mouse click never closes it: the hover
 * may have opened it a moment before the click, and a click that then closed it would take the menu
 * away from under the pointer (it did, on a loaded machine, between a browser test's move and click).
 */
export function useHoverPopup(delay: number) {
  const [open, setOpen] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  /** The kind of pointer that pressed the anchor last ('' for the keyboard). */
  const pointer = useRef('');

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
      onPointerDown: (e: { pointerType: string }) => {
        pointer.current = e.pointerType;
      },
      onClick: (e: { detail: number }) => {
        cancel();
        // A click the keyboard made (Enter, Space) has no count: a press that never became a click (dragged
        // off the button) leaves its pointer type behind, which must not turn the next key into a mouse.
        const mouse = pointer.current === 'mouse' && e.detail > 0;
        pointer.current = '';
        setOpen((o) => mouse || !o);
      },
    },
    popupProps: {
      // Re-entering the popup before the hide delay has run keeps it open.
      onMouseEnter: cancel,
      onMouseLeave: () => schedule(false),
    },
  };
}
