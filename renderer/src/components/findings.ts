// Findings other workspaces send (Send to Assessment / ACH) that several places build: a package scan's verdict.
import type { ScanVerdict } from '../../../engines/core/contracts/pkgscan';
import { indicatorsIn, mergeIndicators, type Finding } from './SendToModel';

/**
 * A package verdict as a finding: the package itself (`ecosystem:name@version`, a `package` indicator), the ATT&CK techniques of
 * its findings and attack chains, and every indicator the matched text holds (the URLs, domains and addresses a script reaches).
 */
export function verdictFinding(v: ScanVerdict): Finding {
  const techniques = [...new Set([...v.findings.map((f) => f.technique), ...v.attack_chains.map((c) => c.technique)].filter((t): t is string => t !== null))];
  return {
    title: `Package ${v.ecosystem}:${v.name}@${v.version}: ${v.decision} (${v.assessment.verdict})`,
    techniques,
    indicators: mergeIndicators([{ type: 'package', value: `${v.ecosystem}:${v.name}@${v.version}` }], indicatorsIn([...v.findings.map((f) => f.match), ...v.attack_chains.flatMap((c) => c.steps.map((st) => st.match))])),
    source: { service: 'pkgscan', kind: 'scan', id: v.id, link: `#/pkgscan/scan/${encodeURIComponent(v.id)}` },
  };
}
