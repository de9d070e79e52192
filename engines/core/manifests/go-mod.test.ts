// Tests for go.mod: single and block require directives, // indirect, last line per module, and osv-scanner's real go.mod.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { corpusPath } from '../../../test/corpora.js';
import { ecosystemFor, parseManifest, pinEntries, readManifest } from './index.js';

const GOMOD = `module example.com/demo // the module

go 1.22

require golang.org/x/text v0.14.0

require (
	github.com/a/b v1.2.3 // indirect
	"github.com/quoted/mod" v0.0.0-20210101000000-abcdefabcdef
	github.com/a/b v1.3.0
	// a comment line
	broken-line
)

replace github.com/a/b => ../b
exclude github.com/x/y v1.0.0
retract [v1.0.0, v1.1.0]
`;

describe('go.mod', () => {
  it('reads single and block requires, indirect marks and the module path; last line per module wins', () => {
    const doc = readManifest('go.mod', GOMOD);
    expect(ecosystemFor('go.mod')).toBe('golang');
    expect(doc).toMatchObject({ format: 'go-mod', ecosystem: 'golang', formatVersion: '1.22', project: { name: 'example.com/demo' } });
    expect(doc.entries.map((e) => [e.name, e.version, e.direct])).toEqual([
      ['golang.org/x/text', 'v0.14.0', true],
      ['github.com/a/b', 'v1.2.3', false],
      ['github.com/quoted/mod', 'v0.0.0-20210101000000-abcdefabcdef', true],
      ['github.com/a/b', 'v1.3.0', true],
    ]);
    expect(doc.warnings.map((w) => [w.code, w.line])).toEqual([['unparsed_line', 11]]);
    expect(pinEntries('go.mod', GOMOD)).toEqual([
      { name: 'golang.org/x/text', version: 'v0.14.0', line: 4, keyLine: 4 },
      { name: 'github.com/quoted/mod', version: 'v0.0.0-20210101000000-abcdefabcdef', line: 8, keyLine: 8 },
      { name: 'github.com/a/b', version: 'v1.3.0', line: 9, keyLine: 9 },
    ]);
    expect(parseManifest('go.mod', GOMOD).get('github.com/a/b')).toBe('v1.3.0');
  });

  it('warns on an unclosed block and an unknown directive', () => {
    const doc = readManifest('go.mod', 'module m\nfrobnicate x\nrequire (\n\ta/b v1.0.0\n');
    expect(doc.entries.map((e) => e.name)).toEqual(['a/b']);
    expect(doc.warnings.map((w) => w.code)).toEqual(['unparsed_line', 'unparsed_line']);
  });

  it('reads osv-scanner go.mod (corpus): 206 requires, 176 indirect', () => {
    const text = readFileSync(corpusPath('supplychain', 'lockfiles', 'go', 'osv-scanner', 'go.mod'), 'utf8');
    const doc = readManifest('go.mod', text);
    expect(doc.project?.name).toBe('github.com/google/osv-scanner/v2');
    expect(doc.warnings).toEqual([]);
    expect(doc.entries).toHaveLength(206);
    expect(doc.entries.filter((e) => e.direct === false)).toHaveLength(176);
    expect(pinEntries('go.mod', text)?.[0]).toEqual({ name: 'charm.land/glamour/v2', version: 'v2.0.1', line: 5, keyLine: 5 });
  });
});
