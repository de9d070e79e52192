// A story as Mermaid sequence-diagram text: one participant per host, one message per alert and target, a note where the stage changes; every label escaped.
import { stageRank, type Story } from '../types.js';

/** Targets drawn one by one; an alert with more gets one participant standing for all of them. */
export const MAX_TARGET_MESSAGES = 3;

/**
 * Mermaid text is code: `;` ends a statement, `#` opens an entity, `:` splits a message, `%%` comments.
 * Everything but letters, digits and a few plain marks is written as a decimal entity (`#58;`), which Mermaid decodes.
 */
export function mermaidText(text: string): string {
  let out = '';
  for (const ch of text.replace(/[\r\n\u2028\u2029\t]+/g, ' ')) {
    if (/[A-Za-z0-9 .,_()/'-]/.test(ch)) out += ch;
    else out += `#${ch.codePointAt(0) ?? 32};`;
  }
  return out.trim() === '' ? '#32;' : out;
}

export function storyToMermaid(story: Story): string {
  const lines = ['sequenceDiagram', `    %% Vitrine capture replay, story ${story.ordinal} of analysis ${story.analysis_id}`];
  const ids = new Map<string, string>();
  const roleOf = new Map(story.graph.nodes.map((n) => [n.id, n.role]));
  const participant = (host: string): string => {
    let id = ids.get(host);
    if (id === undefined) {
      id = `H${ids.size + 1}`;
      ids.set(host, id);
      const role = roleOf.get(host);
      lines.push(`    participant ${id} as ${mermaidText(role !== undefined ? `${host} (${role})` : host)}`);
    }
    return id;
  };
  // Participants in order of first appearance in the timeline, the attacker first.
  if (story.attacker !== null) participant(story.attacker);
  const body: string[] = [];
  let stage = -1;
  const byId = new Map(story.alerts.map((a) => [a.id, a]));
  for (const step of story.timeline) {
    const alert = byId.get(step.alert_id);
    if (!alert) continue;
    const from = participant(alert.src);
    const targets = alert.dst_count > MAX_TARGET_MESSAGES ? [] : alert.dst.map((d) => participant(d));
    if (alert.dst_count > MAX_TARGET_MESSAGES) {
      const group = `G${step.step}`;
      lines.push(`    participant ${group} as ${mermaidText(`${alert.dst_count} hosts`)}`);
      targets.push(group);
    }
    if (stageRank(step.stage) !== stage) {
      stage = stageRank(step.stage);
      const span = targets.length > 0 && targets[0] !== from ? `${from},${targets[0]}` : from;
      body.push(`    Note over ${span}: ${mermaidText(step.stage)}`);
    }
    const label = mermaidText(`${step.step}. ${alert.title} [${alert.severity}]`);
    if (targets.length === 0) body.push(`    Note right of ${from}: ${label}`);
    for (const to of targets) body.push(to === from ? `    Note right of ${from}: ${label}` : `    ${from}->>${to}: ${label}`);
  }
  return `${[...lines, ...body].join('\n')}\n`;
}
