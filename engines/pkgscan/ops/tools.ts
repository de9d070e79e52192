// Which optional tools are installed: a PATH lookup only (nothing is run, no path is reported).
import { accessSync, constants, statSync } from 'node:fs';
import path from 'node:path';
import type { ToolStatus } from '../../core/contracts/pkgscan.js';

/** The optional tools later scans use when present, each with its alternatives. */
export const OPTIONAL_TOOLS: readonly { readonly name: string; readonly kind: ToolStatus['kind']; readonly executables: readonly string[] }[] = [
  { name: 'yara', kind: 'rule_matcher', executables: ['yara'] },
  { name: 'semgrep', kind: 'static_analyser', executables: ['semgrep'] },
  { name: 'bandit', kind: 'static_analyser', executables: ['bandit'] },
  { name: 'gitleaks', kind: 'secret_scanner', executables: ['gitleaks'] },
  { name: 'trufflehog', kind: 'secret_scanner', executables: ['trufflehog'] },
];

/** True when an executable file named `name` is in one of PATH's directories. */
export function onPath(name: string, pathVar: string = process.env['PATH'] ?? ''): boolean {
  for (const dir of pathVar.split(path.delimiter)) {
    if (dir === '' || !path.isAbsolute(dir)) continue;
    const file = path.join(dir, name);
    try {
      accessSync(file, constants.X_OK);
      if (statSync(file).isFile()) return true;
    } catch {
      // not here
    }
  }
  return false;
}

export function toolStatus(pathVar?: string): ToolStatus[] {
  return OPTIONAL_TOOLS.map((t) => ({ name: t.name, kind: t.kind, available: t.executables.some((e) => onPath(e, pathVar)) }));
}
