// Lineage on real git repositories built here: first-parent history with a rename, several versions per name, unparseable versions, PR numbers, blame, pickaxe, refusals, and the lineage command end to end.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from './cli.js';
import { isMalformed, verifyEnvelope } from './envelope.js';
import { loadEnvelopes } from './files.js';
import { blameEntryIntroducers, blameIntroducers, commitEvents, manifestHistory, pickaxeExact, pickaxeFirstMention, prFromSubject, safeRelpath } from './lineage.js';
import { demoTrust } from './keys.js';

const root = mkdtempSync(path.join(tmpdir(), 'provgate-lineage-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function repo(name: string): { dir: string; commit: (files: Record<string, string | null>, subject: string) => string; git: (...args: string[]) => string } {
  const dir = path.join(root, name);
  mkdirSync(dir);
  const git = (...args: string[]): string =>
    execFileSync('git', ['-C', dir, ...args], { encoding: 'utf8', env: { ...process.env, GIT_AUTHOR_DATE: '2024-01-01T00:00:00Z', GIT_COMMITTER_DATE: '2024-01-01T00:00:00Z' } });
  git('init', '-q', '-b', 'main');
  git('config', 'user.email', 'dev@example.com');
  git('config', 'user.name', 'Dev');
  git('config', 'commit.gpgsign', 'false');
  const commit = (files: Record<string, string | null>, subject: string): string => {
    for (const [file, text] of Object.entries(files)) {
      if (text === null) git('rm', '-q', file);
      else {
        mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
        writeFileSync(path.join(dir, file), text);
        git('add', file);
      }
    }
    git('commit', '-q', '--allow-empty', '-m', subject);
    return git('rev-parse', 'HEAD').trim();
  };
  return { dir, commit, git };
}

const shas: Record<string, string> = {};
let req: ReturnType<typeof repo>;

beforeAll(() => {
  req = repo('req');
  shas['init'] = req.commit({ 'requirements.txt': 'flask==1.0\nrequests==2.0\n' }, 'Initial requirements (#1)');
  shas['bump'] = req.commit({ 'requirements.txt': 'flask==1.1\nrequests==2.0\n' }, 'Bump flask (#2)');
  shas['comment'] = req.commit({ 'requirements.txt': '# pinned\nflask==1.1\nrequests==2.0\n' }, 'Explain the pins');
  req.git('mv', 'requirements.txt', 'req.txt');
  shas['rename'] = req.commit({}, 'Rename the requirements file');
  shas['merge'] = req.commit({ 'req.txt': '# pinned\nflask==1.1\nrequests==2.1\nPyYAML==5.3\n' }, 'Merge pull request #9 from dev/yaml');
  shas['other'] = req.commit({ 'README.md': 'hello\n' }, 'Docs only');
});

describe('manifest_history and commit_events', () => {
  it('oldest first, only commits that changed pins, renames followed, PEP 503 names', () => {
    const h = manifestHistory(req.dir, 'req.txt');
    expect(h.map((c) => c.sha)).toEqual([shas['init'], shas['bump'], shas['merge']]);
    expect(h.map((c) => c.path)).toEqual(['requirements.txt', 'requirements.txt', 'req.txt']);
    expect(h[0]).toMatchObject({ author: 'Dev <dev@example.com>', subject: 'Initial requirements (#1)', removed: [] });
    expect(h[0]?.added).toEqual([
      { name: 'flask', version: '1.0', ecosystem: 'pypi' },
      { name: 'requests', version: '2.0', ecosystem: 'pypi' },
    ]);
    expect(h[1]).toMatchObject({ added: [{ name: 'flask', version: '1.1' }], removed: [{ name: 'flask', version: '1.0' }] });
    expect(h[2]?.added.map((p) => `${p.name}@${p.version}`).sort()).toEqual(['pyyaml@5.3', 'requests@2.1']);
    expect(manifestHistory(req.dir, 'req.txt', { limit: 1 }).map((c) => c.sha)).toEqual([shas['merge']]);
    // The manifest is named as it is at the revision.
    expect(manifestHistory(req.dir, 'requirements.txt', { rev: shas['bump'] as string }).map((c) => c.sha)).toEqual([shas['init'], shas['bump']]);
    expect(manifestHistory(req.dir, 'req.txt', { rev: shas['bump'] as string })).toEqual([]);
  });

  it('commit events: PR from the subject, seq, manifest path', () => {
    const events = commitEvents(manifestHistory(req.dir, 'req.txt'), 'req.txt');
    expect(events.map((e) => (e.payload as { pr: number | null }).pr)).toEqual([1, 2, 9]);
    expect(events.map((e) => (e.payload as { seq: number }).seq)).toEqual([0, 1, 2]);
    expect(events[0]?.runId).toBe(`git-${shas['init']?.slice(0, 12)}`);
    expect(events[2]?.payload).toMatchObject({ manifest: 'req.txt', timestamp: '2024-01-01T00:00:00+00:00' });
    expect(prFromSubject('Fix (#12)')).toBe(12);
    expect(prFromSubject('Merge pull request #7 from a/b')).toBe(7);
    expect(prFromSubject('Update (!5)')).toBe(5);
    expect(prFromSubject('Fixes issue #3 later')).toBeNull();
  });

  it('a lock file with two versions of one name gives two pins (one in the single-version view); an unparseable version keeps the pins', () => {
    const r = repo('npm');
    const lock = (aNested: string | null): string =>
      JSON.stringify(
        {
          name: 'app',
          lockfileVersion: 3,
          packages: {
            '': { name: 'app', dependencies: { a: '^1.0.0', b: '^1.0.0' } },
            'node_modules/a': { version: '1.0.0' },
            'node_modules/b': { version: '1.0.0' },
            ...(aNested === null ? {} : { 'node_modules/b/node_modules/a': { version: aNested } }),
          },
        },
        null,
        2,
      );
    const one = r.commit({ 'package-lock.json': lock(null) }, 'Lock (#3)');
    const two = r.commit({ 'package-lock.json': lock('2.0.0') }, 'b needs a 2 (#4)');
    r.commit({ 'package-lock.json': '{"lockfileVersion": 3, "packages": ' }, 'Broken lock');
    const four = r.commit({ 'package-lock.json': lock('2.0.1') }, 'Nested a 2.0.1 (#5)');
    const h = manifestHistory(r.dir, 'package-lock.json');
    expect(h.map((c) => c.sha)).toEqual([one, two, four]);
    expect(h[1]?.added).toEqual([{ name: 'a', version: '2.0.0', ecosystem: 'npm' }]);
    expect(h[2]).toMatchObject({ added: [{ name: 'a', version: '2.0.1' }], removed: [{ name: 'a', version: '2.0.0' }] });
    // One version per name (first in file order): the nested a never shows.
    expect(manifestHistory(r.dir, 'package-lock.json', { multiVersion: false }).map((c) => c.sha)).toEqual([one]);
    // Blame sees lines, not pins: the broken commit and its repair rewrote every line, so blame names the repair for all
    // three pins, where the version-aware history above still knows a@1.0.0 and b@1.0.0 came with the first lock.
    const entries = blameEntryIntroducers(r.dir, 'package-lock.json');
    expect(entries.map((e) => `${e.name}@${e.version}`)).toEqual(['a@1.0.0', 'b@1.0.0', 'a@2.0.1']);
    expect(entries.every((e) => e.sha === four)).toBe(true);
  });
});

describe('blame and pickaxe', () => {
  it('blame_introducers: the commit that last wrote each pin line, through the rename', () => {
    const b = blameIntroducers(req.dir, 'req.txt');
    expect(b.get('flask')).toBe(shas['bump']);
    expect(b.get('requests')).toBe(shas['merge']);
    expect(b.get('pyyaml')).toBe(shas['merge']);
    expect(blameEntryIntroducers(req.dir, 'req.txt').map((e) => e.line)).toEqual([1, 2, 3]);
  });

  it('pickaxe_exact: newest commit changing the count of a token; pickaxe_first_mention: oldest diff naming it', () => {
    expect(pickaxeExact(req.dir, 'req.txt', 'flask==1.1')).toBe(shas['bump']);
    expect(pickaxeExact(req.dir, 'req.txt', 'flask==1.0')).toBe(shas['bump']);
    expect(pickaxeExact(req.dir, 'req.txt', 'django')).toBeNull();
    expect(pickaxeFirstMention(req.dir, 'req.txt', 'requests')).toBe(shas['init']);
    // Regular-expression characters are literal.
    expect(pickaxeFirstMention(req.dir, 'req.txt', 'flask==1.')).toBe(shas['init']);
    expect(pickaxeFirstMention(req.dir, 'req.txt', 'fl.sk')).toBeNull();
  });
});

describe('refusals', () => {
  it('safe_relpath', () => {
    for (const ok of ['requirements.txt', 'a/b/poetry.lock', 'x..y/go.sum']) expect(safeRelpath(ok), ok).toBe(true);
    for (const bad of ['', '/etc/passwd', '../x', 'a/../b', './x', 'a/./b', '.git/config', 'a/.GIT/x', 'a\\b', 'C:/x', 'c:', 'a//b', 'a/', 42]) expect(safeRelpath(bad), String(bad)).toBe(false);
  });

  it('unsafe manifests, option-like revisions and non-repositories are refused without naming them', () => {
    expect(() => manifestHistory(req.dir, '../etc/passwd')).toThrow('safe relative path');
    expect(() => manifestHistory(req.dir, 'req.txt', { rev: '--output=/tmp/x' })).toThrow('plain git revision');
    expect(() => pickaxeExact(req.dir, 'req.txt', '')).toThrow('token');
    const notRepo = path.join(root, 'plain');
    mkdirSync(notRepo);
    let message = '';
    try {
      manifestHistory(notRepo, 'req.txt');
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toBe('git could not read the repository or revision');
    expect(manifestHistory(req.dir, 'missing.txt')).toEqual([]);
  });
});

describe('provgate lineage', () => {
  it('writes signed commit events that verify and carry the history', async () => {
    const out = path.join(root, 'lineage.json');
    const r = await main(['lineage', req.dir, 'req.txt', '-o', out]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ wrote: 3, demoKey: true });
    const envs = loadEnvelopes(out);
    const events = envs.map((e) => (isMalformed(e) ? null : verifyEnvelope(e, demoTrust())));
    expect(events.map((e) => e?.stage)).toEqual(['commit', 'commit', 'commit']);
    expect(JSON.parse(readFileSync(out, 'utf8'))).toHaveLength(3);
    expect((await main(['lineage', req.dir, 'req.txt', '--limit', '2', '-o', out])).code).toBe(0);
    expect(loadEnvelopes(out)).toHaveLength(2);
  });
});
