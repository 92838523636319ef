/**
 * Code that a page rarely renders, loaded the first time it does (React.lazy in its own Suspense,
 * showing nothing meanwhile), so it stays out of the page's first download.
 *
 *   const Calendar = onDemand(() => import('./DayCalendar'));                        // default export
 *   const Panel = onDemand(() => import('./panels'), 'FilterPanel');                 // a named export
 *
 * A dialog or drawer loaded this way mounts when it first opens and stays mounted afterwards (so it
 * plays its closing transition): `{useOpenedOnce(open) ? <Dialog open={open} … /> : null}`.
 */
import { lazy, Suspense, useState, type ComponentType } from 'react';

export function onDemand<M extends object>(
  load: () => Promise<M>,
  name: keyof M | 'default' = 'default',
): ComponentType<any> {
  const Lazy = lazy(async () => ({ default: (await load())[name as keyof M] as ComponentType<any> }));
  return function OnDemand(props: Record<string, unknown>) {
    return (
      <Suspense fallback={null}>
        <Lazy {...props} />
      </Suspense>
    );
  };
}

/** False until `open` is first true, then true for good. */
export function useOpenedOnce(open: boolean): boolean {
  const [opened, setOpened] = useState(open);
  if (open && !opened) setOpened(true);
  return opened || open;
}
