/**
 * `createPopper` for MUI's Popper (tooltips, the header and sidebar popups, the grid's menus) that
 * loads @popperjs/core the first time a popup opens instead of with every page of the shell (it is
 * ~19 KB minified and no page shows a popup before the user points at something).
 * webpack/onDemand.js points @mui/material/Popper/BasePopper's import of @popperjs/core here; Jest uses
 * the real module.
 *
 * The instance it returns forwards to the real one once loaded. Until then the popup is hidden
 * (`visibility`), so it never shows unplaced; MUI calls only update(), forceUpdate() and destroy().
 */
import type { Instance, Options, VirtualElement } from '@popperjs/core';

type Core = typeof import('@popperjs/core');
let core: Promise<Core> | null = null;
const loadCore = () => (core ??= import('@popperjs/core'));

export function createPopper(
  reference: Element | VirtualElement,
  popper: HTMLElement,
  options?: Partial<Options>,
): Instance {
  let real: Instance | null = null;
  let destroyed = false;
  let pendingOptions = options;
  const visibility = popper.style.visibility;
  popper.style.visibility = 'hidden';

  const instance = {
    get state() {
      return (real?.state ?? {}) as Instance['state'];
    },
    update: () => (real ? real.update() : Promise.resolve(instance.state)),
    forceUpdate: () => real?.forceUpdate(),
    setOptions: (next: Parameters<Instance['setOptions']>[0]) => {
      if (real) return real.setOptions(next);
      pendingOptions = typeof next === 'function' ? next(pendingOptions as Options) : { ...pendingOptions, ...next };
      return Promise.resolve(instance.state);
    },
    destroy: () => {
      destroyed = true;
      real?.destroy();
      popper.style.visibility = visibility;
    },
  };
  void loadCore().then(({ createPopper: create }) => {
    if (destroyed) return;
    real = create(reference, popper, pendingOptions);
    popper.style.visibility = visibility;
  });
  return instance as Instance;
}
