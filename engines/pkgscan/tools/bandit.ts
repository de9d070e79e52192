// The optional `bandit` analyzer (Python static analyser, Debian's package): its JSON results over the release's .py files, as findings.
import { z } from 'zod';
import type { FindingCategory, ScanFinding, Severity } from '../../core/contracts/pkgscan.js';
import type { Analyzer, AnalyzerContext, AnalyzerOutput } from '../analyzers/types.js';
import type { PackageRelease, ReleaseFile } from '../package/types.js';
import { boundMatch, capFindings, failure, lineText, resolved, unavailable, type ToolAnalyzerOptions } from './common.js';
import { findOnPath, runTool } from './run.js';
import { withWorkdir, type Workdir } from './workdir.js';

export const BANDIT_ANALYZER = 'bandit';

const resultSchema = z.object({
  filename: z.string(),
  line_number: z.number().int().nonnegative(),
  issue_severity: z.string(),
  issue_confidence: z.string(),
  issue_text: z.string(),
  test_id: z.string(),
  test_name: z.string(),
});
const reportSchema = z.object({ results: z.array(z.unknown()), errors: z.array(z.unknown()).default([]) });

/** Code-quality checks that say nothing about what a package does to the machine installing it. */
const IGNORED = new Set(['B101', 'B110', 'B112', 'B311']);

/** What a bandit test says about package behaviour: category and ATT&CK technique. */
const KIND: Readonly<Record<string, { category: FindingCategory; technique: string | null }>> = {
  B102: { category: 'code_execution', technique: 'T1059.006' },
  B307: { category: 'code_execution', technique: 'T1059.006' },
  B301: { category: 'code_execution', technique: 'T1059.006' },
  B302: { category: 'code_execution', technique: 'T1059.006' },
  B403: { category: 'code_execution', technique: null },
  B310: { category: 'capability', technique: 'T1105' },
  B321: { category: 'capability', technique: 'T1105' },
  B323: { category: 'capability', technique: null },
  B501: { category: 'capability', technique: null },
  B602: { category: 'process_spawn', technique: 'T1059.004' },
  B603: { category: 'process_spawn', technique: 'T1059' },
  B604: { category: 'process_spawn', technique: 'T1059' },
  B605: { category: 'process_spawn', technique: 'T1059.004' },
  B606: { category: 'process_spawn', technique: 'T1059' },
  B607: { category: 'process_spawn', technique: 'T1059' },
  B404: { category: 'process_spawn', technique: null },
  B105: { category: 'tool', technique: 'T1552.001' },
  B106: { category: 'tool', technique: 'T1552.001' },
  B107: { category: 'tool', technique: 'T1552.001' },
};

/**
 * Bandit rates code-review risk, not intent: on the corpus its medium+ results hit 6 of 25 benign PyPI releases and
 * 11 of 74 malicious ones, so for admission they are evidence at most `low` (HIGH or MEDIUM with at least MEDIUM confidence), else info.
 */
export function banditSeverity(severity: string, confidence: string): Severity {
  const s = severity.toUpperCase();
  const c = confidence.toUpperCase();
  if ((s === 'HIGH' || s === 'MEDIUM') && (c === 'HIGH' || c === 'MEDIUM')) return 'low';
  return 'info';
}

/** Reads bandit's `-f json` report into findings; throws on a report that is not bandit's. */
export function banditFindings(json: string, w: Pick<Workdir, 'file'>): { findings: ScanFinding[]; errors: number } {
  const report = reportSchema.parse(JSON.parse(json));
  const findings: ScanFinding[] = [];
  for (const raw of report.results) {
    const r = resultSchema.safeParse(raw);
    if (!r.success || IGNORED.has(r.data.test_id)) continue;
    const file: ReleaseFile | null = w.file(r.data.filename);
    if (!file) continue;
    const kind = KIND[r.data.test_id] ?? { category: 'tool' as const, technique: null };
    findings.push({
      code: `bandit_${r.data.test_id.toLowerCase()}`,
      severity: banditSeverity(r.data.issue_severity, r.data.issue_confidence),
      category: kind.category,
      title: boundMatch(`${r.data.test_name}: ${r.data.issue_text}`),
      file: file.path,
      line: r.data.line_number > 0 ? r.data.line_number : null,
      match: file.data && r.data.line_number > 0 ? lineText(file.data, r.data.line_number) : null,
      technique: kind.technique,
      analyzer: BANDIT_ANALYZER,
    });
  }
  return { findings, errors: report.errors.length };
}

/** `bandit` over the release's Python files; `unavailable` when bandit is not on PATH. */
export function banditAnalyzer(options: ToolAnalyzerOptions = {}): Analyzer {
  const o = resolved(options);
  return {
    name: BANDIT_ANALYZER,
    version: '1.0.0',
    async analyze(release: PackageRelease, ctx: AnalyzerContext): Promise<AnalyzerOutput> {
      const exe = findOnPath('bandit', options.pathVar);
      if (exe === null) return unavailable('bandit');
      const py = release.files.filter((f) => f.data !== undefined && /\.pyw?$/i.test(f.path));
      if (py.length === 0) return { findings: [], status: 'ok', message: 'no Python file' };
      try {
        return await withWorkdir(py, async (w) => {
          // --ignore-nosec: a package must not be able to silence the check on its own lines with `# nosec`.
          const r = await runTool('bandit', exe, ['-r', '-f', 'json', '-q', '--ignore-nosec', '.'], { timeoutMs: o.timeoutMs, maxOutputBytes: o.maxOutputBytes, cwd: w.dir, ...(ctx.signal ? { signal: ctx.signal } : {}) });
          // bandit exits 1 when it reports issues.
          if (r.code !== 0 && r.code !== 1) return { findings: [], status: 'failed', message: 'bandit exited with an error' };
          let parsed: { findings: ScanFinding[]; errors: number };
          try {
            parsed = banditFindings(r.stdout, w);
          } catch {
            return { findings: [], status: 'failed', message: 'bandit output could not be read' };
          }
          const note: string[] = [];
          if (parsed.errors > 0) note.push(`${parsed.errors} Python files could not be parsed by bandit`);
          if (w.skipped > 0) note.push(`${w.skipped} files not scanned`);
          const findings = capFindings(parsed.findings, o.maxFindings, note);
          return { findings, status: 'ok', ...(note.length > 0 ? { message: note.join('; ') } : {}) };
        });
      } catch (err) {
        return failure(err, 'bandit');
      }
    },
  };
}
