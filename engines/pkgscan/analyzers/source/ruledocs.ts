// The rule tables of docs/pkgscan-analyzers.md, generated from the shipped YAML rules (one table per rules file), so the page cannot drift from what ships; a test holds the page to this text.
import { mdCode, mdCodeCell, mdText } from '../../../core/markdown.js';
import type { CompiledRule } from './rules.js';

/** The markers around the generated part of the page. */
export const RULES_BEGIN = '<!-- rule tables: generated from resources/pkgscan/rules/*.yml; do not edit by hand -->';
export const RULES_END = '<!-- end of the generated rule tables -->';

function severityOf(r: CompiledRule): string {
  if (r.onlyInInstallHook) return `${r.severity}, install hooks only`;
  const install = r.installHookSeverity !== null && r.installHookSeverity !== r.severity ? r.installHookSeverity : null;
  if (r.importSeverity !== null && r.importSeverity !== r.severity) return `${r.severity} (on import ${r.importSeverity}${install === null ? '' : `, at install ${install}`})`;
  return install === null ? r.severity : `${r.severity} (${install})`;
}

/** Markdown: per rules file (class) a heading line and a table of its rules, in the order the files and rules are read; every value from a rules file escaped (engines/core/markdown.ts). */
export function renderRuleTables(rules: readonly CompiledRule[]): string {
  const classes: string[] = [];
  for (const r of rules) if (!classes.includes(r.ruleClass)) classes.push(r.ruleClass);
  const out: string[] = [];
  for (const c of classes) {
    out.push(`**${mdText(c)}** (${mdCode(`resources/pkgscan/rules/${c}.yml`)})`, '', '| id | severity (install-time) | role / kind | technique | languages | what |', '|---|---|---|---|---|---|');
    for (const r of rules.filter((x) => x.ruleClass === c)) {
      const role = r.kind === null ? r.role : `${r.role} / ${r.kind}`;
      const detector = r.detector === null ? '' : ` (detector ${mdCodeCell(r.detector)})`;
      out.push(`| ${mdCodeCell(r.id)} | ${mdText(severityOf(r))} | ${mdText(role)} | ${mdText(r.technique ?? '-')} | ${mdText([...r.languages].join(', '))} | ${mdText(r.title)}${detector} |`);
    }
    out.push('');
  }
  return out.join('\n').trimEnd();
}

/** The page with its generated part replaced; null when the markers are missing. */
export function withRuleTables(page: string, rules: readonly CompiledRule[]): string | null {
  const a = page.indexOf(RULES_BEGIN);
  const b = page.indexOf(RULES_END);
  if (a === -1 || b === -1 || b < a) return null;
  return `${page.slice(0, a + RULES_BEGIN.length)}\n\n${renderRuleTables(rules)}\n\n${page.slice(b)}`;
}
