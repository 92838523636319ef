/**
 * The admin password on first start: printed only when the server generated it, only to the
 * terminal (stderr), never into the JSON log on stdout.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createDb } from '../../../server/db/dialect';
import { migrateToLatest } from '../../../server/db/migrate';
import { verifyPassword } from '../../../server/passwords';
import { ensureSuperAdmin, startBanner } from '../../../server/seed/bootstrap';

const ROOT = path.resolve(__dirname, '../../..');

async function freshDb() {
  const db = createDb('sqlite::memory:');
  await migrateToLatest(db.db);
  return db;
}

describe('first start: the admin password', () => {
  it('reports no password when it came from ADMIN_PASSWORD, and the banner does not show it', async () => {
    const db = await freshDb();
    try {
      const admin = await ensureSuperAdmin(db.db, 0, 'Operator-Chosen 42');
      expect(admin).toEqual({ created: true, username: 'admin' });
      const banner = startBanner(admin, { url: 'http://localhost:8080', kind: 'sqlite' });
      expect(banner).toContain('admin');
      expect(banner).not.toContain('Operator-Chosen 42');
      const row = await db.db.selectFrom('manager').select('password_hash').executeTakeFirstOrThrow();
      expect(await verifyPassword(row.password_hash, 'Operator-Chosen 42')).toBe(true);
    } finally {
      await db.close();
    }
  });

  it('reports and shows a generated password, once', async () => {
    const db = await freshDb();
    try {
      const admin = await ensureSuperAdmin(db.db, 0);
      expect(admin.generatedPassword).toMatch(/^[A-Za-z0-9]{16}$/);
      expect(startBanner(admin, { url: 'http://localhost:8080', kind: 'sqlite' })).toContain(admin.generatedPassword);
      const again = await ensureSuperAdmin(db.db, 0);
      expect(again).toEqual({ created: false, username: 'admin' });
    } finally {
      await db.close();
    }
  });

  /** Starts server/main.ts as `npm start` would and returns stdout and stderr once it is listening. */
  async function start(env: Record<string, string>) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lz-boot-'));
    const proc = spawn(process.execPath, ['-r', './bench/register.js', 'server/main.ts'], {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH,
        PORT: '0',
        HOST: '127.0.0.1',
        DATABASE_URL: `sqlite:${path.join(dir, 'console.db')}`,
        UPLOAD_DIR: path.join(dir, 'uploads'),
        WEB_DIR: path.join(dir, 'web'),
        DEMO_DATA: 'false',
        LOG_LEVEL: 'info',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    proc.stdout.on('data', (d) => (stdout += d));
    proc.stderr.on('data', (d) => (stderr += d));
    try {
      const deadline = Date.now() + 60_000;
      while (!stderr.includes('running at')) {
        if (proc.exitCode !== null) throw new Error(`server exited: ${stdout}${stderr}`);
        if (Date.now() > deadline) throw new Error(`server did not start: ${stdout}${stderr}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    } finally {
      if (proc.exitCode === null) {
        const exited = new Promise((r) => proc.once('exit', r));
        proc.kill('SIGTERM');
        await exited;
      }
      fs.rmSync(dir, { recursive: true, force: true });
    }
    return { stdout, stderr };
  }

  it('npm start with ADMIN_PASSWORD never prints it, and a generated one goes to the terminal only', async () => {
    const chosen = await start({ ADMIN_PASSWORD: 'Chosen By Operator 7' });
    expect(chosen.stdout + chosen.stderr).not.toContain('Chosen By Operator 7');
    expect(chosen.stderr).toContain('password from ADMIN_PASSWORD');

    const generated = await start({});
    const shown = /密码 password: (\S+)/.exec(generated.stderr)?.[1];
    expect(shown).toMatch(/^[A-Za-z0-9]{16}$/);
    // stdout is the JSON log: every line parses, and none carries the password.
    const lines = generated.stdout.split('\n').filter(Boolean);
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();
    expect(generated.stdout).not.toContain(shown);
  }, 120_000);
});
