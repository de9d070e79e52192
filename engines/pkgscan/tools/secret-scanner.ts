// The optional `secret-scanner` analyzer: gitleaks, else trufflehog (never verifying a secret online), over a private copy of the release's files.
import { z } from 'zod';
import type { ScanFinding } from '../../core/contracts/pkgscan.js';
import type { Analyzer, AnalyzerContext, AnalyzerOutput } from '../analyzers/types.js';
import type { PackageRelease } from '../package/types.js';
import { boundMatch, capFindings, failure, resolved, withData, type ToolAnalyzerOptions } from './common.js';
import { findOnPath, runTool } from './run.js';
import { redact } from './secrets.js';
import { withWorkdir, type Workdir } from './workdir.js';

export const SECRET_SCANNER_ANALYZER = 'secret-scanner';

const gitleaksItem = z.object({ RuleID: z.string(), Description: z.string().optional(), File: z.string(), StartLine: z.number().int().optional(), Match: z.string().optional() });

function snake(s: string): string {
  return s.toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_|_$/g, '').slice(0, 60) || 'secret';
}

function secretFinding(tool: string, rule: string, title: string, file: string, line: number | null, match: string | null): ScanFinding {
  return { code: `${tool}_${snake(rule)}`, severity: 'high', category: 'tool', title: boundMatch(title), file, line, match, technique: 'T1552.001', analyzer: SECRET_SCANNER_ANALYZER };
}

/** gitleaks' JSON report (an array; run with --redact, so Match holds no secret). */
export function gitleaksFindings(json: string, w: Pick<Workdir, 'file'>): ScanFinding[] {
  const items = z.array(z.unknown()).parse(JSON.parse(json === '' ? '[]' : json));
  const out: ScanFinding[] = [];
  for (const raw of items) {
    const r = gitleaksItem.safeParse(raw);
    if (!r.success) continue;
    const file = w.file(r.data.File);
    if (!file) continue;
    const match = r.data.Match !== undefined ? boundMatch(r.data.Match) : null;
    out.push(secretFinding('gitleaks', r.data.RuleID, `${r.data.Description ?? r.data.RuleID} published in the package`, file.path, r.data.StartLine ?? null, match));
  }
  return out;
}

const truffleItem = z.object({
  DetectorName: z.string(),
  Redacted: z.string().optional(),
  Raw: z.string().optional(),
  SourceMetadata: z.object({ Data: z.object({ Filesystem: z.object({ file: z.string(), line: z.number().int().optional() }) }) }),
});

/** trufflehog's `--json` lines (one object per secret; Raw holds the secret, so only its redaction is kept). */
export function trufflehogFindings(jsonLines: string, w: Pick<Workdir, 'file'>): ScanFinding[] {
  const out: ScanFinding[] = [];
  for (const line of jsonLines.split('\n')) {
    if (line.trim() === '') continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      continue;
    }
    const r = truffleItem.safeParse(parsed);
    if (!r.success) continue;
    const fs = r.data.SourceMetadata.Data.Filesystem;
    const file = w.file(fs.file);
    if (!file) continue;
    const match = r.data.Redacted ? boundMatch(r.data.Redacted) : r.data.Raw ? boundMatch(redact(r.data.Raw)) : null;
    out.push(secretFinding('trufflehog', r.data.DetectorName, `${r.data.DetectorName} secret published in the package`, file.path, fs.line ?? null, match));
  }
  return out;
}

/** gitleaks when installed, else trufflehog; `unavailable` when neither is on PATH. */
export function secretScannerAnalyzer(options: ToolAnalyzerOptions = {}): Analyzer {
  const o = resolved(options);
  return {
    name: SECRET_SCANNER_ANALYZER,
    version: '1.0.0',
    async analyze(release: PackageRelease, ctx: AnalyzerContext): Promise<AnalyzerOutput> {
      const gitleaks = findOnPath('gitleaks', options.pathVar);
      const trufflehog = gitleaks === null ? findOnPath('trufflehog', options.pathVar) : null;
      if (gitleaks === null && trufflehog === null) return { findings: [], status: 'unavailable', message: 'no secret scanner (gitleaks or trufflehog) is installed' };
      const tool = gitleaks !== null ? 'gitleaks' : 'trufflehog';
      const files = withData(release.files);
      if (files.length === 0) return { findings: [], status: 'ok', message: 'no file to scan' };
      const run = { timeoutMs: o.timeoutMs, maxOutputBytes: o.maxOutputBytes, ...(ctx.signal ? { signal: ctx.signal } : {}) };
      try {
        return await withWorkdir(files, async (w) => {
          let findings: ScanFinding[];
          if (gitleaks !== null) {
            // --no-git: plain files; --redact: no secret in the report; report to stdout so nothing else is written.
            const args = ['detect', '--no-git', '--source', w.dir, '--report-format', 'json', '--report-path', '/dev/stdout', '--redact', '--exit-code', '0', '--no-banner', '--log-level', 'error'];
            const r = await runTool('gitleaks', gitleaks, args, { ...run, cwd: w.dir });
            if (r.code !== 0) return { findings: [], status: 'failed', message: 'gitleaks exited with an error' };
            try {
              findings = gitleaksFindings(r.stdout.trim(), w);
            } catch {
              return { findings: [], status: 'failed', message: 'gitleaks output could not be read' };
            }
          } else {
            // --no-verification: never send a found secret to its service to test it; --no-update: never reach out.
            const args = ['filesystem', w.dir, '--json', '--no-verification', '--no-update', '--concurrency', '1'];
            const r = await runTool('trufflehog', trufflehog ?? '', args, { ...run, cwd: w.dir });
            if (r.code !== 0) return { findings: [], status: 'failed', message: 'trufflehog exited with an error' };
            findings = trufflehogFindings(r.stdout, w);
          }
          const note: string[] = [`scanned by ${tool}`];
          if (w.skipped > 0) note.push(`${w.skipped} files not scanned`);
          return { findings: capFindings(findings, o.maxFindings, note), status: 'ok', message: note.join('; ') };
        });
      } catch (err) {
        return failure(err, tool);
      }
    },
  };
}
