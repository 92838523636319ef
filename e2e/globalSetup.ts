import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startServer } from './server';

export const STATE_FILE = path.join(os.tmpdir(), 'lz-e2e-server.json');

export default async function globalSetup() {
  const server = await startServer();
  fs.writeFileSync(STATE_FILE, JSON.stringify({ url: server.url, pid: server.proc.pid, dir: server.dir }));
  process.env.E2E_BASE_URL = server.url;
  (globalThis as { __E2E_SERVER__?: unknown }).__E2E_SERVER__ = server;
}
