// Prints what each route downloads (gzip and brotli, from the precompressed files) after a
// production build, and fails when the login route exceeds its budget.
//
//   npm run size      (= webpack --mode production --json=dist/stats.json && node scripts/bundle-sizes.js)
//
// A route's JavaScript = the initial chunks of the entry + every chunk of its dynamic import(s)
// (found by the import request that created them: page, shell, shared vendor chunks alike).
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const web = path.join(root, 'dist/web');
const statsFile = path.resolve(process.argv[2] || path.join(root, 'dist/stats.json'));
const LOGIN_BUDGET = 130 * 1024;

const stats = JSON.parse(fs.readFileSync(statsFile, 'utf8'));
const size = (file, ext) => {
  const p = path.join(web, file + ext);
  return fs.existsSync(p) ? fs.statSync(p).size : fs.statSync(path.join(web, file)).size;
};
const kib = (n) => `${(n / 1024).toFixed(1)} KiB`;

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
  return { name, files, modules, gz, br };
}

const rows = [
  route('/login', [/pages\/login\/LoginPage/]),
  route('/layout/welcome', [/layout\/Layout$/, /pages\/welcome\/WelcomePage/]),
  route('/Layout/errors/404', [/layout\/Layout$/, /pages\/errors\/NotFoundPage/]),
];
for (const r of rows) {
  console.log(
    `${r.name.padEnd(22)} gzip ${kib(r.gz).padStart(10)}   brotli ${kib(r.br).padStart(10)}   (${r.files.length} files)`,
  );
}
const login = rows[0];
console.log('\n/login files (gzip):');
for (const f of login.files) console.log(`  ${kib(size(f, '.gz')).padStart(10)}  ${f}`);
// Nothing of MUI (core, icons, X packages), Emotion, the shell or the generated endpoints.
const heavy = [
  ...new Set(
    login.modules.filter((m) =>
      /node_modules\/(@mui|@emotion)\/|src\/layout\/|src\/icons\/|services\/generated\//.test(m),
    ),
  ),
];
if (login.gz > LOGIN_BUDGET) {
  console.error(`\n/login downloads ${kib(login.gz)} gzip, over its budget of ${kib(LOGIN_BUDGET)}`);
  process.exit(1);
}
if (heavy.length) {
  console.error(`\n/login loads what it should not:\n  ${heavy.slice(0, 20).join('\n  ')}`);
  process.exit(1);
}
