// Tests for the requirements-file parser: pip syntax edge cases, the last-line-wins pin rule, and the two real files of the corpus.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { corpusPath } from '../../../test/corpora.js';
import { parseManifest, parseManifestEntries, pinEntries, pinLines, readManifest } from './index.js';

const corpus = (...p: string[]): string => readFileSync(corpusPath('supplychain', 'lockfiles', ...p), 'utf8');

describe('requirements files', () => {
  it('reads names, exact pins, extras, markers and PEP 503 names', () => {
    const text = [
      '# comment line',
      'Flask_SQLAlchemy==3.0.3  # trailing comment',
      'requests[socks, Security]==2.32.5 ; python_version >= "3.8"',
      'numpy>=2.4.6',
      'zope.interface === 6.0',
      'wild==1.*',
      'pkg (==1.0)',
      '',
    ].join('\n');
    const doc = readManifest('requirements.txt', text);
    expect(doc.format).toBe('requirements');
    expect(doc.ecosystem).toBe('pypi');
    expect(doc.warnings).toEqual([]);
    expect(doc.requirements?.map((r) => [r.name, r.specifier, r.pinnedVersion])).toEqual([
      ['flask-sqlalchemy', '==3.0.3', '3.0.3'],
      ['requests', '==2.32.5', '2.32.5'],
      ['numpy', '>=2.4.6', undefined],
      ['zope-interface', '===6.0', '6.0'],
      ['wild', '==1.*', undefined],
      ['pkg', '==1.0', '1.0'],
    ]);
    const requests = doc.entries.find((e) => e.name === 'requests');
    expect(requests?.extras).toEqual(['socks', 'security']);
    expect(requests?.marker).toBe('python_version >= "3.8"');
    expect(doc.entries.find((e) => e.name === 'flask-sqlalchemy')?.rawName).toBe('Flask_SQLAlchemy');
    expect(pinEntries('requirements.txt', text)).toEqual([
      { name: 'flask-sqlalchemy', version: '3.0.3', line: 1, keyLine: 1 },
      { name: 'requests', version: '2.32.5', line: 2, keyLine: 2 },
      { name: 'zope-interface', version: '6.0', line: 4, keyLine: 4 },
      { name: 'pkg', version: '1.0', line: 6, keyLine: 6 },
    ]);
  });

  it('joins continuations, keeps --hash values and gives the version its own physical line', () => {
    const text = [
      'cryptography \\',
      '    ==42.0.5 \\',
      '    --hash=sha256:aaaa \\',
      '    --hash sha256:bbbb',
      'six==1.16.0 --hash=sha256:cccc',
    ].join('\n');
    const doc = readManifest('requirements-lock.txt', text);
    expect(doc.warnings).toEqual([]);
    const crypto = doc.entries.find((e) => e.name === 'cryptography');
    expect(crypto).toMatchObject({ version: '42.0.5', keyLine: 0, line: 1, checksums: ['sha256:aaaa', 'sha256:bbbb'] });
    expect(doc.entries.find((e) => e.name === 'six')).toMatchObject({ line: 4, keyLine: 4, checksums: ['sha256:cccc'] });
  });

  it('reports -r and -c includes without following them, and keeps global options', () => {
    const text = [
      '-r base.txt',
      '--requirement=dev.txt',
      '-c constraints.txt',
      '-rglued.txt',
      '--index-url https://pypi.example/simple',
      '--extra-index-url=https://mirror.example/simple',
      '--require-hashes',
      '-e git+https://example.org/repo.git#egg=localpkg',
      'https://example.org/wheels/thing-1.0-py3-none-any.whl',
      'named @ https://example.org/named-2.0.tar.gz ; sys_platform == "linux"',
      './vendor/local-1.0.tar.gz',
      'attrs==23.2.0',
    ].join('\n');
    const doc = readManifest('requirements.in', text);
    expect(doc.warnings).toEqual([]);
    expect(doc.includes).toEqual([
      { kind: 'requirements', target: 'base.txt', line: 0 },
      { kind: 'requirements', target: 'dev.txt', line: 1 },
      { kind: 'constraints', target: 'constraints.txt', line: 2 },
      { kind: 'requirements', target: 'glued.txt', line: 3 },
    ]);
    expect(doc.options).toEqual([
      { option: '--index-url', value: 'https://pypi.example/simple', line: 4 },
      { option: '--extra-index-url', value: 'https://mirror.example/simple', line: 5 },
      { option: '--require-hashes', line: 6 },
    ]);
    expect(doc.requirements?.map((r) => [r.kind, r.name])).toEqual([
      ['editable', 'localpkg'],
      ['url', undefined],
      ['url', 'named'],
      ['path', undefined],
      ['name', 'attrs'],
    ]);
    expect(doc.requirements?.find((r) => r.name === 'named')?.marker).toBe('sys_platform == "linux"');
    // only the registry pin is a pin
    expect(parseManifestEntries('requirements.in', text).map((e) => e.name)).toEqual(['attrs']);
  });

  it('keeps the last line per name (the spec pin rule), in file order', () => {
    const text = ['Django==3.2', 'attrs==1.0', 'django==4.2 ; python_version >= "3.10"'].join('\n');
    expect(pinEntries('requirements.txt', text)).toEqual([
      { name: 'attrs', version: '1.0', line: 1, keyLine: 1 },
      { name: 'django', version: '4.2', line: 2, keyLine: 2 },
    ]);
    expect(parseManifest('requirements.txt', text)).toEqual(
      new Map([
        ['attrs', '1.0'],
        ['django', '4.2'],
      ]),
    );
    expect(pinLines('requirements.txt', text)).toEqual(
      new Map([
        ['attrs', 1],
        ['django', 2],
      ]),
    );
  });

  it('turns lines it cannot read into warnings with their line, never an exception', () => {
    const text = ['good==1.0', '!!!', 'bad[extra==1', 'weird ~~ 1', '--unknown-flag', 'x==1 --bogus', 'ok==2'].join('\n');
    const doc = readManifest('requirements.txt', text);
    expect(doc.entries.map((e) => e.name)).toEqual(['good', 'ok']);
    expect(doc.warnings.map((w) => [w.code, w.line])).toEqual([
      ['unparsed_line', 1],
      ['unparsed_line', 2],
      ['unparsed_line', 3],
      ['unknown_option', 4],
      ['unknown_option', 5],
    ]);
    // warnings are written by us and never quote the file
    for (const w of doc.warnings) expect(w.message).not.toMatch(/bogus|unknown-flag|weird|!!!/);
  });

  it('handles CRLF line ends and a byte order mark', () => {
    const text = '\ufeffalpha==1.0\r\nbeta==2.0\r\n';
    expect(pinEntries('requirements.txt', text)).toEqual([
      { name: 'alpha', version: '1.0', line: 0, keyLine: 0 },
      { name: 'beta', version: '2.0', line: 1, keyLine: 1 },
    ]);
  });

  it('reads timesketch requirements.txt: 52 requirement lines, 37 exact pins, a marker', () => {
    const text = corpus('python', 'timesketch', 'requirements.txt');
    const doc = readManifest('requirements.txt', text);
    expect(doc.warnings).toEqual([]);
    expect(doc.requirements).toHaveLength(52);
    const pins = parseManifestEntries('requirements.txt', text);
    expect(pins).toHaveLength(37);
    expect(pins.find((e) => e.name === 'sigmatools')).toMatchObject({ version: '0.19.1', marker: "python_version > '3.4'", line: 36 });
    expect(pins.find((e) => e.name === 'flask-bcrypt')).toMatchObject({ rawName: 'flask_bcrypt', version: '1.0.1' });
    expect(pins.find((e) => e.name === 'pyjwt')?.version).toBe('2.13.0');
    expect(pins.some((e) => e.name === 'numpy')).toBe(false);
  });

  it('reads in-toto requirements-pinned.txt from pip-compile: 10 pins, extras, via comments ignored', () => {
    const text = corpus('python', 'in-toto', 'requirements-pinned.txt');
    const doc = readManifest('requirements-pinned.txt', text);
    expect(doc.warnings).toEqual([]);
    expect(doc.requirements).toHaveLength(10);
    const pins = pinEntries('requirements-pinned.txt', text);
    expect(pins).toHaveLength(10);
    expect(pins?.find((p) => p.name === 'python-dateutil')?.version).toBe('2.9.0.post0');
    expect(doc.entries.find((e) => e.name === 'securesystemslib')).toMatchObject({ version: '0.31.0', extras: ['crypto', 'pynacl'] });
    expect(doc.includes).toEqual([]);
  });
});
