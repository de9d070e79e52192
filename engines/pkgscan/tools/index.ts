// The tool analyzers a package scan runs: yara, bandit and a secret scanner when installed, and the built-in secret patterns always.
import type { Analyzer } from '../analyzers/types.js';
import { banditAnalyzer } from './bandit.js';
import type { ToolAnalyzerOptions } from './common.js';
import { secretScannerAnalyzer } from './secret-scanner.js';
import { secretsAnalyzer } from './secrets.js';
import { yaraAnalyzer } from './yara.js';

export { banditAnalyzer, banditFindings, banditSeverity } from './bandit.js';
export type { ToolAnalyzerOptions } from './common.js';
export { findOnPath, runTool } from './run.js';
export type { RunOptions, RunResult } from './run.js';
export { secretScannerAnalyzer, gitleaksFindings, trufflehogFindings } from './secret-scanner.js';
export { findSecrets, secretsAnalyzer, SECRET_PATTERNS } from './secrets.js';
export { withWorkdir, isSafeRelativePath, safeBasename } from './workdir.js';
export type { Workdir, WorkdirLimits } from './workdir.js';
export { parseYaraOutput, yaraAnalyzer } from './yara.js';

/** Every tool analyzer, in the order a scan runs them (each reports `unavailable` itself when its tool is missing). */
export function toolAnalyzers(options: ToolAnalyzerOptions = {}): Analyzer[] {
  return [yaraAnalyzer(options), banditAnalyzer(options), secretScannerAnalyzer(options), secretsAnalyzer(options)];
}
