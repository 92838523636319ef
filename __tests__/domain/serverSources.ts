/** The server modules' TypeScript sources, read as text: for tests that check every form the server writes. */
import fs from 'node:fs';
import path from 'node:path';

/** Every `.ts` file below `dir`. */
export function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(p);
    return e.name.endsWith('.ts') ? [p] : [];
  });
}

/** Every match of `pattern` (a global regular expression) in server/modules, as its first group. */
export function serverModuleMatches(pattern: RegExp): string[] {
  const dir = path.join(__dirname, '../../server/modules');
  return sourceFiles(dir).flatMap((f) => [...fs.readFileSync(f, 'utf8').matchAll(pattern)].map((m) => m[1]));
}
