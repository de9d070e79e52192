// The optional `yara` analyzer: the shipped rules (resources/pkgscan/yara/*.yar) over a private copy of the release's files.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import type { ScanFinding } from '../../core/contracts/pkgscan.js';
import type { Analyzer, AnalyzerContext, AnalyzerOutput } from '../analyzers/types.js';
import type { PackageRelease } from '../package/types.js';
import { asCategory, asSeverity, boundMatch, SEVERITIES, capFindings, failure, lineAt, resolved, unavailable, withData, type ToolAnalyzerOptions } from './common.js';
import { findOnPath, runTool } from './run.js';
import { withWorkdir, type Workdir } from './workdir.js';
import { lastLineTerminator } from '../../core/linear-text.js';
import { setOwn } from '../../core/own.js';

export const YARA_ANALYZER = 'yara';

export interface YaraMatch {
  readonly rule: string;
  readonly meta: Readonly<Record<string, string>>;
  /** The path yara printed. */
  readonly target: string;
  readonly strings: readonly { readonly offset: number; readonly id: string; readonly text: string }[];
}

/** Reads `yara -m -s` output: a `rule [meta] path` line per match, then `0xOFFSET:$id: data` lines. */
export function parseYaraOutput(out: string): YaraMatch[] {
  const matches: { rule: string; meta: Record<string, string>; target: string; strings: { offset: number; id: string; text: string }[] }[] = [];
  for (const line of out.split('\n')) {
    if (line === '') continue;
    const s = /^0x([0-9a-f]+):(\$[\w]*): ?(.*)$/.exec(line);
    if (s) {
      const cur = matches[matches.length - 1];
      if (cur && s[1] !== undefined) cur.strings.push({ offset: Number.parseInt(s[1], 16), id: s[2] ?? '', text: s[3] ?? '' });
      continue;
    }
    // Neither pattern matches a line with a line terminator in it (`.` and `$` stop there), and the first would read the
    // rest of the line again after each `] ` before it (a target path holding `\r`): such a line is skipped at once.
    if (lastLineTerminator(line) >= 0) continue;
    const h = /^([A-Za-z_]\w*) \[(.*?)\] (.+)$/.exec(line) ?? /^([A-Za-z_]\w*) (.+)$/.exec(line);
    if (!h) continue;
    const withMeta = h.length === 4;
    const meta: Record<string, string> = {};
    if (withMeta) for (const m of (h[2] ?? '').matchAll(/(\w+)=(?:"((?:[^"\\]|\\.)*)"|(-?\d+|true|false))/g)) setOwn(meta, m[1] ?? '', m[2] ?? m[3] ?? '');
    matches.push({ rule: h[1] ?? '', meta, target: (withMeta ? h[3] : h[2]) ?? '', strings: [] });
  }
  return matches;
}

/** Documentation is read by people, not run: an idiom there (`curl ... | sh` in a README) is worth a look, not a verdict. */
export function isDocumentation(p: string): boolean {
  const base = p.split('/').pop() ?? '';
  return /\.(md|markdown|rst|adoc|txt)$/i.test(base) || /^(readme|changelog|changes|history|license|licence|authors|contributing)(\.[a-z]+)?$/i.test(base);
}

export function yaraFindings(matches: readonly YaraMatch[], w: Pick<Workdir, 'file'>): ScanFinding[] {
  const out: ScanFinding[] = [];
  for (const m of matches) {
    const file = w.file(m.target);
    if (!file) continue;
    const first = [...m.strings].sort((a, b) => a.offset - b.offset)[0];
    const technique = m.meta['technique'];
    const severity = asSeverity(m.meta['severity'], 'medium');
    const doc = isDocumentation(file.path);
    const title = m.meta['description'] ?? `YARA rule ${m.rule} matched`;
    out.push({
      code: m.meta['code'] ?? `yara_${m.rule.toLowerCase()}`,
      severity: doc && SEVERITIES.indexOf(severity) > SEVERITIES.indexOf('low') ? 'low' : severity,
      category: asCategory(m.meta['category'], 'tool'),
      title: doc ? `${title} (in documentation)` : title,
      file: file.path,
      line: first && file.data ? lineAt(file.data, first.offset) : null,
      match: first ? boundMatch(first.text) : null,
      technique: technique && technique !== '-' ? technique : null,
      analyzer: YARA_ANALYZER,
    });
  }
  return out;
}

export function ruleFiles(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isFile() && /\.(yar|yara)$/.test(e.name))
      .map((e) => path.join(dir, e.name))
      .sort();
  } catch {
    return [];
  }
}

/** `yara` with the shipped rules; `unavailable` when yara is not on PATH. */
export function yaraAnalyzer(options: ToolAnalyzerOptions & { readonly rulesDir?: string } = {}): Analyzer {
  const o = resolved(options);
  return {
    name: YARA_ANALYZER,
    version: '1.0.0',
    async analyze(release: PackageRelease, ctx: AnalyzerContext): Promise<AnalyzerOutput> {
      const exe = findOnPath('yara', options.pathVar);
      if (exe === null) return unavailable('yara');
      const rules = ruleFiles(options.rulesDir ?? path.join(ctx.resourcesDir, 'pkgscan', 'yara'));
      if (rules.length === 0) return { findings: [], status: 'failed', message: 'no YARA rules are shipped' };
      const files = withData(release.files);
      if (files.length === 0) return { findings: [], status: 'ok', message: 'no file to scan' };
      try {
        return await withWorkdir(files, async (w) => {
          // -N never follows links, -p 1 one thread (shared cores), -a yara's own time limit under ours.
          const seconds = Math.max(1, Math.floor(o.timeoutMs / 1000) - 1);
          const args = ['-w', '-m', '-s', '-r', '-N', '-p', '1', '-a', String(seconds), ...rules, w.dir];
          const r = await runTool('yara', exe, args, { timeoutMs: o.timeoutMs, maxOutputBytes: o.maxOutputBytes, cwd: w.dir, ...(ctx.signal ? { signal: ctx.signal } : {}) });
          if (r.code !== 0) return { findings: [], status: 'failed', message: 'yara exited with an error' };
          const note: string[] = [];
          if (w.skipped > 0) note.push(`${w.skipped} files not scanned`);
          const findings = capFindings(yaraFindings(parseYaraOutput(r.stdout), w), o.maxFindings, note);
          return { findings, status: 'ok', ...(note.length > 0 ? { message: note.join('; ') } : {}) };
        });
      } catch (err) {
        return failure(err, 'yara');
      }
    },
  };
}
