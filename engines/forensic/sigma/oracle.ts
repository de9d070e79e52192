// SigmaHQ's regression check as a function: each regression sample's EVTX through our loader and rules, the named rule's hit count.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { ingestArtifact } from '../ingest.js';
import type { SigmaRuleSet } from './ruleset.js';

export interface OracleResult {
  readonly sample: string;
  readonly ruleId: string;
  readonly expected: number | null;
  /** Events the named rule matched; -1 when the rule is not in the set. */
  readonly got: number;
  /** The rule's events when the set holds it, else why not. */
  readonly note: string;
}

function infoFiles(dir: string): string[] {
  const out: string[] = [];
  for (const d of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, d.name);
    if (d.isDirectory()) out.push(...infoFiles(full));
    else if (d.name === 'info.yml') out.push(full);
  }
  return out.sort();
}

/** Runs every regression sample below `root` (the corpus's regression_data) against the rule set. */
export function runRegression(root: string, rules: SigmaRuleSet): OracleResult[] {
  const byId = new Map(rules.rules.map((r, i) => [r.id, i]));
  const results: OracleResult[] = [];
  for (const info of infoFiles(root)) {
    const meta = parse(readFileSync(info, 'utf8')) as { rule_metadata?: { id: string }[]; regression_tests_info?: { match_count?: number; path?: string }[] };
    const ruleId = meta.rule_metadata?.[0]?.id ?? '';
    const test = meta.regression_tests_info?.[0];
    const dir = path.dirname(info);
    const evtx = readdirSync(dir).find((f) => f.endsWith('.evtx'));
    const sample = path.relative(root, dir);
    const expected = typeof test?.match_count === 'number' ? test.match_count : null;
    const rule = byId.get(ruleId);
    if (evtx === undefined || statSync(path.join(dir, evtx)).size === 0) {
      results.push({ sample, ruleId, expected, got: -1, note: 'no EVTX file' });
      continue;
    }
    if (rule === undefined) {
      const skip = [...rules.skipped, ...rules.inapplicable].find((s) => s.id === ruleId);
      results.push({ sample, ruleId, expected, got: -1, note: skip ? skip.reason : 'rule not in the set' });
      continue;
    }
    const { events } = ingestArtifact(path.join(dir, evtx), { evidenceRoot: dir });
    let got = 0;
    for (const e of events) if (rules.match(e).includes(rule)) got++;
    results.push({ sample, ruleId, expected, got, note: `${events.length} events` });
  }
  return results;
}

/** Hits per rule over whole artefacts (the noise measure on benign logs): rule position → events matched. */
export function countHits(files: readonly string[], rules: SigmaRuleSet): { events: number; hits: Map<number, number> } {
  const hits = new Map<number, number>();
  let events = 0;
  for (const file of files) {
    const r = ingestArtifact(file, { evidenceRoot: path.dirname(file) });
    events += r.events.length;
    for (const e of r.events) for (const m of rules.match(e)) hits.set(m, (hits.get(m) ?? 0) + 1);
  }
  return { events, hits };
}
