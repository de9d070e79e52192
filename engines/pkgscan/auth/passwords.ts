// Password hashing with scrypt (node:crypto, memory-hard); verification always costs one key derivation, account or not.
import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { VitrineError } from '../../core/errors.js';
import { PASSWORD_MAX, PASSWORD_MIN, type ScryptParams } from '../config.js';

const KEY_LEN = 32;
const FORMAT = /^scrypt\$(\d{1,8})\$(\d{1,3})\$(\d{1,3})\$([A-Za-z0-9+/=]{16,64})\$([A-Za-z0-9+/=]{40,64})$/;

/** The one key-derivation call (an object so tests can count calls with a spy). */
export const kdf = {
  derive(password: string, salt: Buffer, params: ScryptParams): Promise<Buffer> {
    return new Promise((resolve, reject) => {
      scrypt(password.normalize('NFKC'), salt, KEY_LEN, { N: params.N, r: params.r, p: params.p, maxmem: 256 * params.N * params.r + 1024 * 1024 }, (err, key) =>
        err ? reject(new VitrineError('internal', 'password hashing failed')) : resolve(key),
      );
    });
  },
};

/** Refuses passwords outside 12..1024 characters (the message never contains the password). */
export function checkPasswordPolicy(password: string): void {
  if (password.length < PASSWORD_MIN) throw new VitrineError('validation_failed', `password must be at least ${PASSWORD_MIN} characters`, { details: [{ path: 'password', issue: `must be at least ${PASSWORD_MIN} characters` }] });
  if (password.length > PASSWORD_MAX) throw new VitrineError('validation_failed', `password must be at most ${PASSWORD_MAX} characters`, { details: [{ path: 'password', issue: `must be at most ${PASSWORD_MAX} characters` }] });
}

/** `scrypt$N$r$p$salt$key` (base64). */
export async function hashPassword(password: string, params: ScryptParams): Promise<string> {
  const salt = randomBytes(16);
  const key = await kdf.derive(password, salt, params);
  return `scrypt$${params.N}$${params.r}$${params.p}$${salt.toString('base64')}$${key.toString('base64')}`;
}

/** A well-formed hash that no password matches, with the current cost: what a missing account is checked against. */
export function decoyHash(params: ScryptParams): string {
  return `scrypt$${params.N}$${params.r}$${params.p}$${randomBytes(16).toString('base64')}$${randomBytes(KEY_LEN).toString('base64')}`;
}

/** True when `password` matches `stored`; a malformed stored hash is a mismatch (after the same derivation cost). */
export async function verifyPassword(password: string, stored: string, fallback: ScryptParams): Promise<boolean> {
  const m = FORMAT.exec(stored);
  const params: ScryptParams = m ? { N: Number(m[1]), r: Number(m[2]), p: Number(m[3]) } : fallback;
  const salt = m ? Buffer.from(m[4] as string, 'base64') : randomBytes(16);
  const expected = m ? Buffer.from(m[5] as string, 'base64') : randomBytes(KEY_LEN);
  const key = await kdf.derive(password.slice(0, PASSWORD_MAX), salt, params);
  return m !== null && key.length === expected.length && timingSafeEqual(key, expected);
}
