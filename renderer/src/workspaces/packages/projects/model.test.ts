// Tests of the Projects tab's pure helpers: which files are sent, which skipped and why, findings by file, the drawn part of a large graph.
import { describe, expect, it } from 'vitest';
import type { DependencyGraph, GraphNode, ProjectFinding } from '../../../../../engines/core/contracts/pkgscan-projects';
import { drawnGraph, findingsByFile, isSupportedManifest, projectPath, selectFiles } from './model';

describe('isSupportedManifest', () => {
  it('takes the formats the service reads and nothing else', () => {
    for (const p of ['app/package-lock.json', 'yarn.lock', 'pnpm-lock.yaml', 'bun.lock', 'web/bun.lockb', 'poetry.lock', 'uv.lock', 'Cargo.lock', 'go.mod', 'go.sum', 'package.json', 'pyproject.toml', 'requirements-dev.txt', 'prod-requirements.txt', 'requirements/base.txt', 'Dockerfile', 'Dockerfile.prod', 'api.Dockerfile', 'Containerfile', 'docker-compose.override.yml', 'compose.yaml', '.npmrc', 'Pipfile.lock'])
      expect(isSupportedManifest(p), p).toBe(true);
    for (const p of ['README.md', 'Cargo.toml', 'src/index.ts', 'notes.txt', 'docs/compose.md']) expect(isSupportedManifest(p), p).toBe(false);
  });
});

describe('projectPath', () => {
  it('makes relative keys and refuses dot segments and control characters', () => {
    expect(projectPath('/proj/package.json')).toBe('proj/package.json');
    expect(projectPath('a\\b\\yarn.lock')).toBe('a/b/yarn.lock');
    expect(projectPath('a/../yarn.lock')).toBeNull();
    expect(projectPath('a//yarn.lock')).toBeNull();
    expect(projectPath('a/\u0001.lock')).toBeNull();
    expect(projectPath('')).toBeNull();
  });
});

describe('selectFiles', () => {
  it('sends supported files and lists the rest with a reason', () => {
    const r = selectFiles([
      { path: 'p/package.json', size: 10 },
      { path: 'p/package-lock.json', size: 10 },
      { path: 'p/README.md', size: 10 },
      { path: 'p/node_modules/x/package.json', size: 10 },
      { path: 'p/big/yarn.lock', size: 2_000_000 },
    ]);
    expect(r.send.map((f) => f.path)).toEqual(['p/package-lock.json', 'p/package.json']);
    expect(Object.fromEntries(r.skipped.map((s) => [s.path, s.why]))).toEqual({
      'p/README.md': expect.stringContaining('not a manifest'),
      'p/node_modules/x/package.json': expect.stringContaining('installed'),
      'p/big/yarn.lock': expect.stringContaining('1 MB'),
    });
  });
  it('keeps to 50 files and 5 MB in all', () => {
    const many = Array.from({ length: 60 }, (_, i) => ({ path: `d${String(i).padStart(2, '0')}/go.mod`, size: 1 }));
    const r = selectFiles(many);
    expect(r.send).toHaveLength(50);
    expect(r.skipped).toHaveLength(10);
    const heavy = Array.from({ length: 6 }, (_, i) => ({ path: `d${i}/uv.lock`, size: 900_000 }));
    expect(selectFiles(heavy).send).toHaveLength(5);
  });
});

const finding = (file: string, severity: ProjectFinding['severity'], line: number | null): ProjectFinding => ({ code: 'x', category: 'hygiene', severity, file, line, message: 'm' });

describe('findingsByFile', () => {
  it('puts the worst file first and orders each by line', () => {
    const g = findingsByFile([finding('a', 'low', 3), finding('b', 'high', 9), finding('a', 'medium', 1), finding('b', 'info', 2)]);
    expect(g.map((x) => [x.file, x.severity])).toEqual([
      ['b', 'high'],
      ['a', 'medium'],
    ]);
    expect(g[1]!.findings.map((f) => f.line)).toEqual([1, 3]);
  });
});

describe('drawnGraph', () => {
  const node = (id: string, over: Partial<GraphNode> = {}): GraphNode => ({ id, ecosystem: 'npm', name: id, version: '1.0.0', direct: false, depth: 2, blast_radius: 0, dominates: 0, decision: null, ...over });
  it('keeps root, direct, blocked and single points of failure before the rest, and only edges between kept nodes', () => {
    const nodes = [node('root', { depth: 0, ecosystem: null }), node('d', { direct: true, depth: 1 }), node('blocked', { decision: 'block' }), node('spof'), node('big', { blast_radius: 9 }), node('small')];
    const graph: DependencyGraph = {
      nodes,
      edges: [
        { from: 'root', to: 'd' },
        { from: 'd', to: 'small' },
        { from: 'd', to: 'spof' },
      ],
      metrics: { depth: 2, node_count: 6, edge_count: 3, single_points_of_failure: [{ id: 'spof', disconnects: 3 }], top_blast_radius: [] },
    };
    const d = drawnGraph(graph, 5);
    expect(d.nodes.map((n) => n.id).sort()).toEqual(['big', 'blocked', 'd', 'root', 'spof']);
    expect(d.edges).toEqual([
      { from: 'root', to: 'd' },
      { from: 'd', to: 'spof' },
    ]);
    expect(d.omitted).toBe(1);
    expect(d.spof.get('spof')).toBe(3);
  });
});
