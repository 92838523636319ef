/** Configuration from the environment, checked once at start with a message naming the bad variable. */
import path from 'node:path';
import { PASSWORD_MAX, PASSWORD_MIN } from '../domain/managers';
import { managerPasswordProblem } from './passwords';
import type { S3Settings } from './modules/uploads/store';

export interface Config {
  port: number;
  host: string;
  databaseUrl: string;
  adminPassword: string | undefined;
  tokenIdleHours: number;
  /** Sessions a manager may hold at once; logging in past it ends the oldest (code 302 there). */
  maxSessions: number;
  uploadDir: string;
  /** The largest image an upload ticket accepts, in bytes (UPLOAD_MAX_BYTES). */
  uploadMaxBytes: number;
  /** An S3-compatible bucket for uploads instead of UPLOAD_DIR (S3_ENDPOINT, S3_BUCKET, …), or null. */
  s3: S3Settings | null;
  logLevel: string;
  /** Serve the production client from this folder when it exists. */
  webDir: string;
  /** Create demo data on first start. */
  demoData: boolean;
  /**
   * Which proxies may set X-Forwarded-For (TRUST_PROXY): 'loopback' by default, so a client that
   * reaches the server directly cannot pick its own address (and so dodge the login throttle).
   * 'true' (any), 'false' (none), or a comma-separated list of addresses/CIDRs/'loopback'.
   */
  trustProxy: boolean | string;
  /**
   * Make exports in a worker thread each (EXPORT_WORKERS, default true) where another thread can open the
   * database (a SQLite file, PostgreSQL): the API's event loop keeps serving while a million rows are read.
   */
  exportWorkers: boolean;
  /** Run the daily settlement job (and the per-minute match expiry) inside the server (SETTLE_ENABLED). */
  settleEnabled: boolean;
  /** Minute of the Asia/Shanghai day from which yesterday is settled (SETTLE_AT=HH:mm, default 00:05). */
  settleAt: number;
  /** Pledges or seeds per settlement transaction (SETTLE_BATCH). */
  settleBatch: number;
  /** How long a settling process holds a day without renewing its lease (SETTLE_LEASE_SEC). */
  settleLeaseSeconds: number;
  /**
   * The key that encrypts managers' authenticator secrets (TOTP_KEY: 32 bytes as base64 or 64 hex
   * digits), or null: then nobody can bind an authenticator (secrets are never stored plainly).
   */
  totpKey: Buffer | null;
  /** How long a code given at login or step-up covers money actions (STEP_UP_SECONDS). */
  stepUpSeconds: number;
}

export class ConfigError extends Error {}

const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

function int(env: NodeJS.ProcessEnv, name: string, def: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return def;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new ConfigError(`${name} must be a whole number from ${min} to ${max}, got "${raw}"`);
  }
  return Number(raw);
}

/**
 * The S3 store's settings: none of S3_ENDPOINT, S3_BUCKET, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY set →
 * the disk store; all four → S3; some of them → a start-up error naming the missing ones.
 */
