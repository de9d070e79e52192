// The shipped popular-package list and the typosquat check over it, on the real Python lock files of the corpus.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { pep503, parseManifestEntries } from '../core/manifests/index.js';
import { corpusPath, hasCorpora } from '../../test/corpora.js';
import { TyposquatScorer } from './enrich.js';
import { defaultResourcesDir } from './index.js';
import { loadTopPypi, MAX_TOP_PYPI, parseTopPypi, topPypiFile, TOP_PYPI_RELATIVE } from './toppypi.js';

const shipped = path.join(defaultResourcesDir(), TOP_PYPI_RELATIVE);
const names = loadTopPypi(shipped) ?? [];
const ref = (name: string) => ({ name, version: '1', ecosystem: 'pypi', purl: `pkg:pypi/${name}@1` });

describe('the shipped list (resources/core/popular/pypi.txt)', () => {
  it('holds 14,985 distinct PEP 503 names in rank order, with its provenance in the header', () => {
    expect(names).toHaveLength(14_985);
    expect(new Set(names).size).toBe(names.length);
    for (const n of names) expect(n).toBe(pep503(n));
    expect(names.slice(0, 3)).toEqual(['boto3', 'packaging', 'urllib3']);
    for (const n of ['requests', 'numpy', 'pyyaml', 'django', 'flask', 'typing-extensions', 'colorama']) expect(names).toContain(n);
    const header = readFileSync(shipped, 'utf8').split('\n').filter((l) => l.startsWith('#')).join('\n');
    expect(header).toMatch(/rank among the 15,000 most downloaded/);
    expect(header).toMatch(/no download counts/);
  });

  it('is what the command line and the service read unless VITRINE_TOP_PYPI names another', () => {
    expect(topPypiFile('/r', {})).toBe(path.join('/r', TOP_PYPI_RELATIVE));
    expect(topPypiFile('/r', { VITRINE_TOP_PYPI: '/elsewhere.txt' })).toBe('/elsewhere.txt');
    expect(topPypiFile('/r', { VITRINE_TOP_PYPI: '' })).toBe(path.join('/r', TOP_PYPI_RELATIVE));
  });
});

describe('reading a list', () => {
  it('comments, blank and invalid lines skipped; names PEP 503 normalised, first occurrence kept', () => {
    expect(parseTopPypi('# top\nRequests\n\n  six  # inline\ntyping_extensions\nrequests\n-bad\nnot a name\nZope.Interface\r\n')).toEqual(['requests', 'six', 'typing-extensions', 'zope-interface']);
    expect(parseTopPypi(Array.from({ length: MAX_TOP_PYPI + 5 }, (_, i) => `p${i}`).join('\n'))).toHaveLength(MAX_TOP_PYPI);
  });

  it('a missing file is null (the caller says so), an empty one no names', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'vitrine-toppypi-'));
    expect(loadTopPypi(path.join(dir, 'absent.txt'))).toBeNull();
    writeFileSync(path.join(dir, 'empty.txt'), '# nothing\n');
    expect(loadTopPypi(path.join(dir, 'empty.txt'))).toEqual([]);
  });
});

describe('the typosquat check over the shipped list', () => {
  const scorer = new TyposquatScorer({ pypi: names });

  it('flags names one edit from a popular one; popular names, PEP 503 spellings and short names pass', () => {
    for (const [typo, popular] of [
      ['reqeusts', 'requests'],
      ['colourama', 'colorama'],
      ['djanga', 'django'],
    ] as const) {
      const r = scorer.score(ref(typo));
      expect(r?.malicious, typo).toBe(true);
      expect(r?.reasons.join(' ')).toContain(popular);
    }
    for (const ok of ['requests', 'typing_extensions', 'Typing.Extensions', 'PyYAML', 'python-dateutil']) expect(scorer.score(ref(ok))?.malicious, ok).toBe(false);
  });

  it.skipIf(!hasCorpora())('flags none of the 139 distinct real dependencies of the corpus lock files (guarddog, timesketch, in-toto)', () => {
    const files = ['python/guarddog/poetry.lock', 'python/guarddog/uv.lock', 'python/timesketch/requirements.txt', 'python/in-toto/requirements-pinned.txt'];
    const seen = new Set<string>();
    const flagged: string[] = [];
    for (const f of files) {
      const file = corpusPath('supplychain', 'lockfiles', ...f.split('/'));
      for (const e of parseManifestEntries(path.basename(file), readFileSync(file, 'utf8'))) {
        if (seen.has(`${f}:${e.name}`)) continue;
        seen.add(`${f}:${e.name}`);
        if (scorer.score(ref(e.name))?.malicious) flagged.push(e.name);
      }
    }
    expect(seen.size).toBe(139);
    expect(flagged).toEqual([]);
  });
});
