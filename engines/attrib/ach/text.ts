// An ACH assessment as plain text for the terminal: the matrix (overrides starred), the scores, the sensitivity of the leader; text from the scenario escaped (terminalValue).
import type { AchAssessment } from '../../core/contracts/ach.js';
import { terminalValue as v } from '../../core/terminal-text.js';

function pad(s: string, n: number): string {
  return s.length >= n ? s : s + ' '.repeat(n - s.length);
}

export function assessmentText(a: AchAssessment): string {
  const hs = a.hypotheses;
  const idWidth = Math.max(4, ...a.evidence.map((e) => e.id.length));
  const colWidth = Math.max(4, ...hs.map((h) => h.id.length + 1));
  const lines: string[] = [`ACH: ${v(a.scenario.title)}`];
  if (a.scenario.question) lines.push(`Question: ${v(a.scenario.question)}`);
  lines.push('', 'Hypotheses (least inconsistent first):');
  for (const h of hs) lines.push(`  ${h.rank}. ${pad(h.id, colWidth)} inconsistency ${h.inconsistency}  consistency ${h.consistency}  ${v(h.title)}`);
  lines.push('', `${pad('', idWidth)}  weight diag  ${hs.map((h) => pad(h.id, colWidth)).join(' ')}`);
  for (const e of a.evidence) {
    const cells = hs.map((h) => {
      const c = e.cells.find((x) => x.hypothesis === h.id);
      return pad(c ? `${c.rating}${c.source === 'override' ? '*' : ''}` : '-', colWidth);
    });
    lines.push(`${pad(e.id, idWidth)}  ${pad(e.weight.toFixed(2), 6)} ${pad(e.diagnosticity.toFixed(2), 5)} ${cells.join(' ')}  ${v(e.summary.slice(0, 70))}`);
  }
  lines.push(`${pad('', idWidth)}  ${pad('', 12)} ${hs.map((h) => pad(String(h.inconsistency), colWidth)).join(' ')}  (weighted inconsistency)`);
  lines.push('', 'Sensitivity (leader if the item were discarded / read the opposite way):');
  for (const s of a.sensitivity) lines.push(`  ${pad(s.evidence, idWidth)} ${s.leader_if_removed ?? 'same'} / ${s.leader_if_reversed ?? 'same'}${s.critical ? '   critical' : ''}`);
  if (a.overrides.length > 0) {
    lines.push('', 'Overrides (*):');
    for (const o of a.overrides) lines.push(`  ${o.evidence}:${o.hypothesis} ${o.previous} -> ${o.rating} by ${v(o.by)} at ${o.at}`);
  }
  lines.push('', `Conclusion (${a.strength}): ${v(a.conclusion)}`);
  for (const w of a.warnings) lines.push(`Note: ${v(w)}`);
  return `${lines.join('\n')}\n`;
}
