// Which ecosystem an archive name implies, and which dropped files the Store tab refuses before sending.
import { describe, expect, it } from 'vitest';
import { ecosystemOf, refusal, safeFilename } from './model';

describe('store file rules', () => {
  it('ecosystem by archive name', () => {
    expect(ecosystemOf('left-pad-1.3.0.tgz')).toBe('npm');
    expect(ecosystemOf('requests-2.31.0-py3-none-any.whl')).toBe('pypi');
    expect(ecosystemOf('Jinja2-3.1.2.tar.gz')).toBe('pypi');
    expect(ecosystemOf('pkg-1.0.ZIP')).toBe('pypi');
    expect(ecosystemOf('notes.txt')).toBeNull();
  });

  it('refuses non-archives, empty files and files over the limit', () => {
    expect(refusal({ name: 'a.tgz', size: 10 }, 100)).toBeNull();
    expect(refusal({ name: 'a.exe', size: 10 }, 100)).toMatch(/not a package archive/);
    expect(refusal({ name: 'a.tgz', size: 0 }, 100)).toBe('empty file');
    expect(refusal({ name: 'a.tgz', size: 3 * 1048576 }, 1048576)).toMatch(/larger than the 1 MiB/);
  });

  it('file names the import route accepts', () => {
    expect(safeFilename('left-pad-1.3.0.tgz')).toBe('left-pad-1.3.0.tgz');
    expect(safeFilename('my pkg (1).tgz')).toBe('my_pkg__1_.tgz');
    expect(safeFilename('C:\\dl\\.hidden.whl')).toBe('hidden.whl');
    expect(safeFilename('___')).toBe('archive');
  });
});
