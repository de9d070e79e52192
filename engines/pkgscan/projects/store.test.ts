// Migration 9 and the project store: tables, case-insensitive unique names, scans with components, cascading removal; and file classification.
import { describe, expect, it } from 'vitest';
import { openMemoryStore, schemaVersion } from '../../core/store.js';
import { pkgscanService } from '../service.js';
import { classifyFile } from './files.js';
import { createProject, getProjectScan, listComponents, listProjects, listProjectScans, saveProjectScan } from './store.js';
import { newestVerdictFor } from './verdicts.js';

describe('project store', () => {
  it('migration 9 creates the tables; names are unique without regard to case', () => {
    const db = openMemoryStore([pkgscanService]);
    expect(schemaVersion(db, 'pkgscan')).toBeGreaterThanOrEqual(9);
    const p = createProject(db, { name: 'Alpha' }, 'u1');
    expect(() => createProject(db, { name: 'alpha' }, 'u1')).toThrow(expect.objectContaining({ code: 'conflict' }));
    expect(() => db.prepare("INSERT INTO pkgscan_projects (id, name, created_by, created_at) VALUES ('x', 'ALPHA', 'u', 't')").run()).toThrow(/UNIQUE/);
    createProject(db, { name: 'beta_1' }, 'u1');
    expect(listProjects(db, undefined, 10, 0).items.map((x) => x.name)).toEqual(['Alpha', 'beta_1']);
    expect(listProjects(db, '_', 10, 0).items.map((x) => x.name)).toEqual(['beta_1']);
    const scan = {
      id: '11111111-1111-4111-8111-111111111111',
      project_id: p.id,
      environment: 'prod',
      decision: 'warn' as const,
      risk: 0.2,
      counts: { files: 1, components: 2, findings: 0, warnings: 0 },
      created_by: 'u1',
      created_at: '2026-01-01T00:00:00.000Z',
      decision_reasons: [],
      manifests: [],
      findings: [],
      parser_warnings: [],
      skipped_files: [],
    };
    const comp = (name: string, direct: boolean) => ({ ecosystem: 'npm', name, version: '1.0.0', purl: null, environment: 'prod', direct, dev: false, files: ['package-lock.json'], verdict: null, hashes: [], download: null });
    saveProjectScan(db, { scan, components: [comp('a', true), comp('b', false)], graph: { nodes: [], edges: [], metrics: { depth: 0, node_count: 0, edge_count: 0, single_points_of_failure: [], top_blast_radius: [] } }, sbom: {} });
    expect(getProjectScan(db, p.id, scan.id)?.decision).toBe('warn');
    expect(getProjectScan(db, 'other', scan.id)).toBeUndefined();
    expect(listProjectScans(db, p.id, 10, 0).items[0]).toMatchObject({ id: scan.id, counts: { components: 2 } });
    expect(listComponents(db, scan.id, false, 10, 0).items.map((c) => c.name)).toEqual(['b']);
    expect(listProjects(db, 'alpha', 10, 0).items[0]?.last_scan).toMatchObject({ id: scan.id, decision: 'warn' });
    db.prepare('DELETE FROM pkgscan_projects WHERE id = ?').run(p.id);
    expect((db.prepare('SELECT COUNT(*) AS n FROM pkgscan_project_components').get() as { n: number }).n).toBe(0);
    expect(newestVerdictFor(db, 'npm', 'a', '1.0.0', 'prod')).toBeUndefined();
  });

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
