/**
 * The regular expressions shipped as data, compiled as the engines compile them, as gate entries keyed by the file
 * that holds them: the pkgscan source rules (resources/pkgscan/rules/*.yml; their flags, `i` by default, and `g`),
 * petriage's capability rules (resources/petriage/capabilities.yaml) and attrib's technique phrases
 * (engines/attrib/extract/phrases.ts, wrapped and flagged as techniques.ts wraps them). Data, but they run over
 * evidence like code.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { TECHNIQUE_PHRASES } from '../../engines/attrib/extract/phrases.js';
import { compileRules } from '../../engines/pkgscan/analyzers/source/rules.js';
import type { FoundRegex } from './extract.js';

export const RULES_DIR = 'resources/pkgscan/rules';

export const CAPABILITY_RULES = 'resources/petriage/capabilities.yaml';
export const PHRASES = 'engines/attrib/extract/phrases.ts';

/** The line of the first place `needle` stands in `text` (0 when it is not found). */
const lineOf = (text: string, needle: string): number => {
  const at = text.indexOf(needle);
  return at < 0 ? 0 : text.slice(0, at).split('\n').length;
};

/** petriage's capability string patterns (their flags, `i` by default) and URL exclusions (`i`). */
function capabilityPatterns(root: string): FoundRegex[] {
  const text = readFileSync(join(root, CAPABILITY_RULES), 'utf8');
  const file = parseYaml(text) as { capabilities?: { strings?: ({ regex?: string[]; flags?: string } | Record<string, unknown>)[] }[]; url_evidence?: { exclude_patterns?: string[]; exclude_contexts?: string[] } };
  const out: FoundRegex[] = [];
  const add = (source: string, flags: string): void => {
    out.push({ file: CAPABILITY_RULES, line: lineOf(text, source.slice(0, 20)), source, flags, text: source });
  };
  for (const rule of file.capabilities ?? [])
    for (const group of rule.strings ?? [])
      if (Array.isArray(group['regex'])) for (const source of group['regex'] as string[]) add(source, typeof group['flags'] === 'string' ? group['flags'] : 'i');
  for (const source of [...(file.url_evidence?.exclude_patterns ?? []), ...(file.url_evidence?.exclude_contexts ?? [])]) add(source, 'i');
  return out;
}

/** attrib's technique phrases as techniques.ts compiles them. */
function phrasePatterns(root: string): FoundRegex[] {
  const text = readFileSync(join(root, PHRASES), 'utf8');
  return Object.values(TECHNIQUE_PHRASES).flatMap((list) =>
    list.map((p) => {
      const source = new RegExp(`(?<![\\p{L}\\p{N}_])(?:${p})(?![\\p{L}\\p{N}_])`, 'giu').source;
      return { file: PHRASES, line: lineOf(text, p.slice(0, 12)), source, flags: 'giu', text: source };
    }),
  );
}

export function rulePatterns(root: string): FoundRegex[] {
  const out: FoundRegex[] = [...capabilityPatterns(root), ...phrasePatterns(root)];
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
