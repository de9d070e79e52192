// The token file must be a regular file of its own: a folder or a symbolic link in its place (someone else's file,
// a link to a file they can read) is refused, never read through or overwritten.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { VitrineError } from '../engines/core/errors.js';
import { loadOrCreateToken, tokenPath } from './token.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const tempDir = (): string => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'vitrine-token-cases-'));
  dirs.push(dir);
  return dir;
};

describe('the token file', () => {
  it('is refused when a folder stands in its place, and the refusal names no path', () => {
    const home = tempDir();
    mkdirSync(tokenPath(home));
    expect(() => loadOrCreateToken(home)).toThrow(VitrineError);
    expect(() => loadOrCreateToken(home)).toThrow(expect.objectContaining({ code: 'unavailable', message: expect.not.stringContaining(home) }));
  });

  it('is refused when it is a symbolic link, even to a well-formed token, and the link target is left as it was', () => {
    const home = tempDir();
    const elsewhere = path.join(tempDir(), 'other-token');
    writeFileSync(elsewhere, `${'B'.repeat(43)}\n`);
    symlinkSync(elsewhere, tokenPath(home));
    expect(() => loadOrCreateToken(home)).toThrow(expect.objectContaining({ code: 'unavailable' }));
    expect(readFileSync(elsewhere, 'utf8')).toBe(`${'B'.repeat(43)}\n`);
  });

  it('is written as the token and a newline, and a hand-written well-formed token is kept as it is', () => {
    const home = tempDir();
    const token = loadOrCreateToken(home);
    expect(readFileSync(tokenPath(home), 'utf8')).toBe(`${token}\n`);
    const other = tempDir();
    writeFileSync(tokenPath(other), `  ${'C'.repeat(43)}  \n`, { mode: 0o600 });
    expect(loadOrCreateToken(other)).toBe('C'.repeat(43));
    // one character short or long, or outside base64url, is not a token: replaced
    for (const bad of ['C'.repeat(42), 'C'.repeat(44), `${'C'.repeat(42)}+`]) {
      writeFileSync(tokenPath(other), `${bad}\n`, { mode: 0o600 });
      const replaced = loadOrCreateToken(other);
      expect(replaced).not.toBe(bad);
      expect(readFileSync(tokenPath(other), 'utf8')).toBe(`${replaced}\n`);
    }
  });
});
