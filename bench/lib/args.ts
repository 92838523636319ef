/** Tiny flag parser for the bench scripts: `--name value`, `--name=value` and bare `--flag` (true). */
export type Flags = Record<string, string | true>;

export function parseFlags(argv: string[] = process.argv.slice(2)): Flags {
  const out: Flags = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (!a.startsWith('--')) throw new Error(`unexpected argument ${a}`);
    const eq = a.indexOf('=');
    if (eq > 0) {
      out[a.slice(2, eq)] = a.slice(eq + 1);
    } else if (i + 1 < argv.length && !argv[i + 1].startsWith('--')) {
      out[a.slice(2)] = argv[++i];
    } else {
      out[a.slice(2)] = true;
    }
  }
  return out;
}

/** A whole number flag; accepts 1000000, 1_000_000, 1e6, 1m and 200k. */
export function intFlag(flags: Flags, name: string, def: number): number {
  const raw = flags[name];
  if (raw === undefined) return def;
  if (raw === true) throw new Error(`--${name} needs a number`);
  const m = /^(\d+(?:\.\d+)?)(k|m)?$/i.exec(raw.replace(/_/g, ''));
  const n = m ? Number(m[1]) * (m[2] ? (m[2].toLowerCase() === 'k' ? 1e3 : 1e6) : 1) : Number(raw);
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`--${name} must be a whole number, got ${raw}`);
  return n;
}

export function strFlag(flags: Flags, name: string, def: string): string {
  const raw = flags[name];
  if (raw === undefined) return def;
  if (raw === true) throw new Error(`--${name} needs a value`);
  return raw;
}

export function listFlag(flags: Flags, name: string, def: string[]): string[] {
  const raw = flags[name];
  if (raw === undefined || raw === true) return def;
  return raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/** Where the bench keeps its databases and results (gitignored). */
export const OUT_DIR = `${__dirname}/../out`;
export const SQLITE_FILE = process.env.BENCH_SQLITE ?? `${OUT_DIR}/bench.db`;
export const PG_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
export const PG_SCHEMA = process.env.BENCH_PG_SCHEMA ?? 'bench';
export const ADMIN_PASSWORD = process.env.BENCH_ADMIN_PASSWORD ?? 'Bench12345';

export function log(msg: string) {
  process.stdout.write(`[${new Date().toISOString().slice(11, 19)}] ${msg}\n`);
}

export const fmt = (n: number, digits = 0) =>
  n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
