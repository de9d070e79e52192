// The `Name <address> (url)` readers of package metadata (PKG-INFO e-mail lists, registry authors) on ordinary and
// hostile text: the same people as the form says, and a few hundred tabs or a long run of `<` read at once (the
// regular expressions these replace backtracked for seconds to hours; a hang fails the test by its time limit).
import { describe, expect, it } from 'vitest';
import { toPerson } from '../sources/registry.js';
import { parseEmailList } from './metadata.js';

describe('people in package metadata', () => {
  it('reads the npm person string: name, e-mail, url skipped; other shapes give nothing', () => {
    expect(toPerson('Jane Doe <jane@example.org> (https://example.org)')).toEqual({ name: 'Jane Doe', email: 'jane@example.org' });
    expect(toPerson('  Jane  ')).toEqual({ name: 'Jane' });
    expect(toPerson('<jane@example.org>')).toEqual({ email: 'jane@example.org' });
    expect(toPerson('Jane (https://example.org)')).toEqual({ name: 'Jane' });
    expect(toPerson('Jane <jane@example.org> trailing')).toBeNull();
    expect(toPerson('Jane <unclosed')).toBeNull();
    expect(toPerson('Jane (x) <after-url@example.org>')).toBeNull();
    expect(toPerson(`${'\t'.repeat(999)}<`)).toBeNull();
    expect(toPerson(`a${' '.repeat(998)}(`)).toBeNull();
  });

  it('reads e-mail lists: "Name" <address>, bare addresses, names; one line of name before the <', () => {
    expect(parseEmailList('"Doe, Jane" <jane@example.org>, bob@example.org, Ann')).toEqual([
      { name: 'Doe, Jane', email: 'jane@example.org' },
      { email: 'bob@example.org' },
      { name: 'Ann' },
    ]);
    expect(parseEmailList('Jane\nDoe <jane@example.org>')).toEqual([{ email: 'Jane\nDoe <jane@example.org>' }]);
    // Fields are cut at 2,000 characters, in every form.
    expect(parseEmailList(`${'<'.repeat(400_000)}x`)).toEqual([{ name: '<'.repeat(2000) }]);
    expect(parseEmailList(`Jane ${'<'.repeat(400_000)}>`)).toEqual([{ name: 'Jane', email: '<'.repeat(2000) }]);
  });
});
