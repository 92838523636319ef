/**
 * The stand-in rules of webpack/onDemand.js against the installed packages: every request a rule
 * names is still imported by a file its importer pattern matches, and every stand-in exists. The
 * production build checks the same on the real import graph (StandInsPlugin fails it); this says it
 * in a second after an `npm install` (see "Upgrading MUI" in docs/decisions.md).
 */
import fs from 'node:fs';
import path from 'node:path';

interface Target {
  issuer: string;
  issuerPattern: RegExp;
  request: string;
  to: string;
}
const { TARGETS, standInFor } = require('../../webpack/onDemand') as {
  TARGETS: Target[];
  standInFor(issuer: string, request: string): Target | null;
};

const root = path.resolve(__dirname, '../..');
const IMPORT = /(?:\bfrom\s*|\bimport\s*\(?\s*)["']([^"']+)["']/g;

/** The .mjs files under `dir`. */
function modules(dir: string): string[] {
  if (fs.statSync(dir).isFile()) return [dir];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' ? [] : modules(p);
    return e.name.endsWith('.mjs') ? [p] : [];
  });
}

/** The package folder or file an importer pattern starts at (`@mui/material/Popper/BasePopper.mjs`). */
function startOf(issuer: string): string {
  const plain = issuer.split('(')[0];
  const p = path.join(root, 'node_modules', plain);
  return fs.existsSync(p) ? p : path.dirname(p);
}

const importsOf = new Map<string, string[]>();
function importsIn(file: string): string[] {
  if (!importsOf.has(file))
    importsOf.set(
      file,
      [...fs.readFileSync(file, 'utf8').matchAll(IMPORT)].map((m) => m[1]),
    );
  return importsOf.get(file)!;
}

describe('webpack/onDemand.js', () => {
  it.each(TARGETS.map((t) => [`${t.request} from ${t.issuer}`, t] as const))(
    'redirects an import the installed packages make: %s',
    (_, target) => {
      const importers = modules(startOf(target.issuer)).filter(
        (file) => target.issuerPattern.test(file) && importsIn(file).some((r) => standInFor(file, r) === target),
      );
      expect(importers).not.toEqual([]);
    },
  );

  it('points at stand-ins that exist', () => {
    for (const t of TARGETS) expect(fs.existsSync(path.join(root, t.to.split('?')[0]))).toBe(true);
  });

  it('leaves the same request from our own code alone', () => {
    expect(standInFor(path.join(root, 'src/popperOnDemand.ts'), '@popperjs/core')).toBeNull();
    expect(standInFor(path.join(root, 'node_modules/@mui/material/Popper/BasePopper.mjs'), '@popperjs/core')?.to).toBe(
      'src/popperOnDemand.ts',
    );
  });
});
