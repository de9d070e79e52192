// The package-scanning vocabulary every pkgscan folder shares: severities and their order, finding categories, and the npm lifecycle scripts that run when a package is installed.
import { z } from 'zod';
import type { FindingCategory, Severity } from '../core/contracts/pkgscan.js';

/** Severities, weakest first. */
export const SEVERITIES = ['info', 'low', 'medium', 'high', 'critical'] as const satisfies readonly Severity[];

/** The one validator of a severity at every boundary (routes, policy documents, published events). */
export const severitySchema = z.enum(SEVERITIES);

/** A severity's place in SEVERITIES (info 0 .. critical 4), for sorting and thresholds. */
export const SEVERITY_RANK: Readonly<Record<Severity, number>> = { info: 0, low: 1, medium: 2, high: 3, critical: 4 };

/** True when `s` is `min` or stronger. */
export function atLeast(s: Severity, min: Severity): boolean {
  return SEVERITY_RANK[s] >= SEVERITY_RANK[min];
}

/** Categories of what a package's code does (the source rules' categories). */
export const BEHAVIOUR_CATEGORIES = [
  'install_time',
  'code_execution',
  'obfuscation',
  'exfiltration',
  'download_execute',
  'reverse_shell',
  'cryptominer',
  'process_spawn',
  'persistence',
  'propagation',
  'steganography',
  'destruction',
  'capability',
] as const satisfies readonly FindingCategory[];

/** Categories of findings about the archive, its metadata, provenance, advisories and optional tools. */
export const CONTEXT_CATEGORIES = ['metadata', 'archive', 'provenance', 'vulnerability', 'tool'] as const satisfies readonly FindingCategory[];

/** Every finding category: behaviour first, then context. */
export const FINDING_CATEGORIES: readonly FindingCategory[] = [...BEHAVIOUR_CATEGORIES, ...CONTEXT_CATEGORIES];

/** Behaviour categories that are malicious behaviour, not merely a capability (spawning a process, opening the network) or risky metadata. */
export const MALICIOUS_CATEGORIES: ReadonlySet<FindingCategory> = new Set<FindingCategory>(['code_execution', 'exfiltration', 'download_execute', 'reverse_shell', 'cryptominer', 'persistence', 'propagation', 'steganography', 'destruction', 'obfuscation', 'install_time']);

/**
 * npm lifecycle scripts that run when a registry release is installed (`npm install name@version`).
 *
 * `prepare` is not one of them: npm runs it before `npm pack`/`npm publish` and when a package is installed from a git
 * URL or a local folder, never when a registry tarball is installed. The analyzers judge registry releases, so a
 * `prepare` script is not install-time code for them (benign packages very often have `prepare: husky` or a build).
 */
export const INSTALL_HOOKS = ['preinstall', 'install', 'postinstall'] as const;

/** INSTALL_HOOKS plus `prepare`: what runs when the package is installed from its source (a git URL or a folder), which release comparisons and the risk model's features also count. */
export const SOURCE_INSTALL_HOOKS = [...INSTALL_HOOKS, 'prepare'] as const;
