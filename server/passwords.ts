import { randomInt } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';
import { isStrongPassword } from '../domain/managers';

/** argon2id with OWASP's second recommended setting (19 MiB, t=2). */
const OPTIONS = { algorithm: 2 /* Argon2id */, memoryCost: 19456, timeCost: 2, parallelism: 1 };

export const hashPassword = (password: string) => hash(password, OPTIONS);

export async function verifyPassword(stored: string, password: string): Promise<boolean> {
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
}

/** Manager password policy (DOMAIN.md): 8–64 letters and digits, at least one of each. */
export { PASSWORD_PATTERN, isStrongPassword } from '../domain/managers';

/** A random password the console prints once: 16 letters and digits. */
export function randomPassword(): string {
  const chars = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnpqrstuvwxyz23456789';
  for (;;) {
    let p = '';
    for (let i = 0; i < 16; i++) p += chars[randomInt(chars.length)];
    if (isStrongPassword(p)) return p;
  }
}
