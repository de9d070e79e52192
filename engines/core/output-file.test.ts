import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeFileAtomic } from './output-file.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'vitrine-output-file-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('writeFileAtomic', () => {
  it('writes a new file and replaces an old one whole, keeping its permissions, with no temporary file left', () => {
    const file = path.join(dir, 'report.md');
    writeFileAtomic(file, 'first\n');
    expect(readFileSync(file, 'utf8')).toBe('first\n');
    chmodSync(file, 0o640);
    writeFileAtomic(file, Buffer.from('second\n'));
    expect(readFileSync(file, 'utf8')).toBe('second\n');
    expect(statSync(file).mode & 0o777).toBe(0o640);
    expect(readdirSync(dir)).toEqual(['report.md']);
  });

  it('writes an existing file that is not a regular one in place (a character device), and rethrows its error', () => {
    writeFileAtomic('/dev/null', 'nothing\n');
    expect(() => writeFileAtomic('/dev/full', 'x')).toThrow(expect.objectContaining({ code: 'ENOSPC' }) as Error);
  });

  it('rethrows a failure to create the temporary file and leaves the target alone (a folder that is not there)', () => {
    const file = path.join(dir, 'missing', 'out.json');
    expect(() => writeFileAtomic(file, '{}')).toThrow(expect.objectContaining({ code: 'ENOENT' }) as Error);
    writeFileSync(path.join(dir, 'kept'), 'kept');
    expect(readdirSync(dir)).toEqual(['kept']);
  });
});
