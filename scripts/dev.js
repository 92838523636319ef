// `npm run dev`: the API server from source (with demo data) and the webpack dev server (hot reload,
// proxying /v1, /docs, /openapi.json, /uploads and /healthz to the API) side by side. Ctrl-C, a
// SIGTERM, or either process ending stops both.
const { spawn } = require('node:child_process');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const isWindows = process.platform === 'win32';
const npx = isWindows ? 'npx.cmd' : 'npx';

const children = [];
let stopping = false;

function start(name, args, env) {
  const child = spawn(npx, args, {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: 'inherit',
    // Own process group, so that stopping it also stops what npx started.
    detached: !isWindows,
  });
  child.on('exit', (code, signal) => {
    if (!stopping) {
      console.error(`[dev] ${name} exited (${signal ?? code}); stopping the rest`);
      stop(code ?? 1);
    }
  });
  children.push(child);
  return child;
}

function kill(child, signal) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  try {
    if (isWindows) child.kill(signal);
    else process.kill(-child.pid, signal);
  } catch {
    /* already gone */
  }
}

function stop(code = 0) {
  if (stopping) return;
  stopping = true;
  for (const child of children) kill(child, 'SIGTERM');
  // Whatever has not stopped after 5 s is killed.
  const force = setTimeout(() => {
    for (const child of children) kill(child, 'SIGKILL');
    process.exit(code);
  }, 5000);
  force.unref();
  Promise.all(
    children.map((c) =>
      c.exitCode !== null || c.signalCode !== null ? null : new Promise((resolve) => c.once('exit', resolve)),
    ),
  ).then(() => process.exit(code));
}

process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));
process.on('exit', () => {
  for (const child of children) kill(child, 'SIGKILL');
});

start('api server', ['babel-node', '--extensions', '.ts', 'server/main.ts'], {
  DEMO_DATA: process.env.DEMO_DATA ?? 'true',
});
start('webpack dev server', ['webpack', 'serve', '--mode', 'development'], {});
