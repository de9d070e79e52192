// Tests for uv.lock: the project member, direct dependencies, sources, hashes, and guarddog's real lock file.
import { readFileSync } from 'node:fs';
import { parse as parseToml } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { corpusPath } from '../../../test/corpora.js';
import { pinEntries, readManifest } from './index.js';

describe('uv.lock', () => {
  it('reads guarddog uv.lock (corpus): 29 package tables, 28 pins, the 29th is the project itself', () => {
    const text = readFileSync(corpusPath('supplychain', 'lockfiles', 'python', 'guarddog', 'uv.lock'), 'utf8');
    const doc = readManifest('uv.lock', text);
    expect(doc).toMatchObject({ format: 'uv-lock', ecosystem: 'pypi', formatVersion: '1', lineMap: true, project: { name: 'guarddog' } });
    expect(doc.warnings).toEqual([]);
    expect((parseToml(text)['package'] as unknown[]).length).toBe(29);
    expect(doc.entries).toHaveLength(28);
    const pins = pinEntries('uv.lock', text) ?? [];
    expect(pins).toHaveLength(28);
    expect(pins[0]).toEqual({ name: 'boto3', version: '1.43.31', line: 6, keyLine: 5 });
    expect(doc.entries[0]).toMatchObject({ source: 'registry', resolved: 'https://pypi.org/simple', direct: true });
    expect(doc.entries.find((e) => e.name === 'botocore')?.direct).toBe(false);
    expect(doc.entries[0]?.checksums?.[0]).toMatch(/^sha256:/);
  });

  it('keeps a versioned project member out of the pins and normalises names', () => {
    const text = `version = 1

[[package]]
name = "My.App"
version = "0.1.0"
source = { virtual = "." }
dependencies = [{ name = "Typing_Extensions" }]

[[package]]
name = "typing-extensions"
version = "4.12.2"
source = { registry = "https://pypi.org/simple" }

[[package]]
name = "nover"
source = { registry = "https://pypi.org/simple" }
`;
    const doc = readManifest('uv.lock', text);
    expect(doc.project).toEqual({ name: 'my-app', version: '0.1.0' });
    expect(pinEntries('uv.lock', text)).toEqual([{ name: 'typing-extensions', version: '4.12.2', line: 10, keyLine: 9 }]);
    expect(doc.entries[1]?.direct).toBe(true);
    expect(doc.warnings.map((w) => [w.code, w.line])).toEqual([['missing_version', 14]]);
  });
});
