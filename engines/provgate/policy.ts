// The deterministic policy: a registry of rules over the enriched collection, the strictest verdict, every reason with its graph path, and the PR comment.
import { mdText } from '../core/markdown.js';
import { missingStages, type CollectResult } from './collect.js';
import { SCANNERS, severityRank, type Severity } from './events.js';
import { pathLabels, type Finding } from './graph.js';
import type { Decision, Reason, Verdict } from '../core/contracts/provgate.js';

export type { Decision, Reason, Verdict } from '../core/contracts/provgate.js';

/** Verdicts, least strict first: the decision is the strictest any rule produced (pass when none). */
export const VERDICTS = ['pass', 'warn', 'block'] as const satisfies readonly Verdict[];

export function verdictRank(v: Verdict): number {
  return VERDICTS.indexOf(v);
}

export type RuleOutput = Omit<Reason, 'rule'>;

/** A rule: a name and what it yields over a collection result. */
export interface Rule {
  readonly name: string;
  evaluate(res: CollectResult): Iterable<RuleOutput>;
}

function findingPath(res: CollectResult, f: Finding): { path: string[]; pathIds: string[] } {
  const ids = res.graph.upstreamPath(f.nodeId, 'commit') ?? [f.nodeId];
  return { path: pathLabels(res.graph, ids), pathIds: ids };
}

const isScanner = (f: Finding): boolean => SCANNERS.includes(f.source);
const highOrWorse = (s: Severity): boolean => severityRank(s) >= severityRank('high');

export const provenanceIntegrity: Rule = {
  name: 'provenance_integrity',
  *evaluate(res) {
    for (const r of res.rejected) yield { verdict: 'block', message: r.reason, path: [], pathIds: [] };
    const missing = missingStages(res);
    if (missing.length > 0) yield { verdict: 'block', message: `no verified event for required stage${missing.length === 1 ? '' : 's'} ${missing.join(', ')}`, path: [], pathIds: [] };
  },
};

/** Finding sources that flag a dependency as malicious: the scorer, and OSV malicious-package records. */
export const MALICIOUS_SOURCES: readonly string[] = ['scorer', 'osv-malicious'];

export const maliciousDependency: Rule = {
  name: 'malicious_dependency',
  *evaluate(res) {
    for (const f of res.graph.findings) {
      if (!MALICIOUS_SOURCES.includes(f.source)) continue;
      yield { verdict: 'block', message: f.title, finding: f.id, severity: f.severity, evidence: f.evidence, ...findingPath(res, f) };
    }
  },
};

export const vulnerableDependency: Rule = {
  name: 'vulnerable_dependency',
  *evaluate(res) {
    for (const f of res.graph.findings) {
      if (!isScanner(f)) continue;
      // Unknown reachability counts as reachable: only evidence of non-use downgrades a high or critical CVE.
      const verdict: Verdict = highOrWorse(f.severity) && f.reachable !== false ? 'block' : 'warn';
      const node = res.graph.nodes.get(f.nodeId);
      yield {
        verdict,
        message: `${f.cve ?? f.id} (${f.severity}) in ${node?.label ?? 'a dependency'}${f.reachable === false ? ', not reachable' : ''}`,
        finding: f.cve ?? f.id,
        severity: f.severity,
        reachable: f.reachable,
        evidence: f.evidence,
        ...findingPath(res, f),
      };
    }
  },
};

export const unattributedFinding: Rule = {
  name: 'unattributed_finding',
  *evaluate(res) {
    for (const u of res.unattributed) {
      if (!SCANNERS.includes(u.source)) continue;
      yield {
        verdict: highOrWorse(u.severity) ? 'block' : 'warn',
        message: `${u.cve} (${u.severity}) in ${u.package}@${u.version} matches no SBOM package`,
        finding: u.cve,
        severity: u.severity,
        path: [],
        pathIds: [],
      };
    }
  },
};

