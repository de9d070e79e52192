// Declaring manifests: package.json and pyproject.toml dependencies with kinds and lines, on corpus files and malformed input.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { corpusPath, hasCorpora } from '../../../test/corpora.js';
import { declaredFormatFor, npmSpecKind, parsePep508, pep440SpecKind, readDeclaredManifest } from './declared.js';

const lock = (rel: string): string => readFileSync(corpusPath(`supplychain/lockfiles/${rel}`), 'utf8');

describe('declared manifests', () => {
  it('classifies npm specifiers', () => {
    expect(npmSpecKind('1.2.3')).toBe('exact');
    expect(npmSpecKind('^1.2.3')).toBe('range');
    expect(npmSpecKind('*')).toBe('unpinned');
    expect(npmSpecKind('latest')).toBe('unpinned');
    expect(npmSpecKind('github:user/repo#abc')).toBe('git');
    expect(npmSpecKind('user/repo')).toBe('git');
    expect(npmSpecKind('git+https://example.org/x.git')).toBe('git');
    expect(npmSpecKind('https://example.org/x.tgz')).toBe('url');
    expect(npmSpecKind('file:../x')).toBe('path');
    expect(npmSpecKind('workspace:*')).toBe('workspace');
    expect(npmSpecKind('npm:string-width@^4.2.0')).toBe('range');
  });

  it('classifies PEP 508 strings', () => {
    expect(pep440SpecKind('==1.0')).toBe('exact');
    expect(pep440SpecKind('==1.*')).toBe('range');
    expect(pep440SpecKind('>=1,<2')).toBe('range');
    expect(parsePep508('Flask_SQLAlchemy[async] >=3.0 ; python_version > "3.8"')).toEqual({ name: 'flask-sqlalchemy', rawName: 'Flask_SQLAlchemy', specifier: '>=3.0', kind: 'range' });
    expect(parsePep508('pkg @ git+https://example.org/pkg.git@v1')?.kind).toBe('git');
    expect(parsePep508('requests')?.kind).toBe('unpinned');
  });

  it('knows its file names', () => {
    expect(declaredFormatFor('a/b/package.json')).toBe('package-json');
    expect(declaredFormatFor('PyProject.toml')).toBe('pyproject');
    expect(declaredFormatFor('package-lock.json')).toBeUndefined();
  });

  it.skipIf(!hasCorpora())('reads the corpus package.json files with lines', () => {
    const d = readDeclaredManifest('package.json', lock('npm/v3-conftest-example-ts/package.json'));
    expect(d.ecosystem).toBe('npm');
    expect(d.dependencies.length).toBeGreaterThan(0);
    const text = lock('npm/v3-conftest-example-ts/package.json').split('\n');
    for (const dep of d.dependencies) expect(text[dep.line ?? -1]).toContain(`"${dep.rawName ?? dep.name}"`);
    const big = readDeclaredManifest('package.json', lock('pnpm/v9.0-cdxgen/package.json'));
    expect(big.dependencies.length).toBeGreaterThan(20);
  });

  it.skipIf(!hasCorpora())('reads PEP 621 and poetry pyproject files', () => {
    const intoto = readDeclaredManifest('pyproject.toml', lock('python/in-toto/pyproject.toml'));
    expect(intoto.project?.name).toBe('in-toto');
    expect(intoto.dependencies.some((d) => d.name === 'securesystemslib')).toBe(true);
    const gd = readDeclaredManifest('pyproject.toml', lock('python/guarddog/pyproject.toml'));
    expect(gd.dependencies.length).toBeGreaterThan(5);
    const text = lock('python/guarddog/pyproject.toml').split('\n');
    for (const dep of gd.dependencies) if (dep.line !== undefined) expect(text[dep.line]?.toLowerCase().replace(/[-_.]/g, '-')).toContain(dep.name);
  });

  it('refuses malformed and truncated input cleanly and warns on damaged entries', () => {
    expect(() => readDeclaredManifest('package.json', '{"dependencies": {"a": "1.0.0"')).toThrow(/malformed/);
    expect(() => readDeclaredManifest('package.json', '[1,2]')).toThrow(/not a JSON object/);
    expect(() => readDeclaredManifest('pyproject.toml', '[project\nname = ')).toThrow(/TOML/);
    const d = readDeclaredManifest('package.json', '{"dependencies": {"a": 1, "b": "^1"}, "devDependencies": []}');
    expect(d.dependencies.map((x) => x.name)).toEqual(['b']);
    expect(d.warnings.map((x) => x.code)).toEqual(['malformed_entry', 'malformed_entry']);
  });
});
