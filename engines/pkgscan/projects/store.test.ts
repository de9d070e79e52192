// Migration 9 and the project store on both backends (one parameterised suite): tables, case-insensitive unique names
// held by the constraint under racing creations (two servers on PostgreSQL), scans with components, cascading removal;
// and file classification.
import { describe, expect, it } from 'vitest';
import { backendCases, backendFixture } from '../../../test/postgres/backends.js';
import { schemaVersion } from '../../core/store.js';
import { classifyFile } from './files.js';
import { allComponents, COMPONENT_CHUNK, componentRowsOf, createProject, getProjectScan, listComponents, listProjects, listProjectScans, saveProjectScan } from './store.js';
import { newestVerdictFor, newestVerdictsFor, VERDICT_BATCH } from './verdicts.js';

const fixture = backendFixture();

/** A project scan's record with no findings, warnings or manifests: the decision, risk and component count as given. */
const projectScan = (projectId: string, id: string, o: { decision: 'allow' | 'warn' | 'block'; risk: number; components: number }) => ({
  id,
  project_id: projectId,
  environment: 'prod',
  decision: o.decision,
  risk: o.risk,
  counts: { files: 1, components: o.components, findings: 0, warnings: 0 },
  created_by: 'u1',
  created_at: '2026-01-01T00:00:00.000Z',
  decision_reasons: [],
  manifests: [],
  findings: [],
  parser_warnings: [],
  skipped_files: [],
});
const EMPTY_GRAPH_JSON = JSON.stringify({ nodes: [], edges: [], metrics: { depth: 0, node_count: 0, edge_count: 0, single_points_of_failure: [], top_blast_radius: [] } });

