// The installation token: created once with mode 0600 in a 0700 data dir, reused, tightened, replaced when malformed.
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadOrCreateToken, tokenPath } from './token.js';

const posix = process.platform !== 'win32';
const dirs: string[] = [];

function tempDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'vitrine-token-'));
  dirs.push(dir);
  return dir;
}

afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('loadOrCreateToken', () => {
  it('creates the data dir (0700) and a 32-byte base64url token (0600), then returns the same token', () => {
    const home = path.join(tempDir(), 'nested', 'home');
    const token = loadOrCreateToken(home);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(token, 'base64url')).toHaveLength(32);
    expect(readFileSync(tokenPath(home), 'utf8').trim()).toBe(token);
    if (posix) {
      expect(statSync(home).mode & 0o777).toBe(0o700);
      expect(statSync(tokenPath(home)).mode & 0o777).toBe(0o600);
    }
    expect(loadOrCreateToken(home)).toBe(token);
  });

  it('gives different installations different tokens', () => {
    expect(loadOrCreateToken(tempDir())).not.toBe(loadOrCreateToken(tempDir()));
  });

  it.skipIf(!posix)('tightens a token file that others could read', () => {
    const home = tempDir();
    const token = loadOrCreateToken(home);
    chmodSync(tokenPath(home), 0o644);
    expect(loadOrCreateToken(home)).toBe(token);
    expect(statSync(tokenPath(home)).mode & 0o777).toBe(0o600);
  });

  it('replaces a malformed token file', () => {
    const home = tempDir();
    writeFileSync(tokenPath(home), 'not a token\n', { mode: 0o600 });
    const token = loadOrCreateToken(home);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(readFileSync(tokenPath(home), 'utf8').trim()).toBe(token);
    if (posix) expect(statSync(tokenPath(home)).mode & 0o777).toBe(0o600);
  });
});
