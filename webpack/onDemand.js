// The stand-ins of the client build (see docs/decisions.md, "Code the pages never render is loaded on
// demand" and "Upgrading MUI"): imports made inside MUI's own files that webpack points at a file of
// ours instead. They name MUI's internal file paths, which no semver promise covers, so a production
// build fails when one of them no longer matches (an upgrade must not silently grow the bundle).
// Only these importers are redirected; Jest uses the real modules.
//
// What is redirected:
// - src/components/muiOnDemand.tsx (default imports through muiOnDemandDefault.ts?<Name>): the
//   `standard` / `filled` inputs of TextField and Select, Tabs' scroll buttons;
// - src/popperOnDemand.ts: @popperjs/core, for MUI's Popper, loaded when a popup first opens.
// And one replacement that is not on demand but drops code: src/muiWithoutCssVars.ts, MUI's
// CSS-variables theme code, which our themes never reach (no `cssVariables`, no `colorSchemes`;
// __tests__/src/theme.test.ts checks that).
const path = require('node:path');
const webpack = require('webpack');

const ROOT = path.resolve(__dirname, '..');

/** A path inside node_modules (`/` for either slash), as a pattern over an importer's absolute path. */
const nm = (p) => new RegExp(`[\\\\/]node_modules[\\\\/]${p.replace(/\./g, '\\.').replace(/\//g, '[\\\\/]')}`);

// Each rule: an import of `request(name)`, for each of its `names`, made by a module whose path has
// `node_modules/<issuer>` in it (`issuer` may hold a regular expression's `(a|b)`), goes to
// `to(name)`, a file relative to the project root. A request is matched as the library writes it;
// one starting with `*` matches any request ending with the rest (`*/Input.mjs` would match
// `../Input/Input.mjs`). Every request of every rule must be redirected at
// least once in a production build (StandInsPlugin).
const STAND_INS = [
  {
    issuer: '@mui/material/Popper/BasePopper.mjs',
    names: ['@popperjs/core'],
    request: (name) => name,
    to: () => 'src/popperOnDemand.ts',
  },
  {
    issuer: '@mui/material/(TextField/TextField|Select/Select|Tabs/Tabs).mjs',
    names: ['Input', 'FilledInput', 'TabScrollButton'],
    request: (name) => `../${name}/index.mjs`,
    to: (name) => `src/components/muiOnDemandDefault.ts?${name}`,
  },
  {
    issuer: '@mui/material/styles/(createTheme|ThemeProvider).mjs',
    names: ['createThemeWithVars', 'ThemeProviderWithVars'],
    request: (name) => `./${name}.mjs`,
    to: () => 'src/muiWithoutCssVars.ts',
  },
];

/** Every (rule, name) pair: its request (exact, or the ending to look for) and its stand-in. */
const TARGETS = STAND_INS.flatMap((rule) =>
  rule.names.map((name) => {
    const request = rule.request(name);
    const suffix = request.startsWith('*') ? request.slice(1) : null;
    return { issuer: rule.issuer, issuerPattern: nm(rule.issuer), request, suffix, to: rule.to(name) };
  }),
);

/** The target an import of `request` from the module at `issuer` is redirected by, if any. */
function standInFor(issuer, request) {
  for (const t of TARGETS) {
    if (t.suffix === null ? request !== t.request : !request.endsWith(t.suffix)) continue;
    if (t.issuerPattern.test(issuer)) return t;
  }
  return null;
}

/**
 * Redirects the imports of STAND_INS and, with `strict` (the production build), fails the build for
 * every one of them that was never made: MUI moved or renamed the file or stopped importing it, and
 * the module the stand-in was for is probably back in the bundle. Counted per compilation, from the
 * module factory's `beforeResolve` (with `module.unsafeCache`, as in watch mode, a rebuild reuses
 * earlier resolutions: strict is for one-off builds).
 */
class StandInsPlugin {
  constructor({ strict = false } = {}) {
    this.strict = strict;
  }

  apply(compiler) {
    const NAME = 'StandInsPlugin';
    let seen = new Set();
    compiler.hooks.thisCompilation.tap(NAME, (compilation) => {
      seen = new Set();
      if (!this.strict) return;
      compilation.hooks.finishModules.tap(NAME, () => {
        const missing = TARGETS.filter((t) => !seen.has(t));
        if (missing.length === 0) return;
        const error = new webpack.WebpackError(
          `${missing.length} stand-in rule(s) of webpack/onDemand.js matched no import:\n` +
            missing.map((t) => `  - ${t.request} imported from node_modules/${t.issuer} (→ ${t.to})\n`).join('') +
            'The installed MUI packages no longer import these files by these paths, so the code they stand\n' +
            'for may be in the bundle again. Find where the new version imports it, update the rule (and the\n' +
            'stand-in if its exports changed), or remove a rule whose code is gone; then `npm run size`.\n' +
            'See "Upgrading MUI" in docs/decisions.md.',
        );
        error.hideStack = true;
        compilation.errors.push(error);
      });
    });
    compiler.hooks.normalModuleFactory.tap(NAME, (factory) => {
      factory.hooks.beforeResolve.tap(NAME, (data) => {
        const target = standInFor(data.contextInfo?.issuer || '', data.request);
        if (!target) return;
        data.request = path.resolve(ROOT, target.to);
        seen.add(target);
      });
    });
  }
}

module.exports = { STAND_INS, TARGETS, StandInsPlugin, standInFor };
