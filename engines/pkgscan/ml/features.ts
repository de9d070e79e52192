// The risk model's fixed feature vector from what a package analysis already computes (findings, chains, metadata, inventory); its identity is the SHA-256 of the ordered names.
import { createHash } from 'node:crypto';
import type { AttackChain, FindingCategory, ScanFinding, Severity } from '../../core/contracts/pkgscan.js';
import type { DeclaredMetadata } from '../package/types.js';
import { BEHAVIOUR_CATEGORIES, SEVERITY_RANK, SOURCE_INSTALL_HOOKS as INSTALL_HOOKS } from '../vocabulary.js';

/**
 * Finding categories counted one feature each. `provenance`, `vulnerability` and `tool` are left out on purpose:
 * they depend on registry answers, the advisory feed and optional tools, which the labelled corpus (read offline) never has,
 * so a model trained on them would learn "absent" and meet something else in service. `destruction` is left out too:
 * the shipped model was trained on the categories before it, and its findings are high, which the verdict blocks on
 * whatever the score.
 */
export const FEATURE_CATEGORIES: readonly FindingCategory[] = [...BEHAVIOUR_CATEGORIES.filter((c) => c !== 'destruction'), 'metadata', 'archive'];
const IGNORED_CATEGORIES: ReadonlySet<FindingCategory> = new Set(['provenance', 'vulnerability', 'tool', 'destruction']);
const COUNTED_SEVERITIES: readonly Severity[] = ['low', 'medium', 'high', 'critical'];
/** Native code or executables by extension (the inventory keeps paths, not magic bytes). */
const BINARY_EXT = /\.(node|so|dll|exe|dylib|pyd|bin|elf|o|a|lib|jar|class|wasm)$/i;
const ARCHIVE_EXT = /\.(zip|tgz|tar|gz|bz2|xz|7z|rar|whl|egg)$/i;
const SCRIPT_EXT = /\.(js|mjs|cjs|ts|py|pyw|sh|bat|cmd|ps1)$/i;

/** The ordered feature names: changing this list changes FEATURE_SET_ID, and a model trained on another list is refused. */
export const FEATURE_NAMES: readonly string[] = [
  ...FEATURE_CATEGORIES.map((c) => `findings_${c}`),
  ...COUNTED_SEVERITIES.map((s) => `severity_${s}`),
  'distinct_codes',
  'chain_count',
  'chain_max_severity',
  'max_finding_severity',
  'install_hooks',
  'has_setup_py',
  'file_count',
  'unpacked_bytes_log2',
  'archive_bytes_log2',
  'max_file_bytes_log2',
  'binary_files',
  'nested_archives',
  'executable_files',
  'script_files',
  'dependency_count',
  'entry_points',
  'has_repository',
  'has_homepage',
  'has_license',
  'has_description',
  'has_author',
  'ecosystem_npm',
  'incomplete',
];

/** SHA-256 hex of the ordered names joined by newlines: the feature-set identity a model file carries. */
export function featureSetId(names: readonly string[] = FEATURE_NAMES): string {
  return createHash('sha256').update(names.join('\n')).digest('hex');
}

export const FEATURE_SET_ID = featureSetId();

/** What the features are computed from: a PackageAnalysis (scans/types.ts) fits, and so does a PackageRelease plus its analyzer result. */
export interface FeatureSource {
  readonly ecosystem: string;
  /** Archive bytes. */
  readonly size: number;
  readonly complete: boolean;
  readonly metadata: Pick<DeclaredMetadata, 'scripts' | 'dependencies' | 'entryPoints' | 'repository' | 'homepage' | 'license' | 'description' | 'author'>;
  readonly files: readonly { readonly path: string; readonly size: number; readonly executable: boolean }[];
  /** All files when `files` is a cut inventory. */
  readonly files_total?: number;
  readonly findings: readonly ScanFinding[];
  readonly chains: readonly AttackChain[];
}

const log2p = (x: number): number => Math.log2(1 + Math.max(0, x));
const flag = (v: unknown): number => (typeof v === 'string' ? (v.trim() !== '' ? 1 : 0) : v !== undefined && v !== null ? 1 : 0);

/** The feature vector, in FEATURE_NAMES order; every value is a finite number. */
export function extractFeatures(src: FeatureSource): Float64Array {
  const out: number[] = [];
  const findings = src.findings.filter((f) => !IGNORED_CATEGORIES.has(f.category));
  for (const c of FEATURE_CATEGORIES) out.push(findings.filter((f) => f.category === c).length);
  for (const s of COUNTED_SEVERITIES) out.push(findings.filter((f) => f.severity === s).length);
  out.push(new Set(findings.map((f) => f.code)).size);
  out.push(src.chains.length);
  out.push(src.chains.reduce((m, c) => Math.max(m, SEVERITY_RANK[c.severity]), 0));
  out.push(findings.reduce((m, f) => Math.max(m, SEVERITY_RANK[f.severity]), 0));
  out.push(INSTALL_HOOKS.filter((h) => src.metadata.scripts[h] !== undefined).length);
  out.push(src.files.some((f) => /(^|\/)setup\.py$/.test(f.path) && f.path.split('/').length <= 2) ? 1 : 0);
  out.push(Math.max(src.files_total ?? 0, src.files.length));
  out.push(log2p(src.files.reduce((s, f) => s + f.size, 0)));
  out.push(log2p(src.size));
  out.push(log2p(src.files.reduce((m, f) => Math.max(m, f.size), 0)));
  out.push(src.files.filter((f) => BINARY_EXT.test(f.path)).length);
  out.push(src.files.filter((f) => ARCHIVE_EXT.test(f.path)).length);
  out.push(src.files.filter((f) => f.executable).length);
  out.push(src.files.filter((f) => SCRIPT_EXT.test(f.path)).length);
  out.push(Object.keys(src.metadata.dependencies).length);
  out.push(src.metadata.entryPoints.length);
  const m = src.metadata;
  out.push(flag(m.repository), flag(m.homepage), flag(m.license), flag(m.description), m.author !== undefined && (flag(m.author.name) === 1 || flag(m.author.email) === 1) ? 1 : 0);
  out.push(src.ecosystem === 'npm' ? 1 : 0);
  out.push(src.complete ? 0 : 1);
  return Float64Array.from(out, (v) => (Number.isFinite(v) ? v : 0));
}
