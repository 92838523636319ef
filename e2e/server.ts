/** Starts `node dist/server/main.js` on a free port with a throwaway database, as `npm start` would. */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export const E2E_ADMIN_PASSWORD = 'E2eAdmin2026';
const root = path.resolve(__dirname, '..');

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

export interface RunningServer {
  url: string;
  proc: ChildProcess;
  dir: string;
  output: () => string;
}

export async function startServer(env: Record<string, string> = {}): Promise<RunningServer> {
  if (
    !fs.existsSync(path.join(root, 'dist/server/main.js')) ||
    !fs.existsSync(path.join(root, 'dist/web/index.html'))
  ) {
    throw new Error('no production build: run `npm run build` before the browser tests');
  }
  const port = await freePort();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lz-e2e-'));
  let out = '';
  const proc = spawn(process.execPath, ['dist/server/main.js'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: `sqlite:${path.join(dir, 'console.db')}`,
      UPLOAD_DIR: path.join(dir, 'uploads'),
      ADMIN_PASSWORD: E2E_ADMIN_PASSWORD,
      LOG_LEVEL: 'warn',
      // The second factor (totp.e2e): a key so managers can bind, and a short step-up window so the
      // test meets the step-up dialog without waiting five minutes (only managers with one are asked).
      TOTP_KEY: 'ab'.repeat(32),
      STEP_UP_SECONDS: '8',
      // Every shaped query checked against its ordinary build (server/db/shapes.ts).
      SHAPE_CHECK: '1',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  proc.stdout!.on('data', (d) => (out += d));
  proc.stderr!.on('data', (d) => (out += d));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`server exited: ${out}`);
    try {
      const r = await fetch(`${url}/healthz`);
      if (r.ok && out.includes('running at')) break;
    } catch {
      /* not up yet */
    }
    if (Date.now() > deadline) throw new Error(`server did not start: ${out}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  return { url, proc, dir, output: () => out };
}

export async function stopServer(s: RunningServer): Promise<number | null> {
  if (s.proc.exitCode !== null) return s.proc.exitCode;
  const exited = new Promise<number | null>((resolve) => s.proc.once('exit', (code) => resolve(code)));
  s.proc.kill('SIGTERM');
  const code = await exited;
  fs.rmSync(s.dir, { recursive: true, force: true });
  return code;
}
