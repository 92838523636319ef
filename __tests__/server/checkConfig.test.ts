/** `npm start` checks the configuration before its build (scripts/check-config.js): seconds, not minutes. */
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const root = path.join(__dirname, '../..');
const check = (env: Record<string, string>) =>
  spawnSync(process.execPath, ['scripts/check-config.js'], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', ...env },
    encoding: 'utf8',
  });

describe('scripts/check-config.js', () => {
  it('stops with the server’s own message on a configuration the server would refuse', () => {
    const weak = check({ ADMIN_PASSWORD: 'short' });
    expect(weak.status).toBe(2);
    expect(weak.stderr).toContain('配置错误 (configuration error): ADMIN_PASSWORD is refused');
    const url = check({ DATABASE_URL: 'mysql://x' });
    expect(url.status).toBe(2);
    expect(url.stderr).toContain('DATABASE_URL must start with sqlite: or postgres://');
  });

  it('passes a good one, and npm start runs it before the build', () => {
    expect(check({ ADMIN_PASSWORD: 'Check2026-config' }).status).toBe(0);
    const start = (require(path.join(root, 'package.json')) as { scripts: Record<string, string> }).scripts.start;
    expect(start.indexOf('scripts/check-config.js')).toBeGreaterThanOrEqual(0);
    expect(start.indexOf('scripts/check-config.js')).toBeLessThan(start.indexOf('npm run build'));
  });
});
