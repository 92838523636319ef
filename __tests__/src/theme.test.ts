/**
 * The browser build leaves MUI's CSS-variables theme code out (src/muiWithoutCssVars.ts, see
 * webpack/onDemand.js): that is only right while no theme we build asks for CSS variables.
 */
import { theme } from '../../src/theme';

describe('theme', () => {
  it('needs no CSS variables', () => {
    expect('colorSchemes' in theme).toBe(false);
    expect((theme as { vars?: unknown }).vars).toBeUndefined();
  });
});
