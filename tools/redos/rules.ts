/**
 * The regular expressions of the shipped pkgscan source rules (resources/pkgscan/rules/*.yml), compiled as the
 * analyzer compiles them (its flags, `i` by default, and `g`), as gate entries keyed by their rules file: rule files
 * are data, but their patterns run over every package file like code.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { compileRules } from '../../engines/pkgscan/analyzers/source/rules.js';
import type { FoundRegex } from './extract.js';

export const RULES_DIR = 'resources/pkgscan/rules';

export function rulePatterns(root: string): FoundRegex[] {
  const out: FoundRegex[] = [];
  for (const name of readdirSync(join(root, RULES_DIR)).filter((f) => f.endsWith('.yml')).sort()) {
    const file = `${RULES_DIR}/${name}`;
    const text = readFileSync(join(root, file), 'utf8');
    for (const rule of compileRules({ [name]: text })) {
      // The line of the rule's id, so a problem points at the rule.
      const at = text.indexOf(`id: ${rule.id}`);
      const line = at < 0 ? 0 : text.slice(0, at).split('\n').length;
      for (const re of [...rule.patterns, ...rule.all, ...rule.not]) out.push({ file, line, source: re.source, flags: re.flags, text: re.source });
    }
  }
  return out;
}