for (const backend of backendCases) {
  describe.skipIf(backend.skip)(`project store on ${backend.title}`, () => {
    it('migration 9 creates the tables; names are unique without regard to case', async () => {
      const b = await fixture.open(backend.name);
      const db = b.store;
      expect(schemaVersion(b.sqlite, 'pkgscan')).toBeGreaterThanOrEqual(9);
      const p = await db.transaction((q) => createProject(q, { name: 'Alpha' }, 'u1'));
      await expect(db.transaction((q) => createProject(q, { name: 'alpha' }, 'u1'))).rejects.toMatchObject({ code: 'conflict' });
      // The constraint itself, not a check in code, refuses another case of the name.
      await expect(db.run("INSERT INTO pkgscan_projects (id, name, created_by, created_at) VALUES ('x', 'ALPHA', 'u', 't')")).rejects.toThrow(/UNIQUE|duplicate key/i);
      await db.transaction((q) => createProject(q, { name: 'beta_1' }, 'u1'));
      expect((await listProjects(db, undefined, 10, 0)).items.map((x) => x.name)).toEqual(['Alpha', 'beta_1']);
      expect((await listProjects(db, '_', 10, 0)).items.map((x) => x.name)).toEqual(['beta_1']);
      const scan = projectScan(p.id, '11111111-1111-4111-8111-111111111111', { decision: 'warn', risk: 0.2, components: 2 });
      const comp = (name: string, direct: boolean) => ({ ecosystem: 'npm', name, version: '1.0.0', purl: null, environment: 'prod', direct, dev: false, files: ['package-lock.json'], verdict: null, hashes: [], download: null });
      await db.transaction((q) => saveProjectScan(q, { scan, components: componentRowsOf([comp('a', true), comp('b', false)]), graphJson: EMPTY_GRAPH_JSON, sbomJson: '{}' }));
      expect((await getProjectScan(db, p.id, scan.id))?.decision).toBe('warn');
      expect(await getProjectScan(db, 'other', scan.id)).toBeUndefined();
      expect((await listProjectScans(db, p.id, 10, 0)).items[0]).toMatchObject({ id: scan.id, counts: { components: 2 } });
      expect((await listComponents(db, scan.id, false, 10, 0)).items.map((c) => c.name)).toEqual(['b']);
      expect((await listProjects(db, 'alpha', 10, 0)).items[0]?.last_scan).toMatchObject({ id: scan.id, decision: 'warn' });
      await db.run('DELETE FROM pkgscan_projects WHERE id = ?', [p.id]);
      expect((await db.get<{ n: number }>('SELECT COUNT(*) AS n FROM pkgscan_project_components'))?.n).toBe(0);
      expect(await newestVerdictFor(db, 'npm', 'a', '1.0.0', 'prod')).toBeUndefined();
    });

    it('a scan of several statements of components is stored whole or not at all, in order; readers never see part of it', async () => {
      const b = await fixture.open(backend.name);
      const db = b.store;
      const p = await db.transaction((q) => createProject(q, { name: 'Chunks' }, 'u1'));
      const n = COMPONENT_CHUNK * 2 + 5;
      const scanOf = (id: string) => projectScan(p.id, id, { decision: 'allow', risk: 0, components: n });
      const comps = Array.from({ length: n }, (_, i) => ({ ecosystem: 'pypi', name: `p${i}`, version: '1.0.0', purl: null, environment: 'prod', direct: i % 2 === 0, dev: false, files: ['requirements.txt'], verdict: null, hashes: [], download: null }));
      const count = async (id: string): Promise<number> => (await (backend.name === 'postgres' ? b.another() : db).get<{ n: number }>('SELECT COUNT(*) AS n FROM pkgscan_project_components WHERE scan_id = ?', [id]))?.n ?? -1;
      // a row of the second statement is refused: nothing of the scan stays
      const broken = componentRowsOf(comps).map((r, i) => (i === COMPONENT_CHUNK + 1 ? { ...r, json: null as unknown as string } : r));
      const bad = '22222222-2222-4222-8222-222222222222';
      await expect(db.transaction((q) => saveProjectScan(q, { scan: scanOf(bad), components: broken, graphJson: EMPTY_GRAPH_JSON, sbomJson: '{}' }))).rejects.toThrow();
      expect(await getProjectScan(db, p.id, bad)).toBeUndefined();
      expect(Number(await count(bad))).toBe(0);
      // while a whole one is written (the loop gets turns between statements), a reader sees none of it or all of it
      const good = '33333333-3333-4333-8333-333333333333';
      const saving = db.transaction((q) => saveProjectScan(q, { scan: scanOf(good), components: componentRowsOf(comps), graphJson: EMPTY_GRAPH_JSON, sbomJson: '{}' }));
      const during: number[] = [];
      for (let i = 0; i < 3; i++) {
        await new Promise((resolve) => setImmediate(resolve));
        during.push(Number(await count(good)));
      }
      await saving;
      for (const seen of during) expect([0, n]).toContain(seen);
      expect(Number(await count(good))).toBe(n);
      expect((await allComponents(db, good)).map((c) => c.name)).toEqual(comps.map((c) => c.name));
      expect((await listComponents(db, good, true, 1000, 0)).total).toBe(COMPONENT_CHUNK + 3);
    });

    it('newest verdicts of many components in batches: the newest per release and environment, null where none, in order', async () => {
      const b = await fixture.open(backend.name);
      const db = b.store;
      const insert = (id: string, name: string, version: string, environment: string, decision: string, created: string) =>
        db.run(
          `INSERT INTO pkgscan_scans (id, ecosystem, name, version, environment, decision, severity, risk_score, findings_count, incomplete, package_sha256, analyzer_version, created_by, created_at, verdict_json)
           VALUES (?, 'npm', ?, ?, ?, ?, 'low', 0.5, 0, 0, ?, '1', 'u', ?, '{}')`,
          [id, name, version, environment, decision, 'a'.repeat(64), created],
        );
      // more distinct releases than one batch holds, the stored ones spread over both batches
      const n = VERDICT_BATCH + 20;
      for (const i of [0, 7, VERDICT_BATCH + 3]) await insert(`s-old-${i}`, `p${i}`, '1.0.0', 'prod', 'allow', '2026-01-01T00:00:00.000Z');
      for (const i of [0, VERDICT_BATCH + 3]) await insert(`s-new-${i}`, `p${i}`, '1.0.0', 'prod', 'block', '2026-02-01T00:00:00.000Z');
      await insert('s-dev-7', 'p7', '1.0.0', 'dev', 'block', '2026-03-01T00:00:00.000Z');
      await insert('s-other-version', 'p1', '2.0.0', 'prod', 'block', '2026-03-01T00:00:00.000Z');
      const keys = Array.from({ length: n }, (_, i) => ({ ecosystem: 'npm', name: `p${i}`, version: '1.0.0' }));
      keys.push({ ecosystem: 'npm', name: 'p0', version: '1.0.0' }, { ecosystem: 'pypi', name: 'p0', version: '1.0.0' });
      const got = await newestVerdictsFor(db, keys, 'prod');
      expect(got).toHaveLength(keys.length);
      const stored = got.map((v, i) => [i, v?.scan_id, v?.decision] as const).filter(([, id]) => id !== undefined);
      expect(stored).toEqual([
        [0, 's-new-0', 'block'],
        [7, 's-old-7', 'allow'],
        [VERDICT_BATCH + 3, `s-new-${VERDICT_BATCH + 3}`, 'block'],
        [n, 's-new-0', 'block'],
      ]);
      expect(got[n + 1]).toBeNull();
      expect(await newestVerdictFor(db, 'npm', 'p7', '1.0.0', 'dev')).toMatchObject({ scan_id: 's-dev-7', decision: 'block', severity: 'low', risk_score: 0.5 });
      expect(await newestVerdictsFor(db, [], 'prod')).toEqual([]);
    });

    it('twelve racing creations of one name in different cases (through two servers on PostgreSQL): exactly one wins, the rest are 409', async () => {
      const b = await fixture.open(backend.name);
      const dbs = [b.store, b.another()];
      const names = Array.from({ length: 12 }, (_, i) => (i % 2 === 0 ? 'Shared Name' : 'shared name'));
      const results = await Promise.allSettled(names.map((name, i) => (dbs[i % 2] ?? b.store).transaction((q) => createProject(q, { name }, `u${i}`))));
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
      expect(refused).toHaveLength(11);
      for (const r of refused) expect(r.reason).toMatchObject({ code: 'conflict' });
      expect((await listProjects(b.store, 'shared', 10, 0)).total).toBe(1);
    });
  });
}

