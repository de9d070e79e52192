// The plain-text form of a release diff for `pkgscan diff`: the verdict line, new findings first, then capability, file and maintainer changes;
// file paths, titles, maintainers and publishers from the packages are each one escaped value of their line (terminalValue).
import type { ReleaseDiff } from '../../core/contracts/pkgscan-diffs.js';
import { terminalValue as t } from '../../core/terminal-text.js';

export function diffText(d: ReleaseDiff & { readonly repeated?: boolean }): string {
  const out = [
    `${d.escalated ? 'ESCALATED' : 'NOT ESCALATED'}  ${d.ecosystem} ${d.name} ${d.from_version} -> ${d.to_version}  (risk ${d.risk.from.toFixed(2)} -> ${d.risk.to.toFixed(2)}${d.incomplete ? ', INCOMPLETE' : ''}${d.repeated === true ? ', stored before' : ''})`,
    `diff ${d.id}  analyzers ${d.analyzer_version}`,
  ];
  if (d.escalation_reasons.length > 0) out.push(`reasons: ${d.escalation_reasons.join(', ')} (thresholds of ${d.thresholds.environment}: warn ${d.thresholds.warn_risk}, block ${d.thresholds.block_risk})`);
  out.push(`findings: ${d.findings.new.length} new, ${d.findings.gone.length} gone, ${d.findings.unchanged} unchanged (by code and file)`);
  for (const f of d.findings.new.slice(0, 50)) out.push(`  + [${f.severity}] ${f.code} ${t(f.file ?? '(package)')}${f.line !== null ? `:${f.line}` : ''}  ${t(f.title)}`);
  if (d.findings.new.length > 50) out.push(`  ... ${d.findings.new.length - 50} more new findings (--json shows all)`);
  if (d.capabilities.gained.length + d.capabilities.lost.length > 0) out.push(`capabilities: gained [${d.capabilities.gained.join(', ')}] lost [${d.capabilities.lost.join(', ')}]`);
  out.push(`files: ${d.files.added.length} added, ${d.files.removed.length} removed, ${d.files.changed.length} changed, ${d.files.unchanged} unchanged${d.files.truncated ? ' (lists cut)' : ''}`);
  for (const p of d.files.install_time.added) out.push(`  install-time file new: ${t(p)}`);
  for (const p of d.files.install_time.changed) out.push(`  install-time file changed: ${t(p)}`);
  for (const p of d.files.new_executables.slice(0, 20)) out.push(`  new executable: ${t(p)}`);
  for (const p of d.files.new_binaries.slice(0, 20)) out.push(`  new binary: ${t(p)}`);
  for (const m of d.maintainers.added) out.push(`maintainer added: ${t(m)}`);
  for (const m of d.maintainers.removed) out.push(`maintainer removed: ${t(m)}`);
  if (d.publisher.changed) out.push(`publisher: ${t(d.publisher.from ?? '?')} -> ${t(d.publisher.to ?? '?')}`);
  return `${out.join('\n')}\n`;
}
