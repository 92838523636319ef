// Prints what each route downloads (gzip and brotli, from the precompressed files) after a
// production build, and fails when a route exceeds its budget:
//   - /login: 100 KiB brotli (what every current browser gets) and 120 KiB gzip (a browser without
//     brotli), and none of MUI, Emotion, RTK Query, the shell, the icons or the endpoints;
//   - every list page (a page with ListPage's table): 250 KiB brotli, what the server sends to every
//     current browser (server/plugins/web.ts serves the .br files; Chromium's own count adds the
//     response headers, ~0.4 KiB a file).
//
//   npm run size      (= webpack --mode production --json=dist/stats.json && node scripts/bundle-sizes.js)
//
// A route's JavaScript = the initial chunks of the entry + every chunk of its dynamic import(s)
// (found by the import request that created them: page, shell, shared chunks alike). Chunks a page
// loads only when the user opens something (the date range calendar, a dialog) are not
// part of it.
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const web = path.join(root, 'dist/web');
const statsFile = path.resolve(process.argv[2] || path.join(root, 'dist/stats.json'));
const LOGIN_BUDGET = { br: 100 * 1024, gz: 120 * 1024 };
const LIST_BUDGET = 250 * 1024; // brotli

const stats = JSON.parse(fs.readFileSync(statsFile, 'utf8'));
const size = (file, ext) => {
  const p = path.join(web, file + ext);
  return fs.existsSync(p) ? fs.statSync(p).size : fs.statSync(path.join(web, file)).size;
};
const kib = (n) => `${(n / 1024).toFixed(1)} KiB`;
const escape = (s) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

const chunkById = new Map(stats.chunks.map((c) => [c.id, c]));
const entry = stats.entrypoints.main.chunks.map((id) => chunkById.get(id));
/** Chunks created by an import() whose request matches. */
const chunksOf = (pattern) => stats.chunks.filter((c) => !c.initial && c.origins.some((o) => pattern.test(o.request)));

function route(name, patterns) {
  const set = new Map(entry.map((c) => [c.id, c]));
  for (const p of patterns) for (const c of chunksOf(p)) set.set(c.id, c);
  const chunks = [...set.values()];
  const files = chunks.flatMap((c) => c.files.filter((f) => f.endsWith('.js')));
  const modules = chunks.flatMap((c) =>
    (c.modules || []).flatMap((m) => [m.name, ...(m.modules || []).map((n) => n.name)]),
  );
  const gz = files.reduce((s, f) => s + size(f, '.gz'), 0);
  const br = files.reduce((s, f) => s + size(f, '.br'), 0);
  const list = modules.some((m) => /src\/components\/ListPage\.tsx$/.test(m));
  return { name, files, modules, gz, br, list };
}

// The pages of the registry (src/routes.tsx): path below /layout → the module its import() loads. A
// page is listed either by its path or by its permission code, whose path domain/pagePaths.ts gives.
const stripComments = (text) => text.replace(/\/\*[\s\S]*?\*\//g, '');
const registry = stripComments(fs.readFileSync(path.join(root, 'src/routes.tsx'), 'utf8'));
const pagePaths = new Map(
  [
    ...stripComments(fs.readFileSync(path.join(root, 'domain/pagePaths.ts'), 'utf8')).matchAll(
      /'([^']+)':\s*'([^']+)'/g,
    ),
  ].map(([, code, p]) => [code, p]),
);
const pages = new Map();
for (const [, p, code, request] of registry.matchAll(
  /(?:path:\s*'([^']+)',|'([^']+)':\s*\{)\s*load:\s*\(\)\s*=>\s*import\('([^']+)'\)/g,
)) {
  const pagePath = p ?? pagePaths.get(code);
  if (!pagePath) throw new Error(`src/routes.tsx: no path for page code ${code} in domain/pagePaths.ts`);
  if (!pages.has(request)) pages.set(request, `/layout/${pagePath}`);
}
if (pages.size < 2) throw new Error('found no pages in src/routes.tsx: its shape changed, update this script');
const shell = /layout\/Layout$/;
const rows = [
  route('/login', [/pages\/login\/LoginPage/]),
  ...[...pages].map(([request, p]) =>
    route(p === '/layout/errors/404' ? '/Layout/errors/404' : p, [shell, new RegExp(`${escape(request)}$`)]),
  ),
];
const width = Math.max(...rows.map((r) => r.name.length)) + 2;
for (const r of rows) {
  console.log(
    `${r.name.padEnd(width)} gzip ${kib(r.gz).padStart(10)}   brotli ${kib(r.br).padStart(10)}   (${r.files.length} files)${r.list ? '  list' : ''}`,
  );
}

let failed = false;
const login = rows[0];
console.log('\n/login files (brotli):');
for (const f of login.files) console.log(`  ${kib(size(f, '.br')).padStart(10)}  ${f}`);
// Nothing of MUI (core, icons, X packages), Emotion, RTK Query (the shell brings it, see
// src/store/lateApi.ts), the shell or the endpoints.
const heavy = [
  ...new Set(
    login.modules.filter((m) =>
      /node_modules\/(@mui|@emotion)\/|@reduxjs\/toolkit\/dist\/query\/|src\/layout\/|src\/icons\/|services\/(generated\/|baseApi)/.test(
        m,
      ),
    ),
  ),
];
for (const kind of ['br', 'gz']) {
  if (login[kind] > LOGIN_BUDGET[kind]) {
    const name = kind === 'br' ? 'brotli' : 'gzip';
    console.error(`\n/login downloads ${kib(login[kind])} ${name}, over its budget of ${kib(LOGIN_BUDGET[kind])}`);
    failed = true;
  }
}
if (heavy.length) {
  console.error(`\n/login loads what it should not:\n  ${heavy.slice(0, 20).join('\n  ')}`);
  failed = true;
}

const lists = rows.filter((r) => r.list);
const heaviest = lists.reduce((a, r) => (!a || r.br > a.br ? r : a), null);
if (!heaviest) {
  console.error('\nno list page found (no route loads src/components/ListPage)');
  failed = true;
} else {
  console.log(`\nheaviest list page: ${heaviest.name}, ${kib(heaviest.br)} brotli (budget ${kib(LIST_BUDGET)})`);
  for (const f of heaviest.files) console.log(`  ${kib(size(f, '.br')).padStart(10)}  ${f}`);
}
for (const r of lists.filter((l) => l.br > LIST_BUDGET)) {
  console.error(`\n${r.name} downloads ${kib(r.br)} brotli, over the list page budget of ${kib(LIST_BUDGET)}`);
  failed = true;
}
if (failed) process.exit(1);