function s3Of(env: NodeJS.ProcessEnv): S3Settings | null {
  const needed = ['S3_ENDPOINT', 'S3_BUCKET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const;
  const missing = needed.filter((n) => !env[n]);
  if (missing.length === needed.length) return null;
  if (missing.length) throw new ConfigError(`S3 uploads need ${missing.join(', ')} as well`);
  if (!/^https?:\/\/\S+$/.test(env.S3_ENDPOINT!)) throw new ConfigError(`S3_ENDPOINT must be an http(s) URL`);
  const publicUrl = env.S3_PUBLIC_URL ?? '';
  if (publicUrl && !/^https?:\/\/\S+$/.test(publicUrl)) throw new ConfigError(`S3_PUBLIC_URL must be an http(s) URL`);
  return {
    endpoint: env.S3_ENDPOINT!,
    bucket: env.S3_BUCKET!,
    region: env.S3_REGION || 'us-east-1',
    accessKeyId: env.S3_ACCESS_KEY_ID!,
    secretAccessKey: env.S3_SECRET_ACCESS_KEY!,
    forcePathStyle: bool(env, 'S3_FORCE_PATH_STYLE', true),
    publicUrl,
  };
}

/** "HH:mm" (Asia/Shanghai) → minute of the day. */
function minuteOf(env: NodeJS.ProcessEnv, name: string, def: string): number {
  const raw = env[name] || def;
  const m = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(raw);
  if (!m) throw new ConfigError(`${name} must be a time HH:mm (00:00 to 23:59), got "${raw}"`);
  return Number(m[1]) * 60 + Number(m[2]);
}

function bool(env: NodeJS.ProcessEnv, name: string, def: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return def;
  if (!['true', 'false', '1', '0'].includes(raw)) throw new ConfigError(`${name} must be true or false, got "${raw}"`);
  return raw === 'true' || raw === '1';
}

/** TOTP_KEY: exactly 32 bytes, written as 64 hex digits or as base64 (standard or url-safe). */
function totpKeyOf(raw: string | undefined): Buffer | null {
  if (raw === undefined || raw === '') return null;
  const key = /^[0-9a-fA-F]{64}$/.test(raw)
    ? Buffer.from(raw, 'hex')
    : /^[A-Za-z0-9+/_-]{43}=?$/.test(raw)
      ? Buffer.from(raw, 'base64')
      : null;
  if (!key || key.length !== 32) {
    throw new ConfigError('TOTP_KEY must be 32 random bytes as 64 hex digits or base64 (openssl rand -base64 32)');
  }
  return key;
}

function trustProxyOf(raw: string | undefined): boolean | string {
  if (raw === undefined || raw === '') return 'loopback';
  if (raw === 'true' || raw === 'false') return raw === 'true';
  return raw;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, root = process.cwd()): Config {
  const databaseUrl = env.DATABASE_URL || `sqlite:${path.join(root, 'data', 'console.db')}`;
  if (!/^(sqlite:|postgres(ql)?:\/\/)/.test(databaseUrl)) {
    throw new ConfigError(`DATABASE_URL must start with sqlite: or postgres://, got "${databaseUrl}"`);
  }
  const logLevel = env.LOG_LEVEL || 'info';
  if (!LEVELS.includes(logLevel))
    throw new ConfigError(`LOG_LEVEL must be one of ${LEVELS.join(', ')}, got "${logLevel}"`);
  const adminPassword = env.ADMIN_PASSWORD || undefined;
  const refused = adminPassword === undefined ? null : managerPasswordProblem(adminPassword, { username: 'admin' });
  if (refused) {
    throw new ConfigError(
      `ADMIN_PASSWORD is refused (${refused}): it must be ${PASSWORD_MIN}-${PASSWORD_MAX} characters (any printable ones and spaces), ` +
        'not a common password and not the user name',
    );
  }
  const demo = env.DEMO_DATA ?? 'true';
  if (!['true', 'false', '1', '0'].includes(demo))
    throw new ConfigError(`DEMO_DATA must be true or false, got "${demo}"`);
  return {
    port: int(env, 'PORT', 8080, 0, 65535),
    host: env.HOST || '0.0.0.0',
    databaseUrl,
    adminPassword,
    tokenIdleHours: int(env, 'TOKEN_IDLE_HOURS', 12, 1, 24 * 30),
    maxSessions: int(env, 'MAX_SESSIONS', 5, 1, 100),
    uploadDir: path.resolve(root, env.UPLOAD_DIR || 'uploads'),
    uploadMaxBytes: int(env, 'UPLOAD_MAX_BYTES', 5 * 1024 * 1024, 1024, 50 * 1024 * 1024),
    s3: s3Of(env),
    logLevel,
    webDir: path.resolve(root, env.WEB_DIR || 'dist/web'),
    demoData: demo === 'true' || demo === '1',
    trustProxy: trustProxyOf(env.TRUST_PROXY),
    exportWorkers: bool(env, 'EXPORT_WORKERS', true),
    settleEnabled: bool(env, 'SETTLE_ENABLED', true),
    settleAt: minuteOf(env, 'SETTLE_AT', '00:05'),
    settleBatch: int(env, 'SETTLE_BATCH', 1000, 1, 5000),
    settleLeaseSeconds: int(env, 'SETTLE_LEASE_SEC', 60, 1, 3600),
    totpKey: totpKeyOf(env.TOTP_KEY),
    stepUpSeconds: int(env, 'STEP_UP_SECONDS', 300, 5, 86_400),
  };
}
