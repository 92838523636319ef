/**
 * The second factor's arithmetic (issue 15), without the database: sealing a secret under TOTP_KEY,
 * the time step of a code, and recovery codes with their keyed hashes.
 */
import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { TOTP_DIGITS, TOTP_ISSUER, TOTP_PERIOD_SECONDS } from '../../../domain/totp';

export function encryptSecret(key: Buffer, managerId: number, base32: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(`manager:${managerId}`));
  const body = Buffer.concat([cipher.update(base32, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
}

export function decryptSecret(key: Buffer, managerId: number, sealed: string): string {
  const raw = Buffer.from(sealed, 'base64url');
  const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
  decipher.setAAD(Buffer.from(`manager:${managerId}`));
  decipher.setAuthTag(raw.subarray(12, 28));
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
}

export const totpOf = (base32: string, label = '') =>
  new TOTP({
    issuer: TOTP_ISSUER,
    label,
    algorithm: 'SHA1',
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD_SECONDS,
    secret: Secret.fromBase32(base32),
  });

/** The time step a code belongs to (one step either side of now), or null. */
export function stepOfCode(base32: string, code: string, now: number): number | null {
  const delta = totpOf(base32).validate({ token: code, timestamp: now, window: 1 });
  return delta === null ? null : Math.floor(now / 1000 / TOTP_PERIOD_SECONDS) + delta;
}

/** Crockford's base32: no I, L, O or U; a person's O, I or L is read as 0, 1, 1. */
const RECOVERY_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

export function newRecoveryCode(): string {
  const bytes = randomBytes(10);
  let out = '';
  for (const b of bytes) out += RECOVERY_ALPHABET[b & 31];
  return `${out.slice(0, 5)}-${out.slice(5)}`;
}

const normalizeRecovery = (code: string) =>
  code.replace(/[\s-]/g, '').toUpperCase().replace(/O/g, '0').replace(/[IL]/g, '1');

export function recoveryHash(key: Buffer, managerId: number, code: string): string {
  const macKey = createHmac('sha256', key).update('totp-recovery').digest();
  return createHmac('sha256', macKey)
    .update(`${managerId}:${normalizeRecovery(code)}`)
    .digest('hex');
}
