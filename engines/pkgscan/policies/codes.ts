// One registry of the finding codes and risk dimensions a scan can give, built from the rule files and the analyzers; policy validation refuses anything else.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ATTACK_CHAIN_CODE } from '../analyzers/chains.js';
import { METADATA_FINDING_CODES } from '../analyzers/metadata.js';
import { RISK_DIMENSIONS } from '../analyzers/risk.js';
import { loadRules } from '../analyzers/source/rules.js';
import { defaultResourcesDir } from '../config.js';
import { PROVENANCE_FINDING_CODES } from '../provenance/verify.js';
import { ARCHIVE_FINDING_CODES } from '../scans/analysis.js';
import { SECRET_PATTERNS } from '../tools/secrets.js';

export interface CodeRegistry {
  /** Exact finding codes, each with where it comes from. */
  readonly codes: ReadonlyMap<string, string>;
  /** Families of codes an optional tool names after its own rules (`bandit_b605`, `gitleaks_github_pat`). */
  readonly prefixes: readonly { readonly prefix: string; readonly source: string }[];
  /** Risk dimensions a verdict carries (`model` only when a risk model is loaded). */
  readonly dimensions: readonly string[];
}

/** Finding codes the scan itself gives besides the analyzers. */
const SCAN_CODES: Readonly<Record<string, string>> = {
  identity_mismatch: 'scan (the archive declares another release than the source listed)',
  [ATTACK_CHAIN_CODE]: 'source-rules (a capability and a threat in one flow)',
  source_file_too_large: 'source-rules (a file over the size limit was not read)',
};

const TOOL_PREFIXES = [
  { prefix: 'bandit_', source: 'bandit (its test ids)' },
  { prefix: 'gitleaks_', source: 'gitleaks (its rule ids)' },
  { prefix: 'trufflehog_', source: 'trufflehog (its detector names)' },
  { prefix: 'yara_', source: 'yara (rules without a code in their meta)' },
] as const;

/** The `code = "..."` meta of the shipped YARA rules. */
function yaraCodes(resourcesDir: string): string[] {
  try {
    const text = readFileSync(path.join(resourcesDir, 'pkgscan', 'yara', 'packages.yar'), 'utf8');
    return [...text.matchAll(/^\s*code\s*=\s*"([a-z0-9_]{1,100})"/gm)].map((m) => m[1] ?? '').filter((c) => c !== '');
  } catch {
    return [];
  }
}

const cache = new Map<string, CodeRegistry>();

/** The registry for a resources folder (rule files and YARA rules are read once). */
export function codeRegistry(resourcesDir: string = defaultResourcesDir()): CodeRegistry {
  const hit = cache.get(resourcesDir);
  if (hit) return hit;
  const codes = new Map<string, string>();
  for (const r of loadRules(resourcesDir)) codes.set(r.id, `rule file (${r.category})`);
  for (const c of METADATA_FINDING_CODES) codes.set(c, 'metadata analyzer');
  for (const c of ARCHIVE_FINDING_CODES) codes.set(c, 'archive analyzer');
  for (const c of PROVENANCE_FINDING_CODES) codes.set(c, 'provenance analyzer');
  for (const p of SECRET_PATTERNS) codes.set(p.code, 'secrets analyzer');
  for (const c of yaraCodes(resourcesDir)) codes.set(c, 'yara rules');
  for (const [c, source] of Object.entries(SCAN_CODES)) codes.set(c, source);
  const registry: CodeRegistry = { codes, prefixes: TOOL_PREFIXES, dimensions: [...RISK_DIMENSIONS, 'model'] };
  cache.set(resourcesDir, registry);
  return registry;
}

export function isKnownCode(r: CodeRegistry, code: string): boolean {
  return r.codes.has(code) || r.prefixes.some((p) => code.startsWith(p.prefix) && code.length > p.prefix.length);
}