/** SAST: every analysis finding is a reason; its verdict follows its severity (critical, high: block; medium: warn; low: pass). */
export const sast: Rule = {
  name: 'sast',
  *evaluate(res) {
    for (const f of res.graph.findings) {
      if (f.source !== 'sast') continue;
      const verdict: Verdict = highOrWorse(f.severity) ? 'block' : f.severity === 'medium' ? 'warn' : 'pass';
      yield { verdict, message: f.title, finding: f.id, severity: f.severity, evidence: f.evidence, ...findingPath(res, f) };
    }
  },
};

/** The registered rules, in evaluation order. */
export const RULES: Rule[] = [provenanceIntegrity, maliciousDependency, vulnerableDependency, unattributedFinding, sast];

/** Adds a rule to the registry (a rule of the same name is replaced). */
export function registerRule(rule: Rule): void {
  const i = RULES.findIndex((r) => r.name === rule.name);
  if (i >= 0) RULES[i] = rule;
  else RULES.push(rule);
}

/** `evaluate`: every rule over the result; the strictest verdict and every reason. */
export function evaluate(res: CollectResult, rules: readonly Rule[] = RULES): Decision {
  let verdict: Verdict = 'pass';
  const reasons: Reason[] = [];
  for (const rule of rules) {
    for (const out of rule.evaluate(res)) {
      reasons.push({ rule: rule.name, ...out });
      if (verdictRank(out.verdict) > verdictRank(verdict)) verdict = out.verdict;
    }
  }
  return { verdict, reasons };
}

/** Text from events made safe for the PR comment: at most `max` characters, then engines/core/markdown.ts's mdText (no markup, HTML, cells, links, mentions or references; one line). */
export function markdownText(text: string, max = 500): string {
  // A cut between the halves of a surrogate pair would leave a lone surrogate, shown as an escape.
  const end = text.length > max && /[\ud800-\udbff]/.test(text.charAt(max - 1)) ? max - 1 : max;
  return mdText(text.slice(0, end));
}

/**
 * The longest PR comment: GitHub refuses a comment body over 65,536 characters, so the reasons listed stop short of it
 * (the decision keeps every reason; the counts line counts them all).
 */
export const MAX_COMMENT_CHARS = 60_000;

/** `pr_comment`: the decision as a Markdown pull-request comment (blocking reasons first), at most MAX_COMMENT_CHARS characters. */
export function prComment(d: Decision): string {
  const counts = VERDICTS.map((v) => [v, d.reasons.filter((r) => r.verdict === v).length] as const);
  const lines = [`## Provenance gate: ${d.verdict.toUpperCase()}`, ''];
  lines.push(counts.map(([v, n]) => `${n} ${v}`).join(' · '), '');
  if (d.reasons.length === 0) lines.push('No policy violations.');
  const ordered = [...d.reasons].sort((a, b) => verdictRank(b.verdict) - verdictRank(a.verdict));
  let size = lines.reduce((n, l) => n + l.length + 1, 0);
  for (const [i, r] of ordered.entries()) {
    const block = [`- **${r.verdict.toUpperCase()}** \`${r.rule}\`: ${markdownText(r.message)}`];
    if (r.path.length > 0) block.push(`  - path: ${r.path.map((p) => markdownText(p, 200)).join(' → ')}`);
    for (const e of r.evidence ?? []) block.push(`  - evidence: ${markdownText(e, 300)}`);
    const add = block.reduce((n, l) => n + l.length + 1, 0);
    // Room is kept for the closing line, whose count has at most 7 digits (the lists hold at most 200,000 envelopes).
    if (size + add > MAX_COMMENT_CHARS - 100) {
      lines.push(`- … ${ordered.length - i} more reason(s) not listed here: the decision lists every reason`);
      break;
    }
    lines.push(...block);
    size += add;
  }
  return `${lines.join('\n')}\n`;
}
