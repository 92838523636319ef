import fs from 'node:fs';
import path from 'node:path';
import { randomInt } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';
import { commonPasswordText, passwordProblem } from '../domain/managers';

/** argon2id with OWASP's second recommended setting (19 MiB, t=2). */
const OPTIONS = { algorithm: 2 /* Argon2id */, memoryCost: 19456, timeCost: 2, parallelism: 1 };

/**
 * Passwords are hashed in NFKC form (NIST SP 800-63B), so the same password typed on another
 * keyboard or system (composed or decomposed accents, full-width digits) still matches. Every
 * password set before the policy allowed more than ASCII letters and digits is unchanged by it.
 */
export const hashPassword = (password: string) => hash(password.normalize('NFKC'), OPTIONS);

export async function verifyPassword(stored: string, password: string): Promise<boolean> {
  try {
    return await verify(stored, password.normalize('NFKC'));
  } catch {
    return false;
  }
}

/** The shipped list (scripts/common-passwords.ts makes it); `npm run build:server` copies it to dist. */
const COMMON_FILE = path.join(__dirname, 'common-passwords.txt');
let common: ReadonlySet<string> | undefined;

/** Loaded on first use; main.ts calls it at start so a missing file stops the server, not a request. */
export function commonPasswords(): ReadonlySet<string> {
  if (!common) {
    const lines = fs.readFileSync(COMMON_FILE, 'utf8').split('\n');
    common = new Set(lines.map((l) => l.trim().toLowerCase()).filter(Boolean));
  }
  return common;
}

export const isCommonPassword = (password: string) => commonPasswords().has(password.normalize('NFKC').toLowerCase());

/**
 * Manager password policy (domain/managers.ts) plus the common-password list: the Chinese reason
 * naming the field, or null when the password is acceptable.
 */
export function managerPasswordProblem(
  password: string,
  opts: { field?: string; username?: string } = {},
): string | null {
  return passwordProblem(password, opts) ?? (isCommonPassword(password) ? commonPasswordText(opts.field) : null);
}

/** A random password the console prints once: 16 letters and digits (~93 bits), fine for members too. */
export function randomPassword(): string {
  const chars = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnpqrstuvwxyz23456789';
  for (;;) {
    let p = '';
    for (let i = 0; i < 16; i++) p += chars[randomInt(chars.length)];
    // Members' rule (6–20 letters and digits, one of each) holds too: they get these as well.
    if (/[A-Za-z]/.test(p) && /\d/.test(p) && managerPasswordProblem(p) === null) return p;
  }
}