describe('project files', () => {
  it('sends each submitted file to the right reader', () => {
    const kinds = (p: string): string => {
      const k = classifyFile(p);
      return 'format' in k ? `${k.kind}:${k.format}` : k.kind;
    };
    expect(kinds('a/package-lock.json')).toBe('lock:package-lock');
    expect(kinds('Cargo.lock')).toBe('lock:cargo-lock');
    expect(kinds('api/Pipfile.lock')).toBe('lock:pipfile-lock');
    expect(kinds('requirements-dev.txt')).toBe('lock:requirements');
    expect(kinds('requirements/base.txt')).toBe('lock:requirements');
    expect(kinds('dev-requirements.in')).toBe('lock:requirements');
    expect(kinds('notes.txt')).toBe('skipped');
    expect(kinds('package.json')).toBe('declared:package-json');
    expect(kinds('svc/pyproject.toml')).toBe('declared:pyproject');
    expect(kinds('Dockerfile')).toBe('dockerfile');
    expect(kinds('Dockerfile.prod')).toBe('dockerfile');
    expect(kinds('api.Dockerfile')).toBe('dockerfile');
    expect(kinds('Containerfile')).toBe('dockerfile');
    expect(kinds('docker-compose.override.yml')).toBe('compose');
    expect(kinds('compose.yaml')).toBe('compose');
    expect(kinds('.npmrc')).toBe('npmrc');
    expect(kinds('bun.lock')).toBe('lock:bun-lock');
    expect(kinds('web/bun.lockb')).toBe('lock:bun-lockb');
    expect(kinds('Cargo.toml')).toBe('skipped');
  });
});
