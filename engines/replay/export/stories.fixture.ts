// The stories the export tests share: the demo's attack story (fixed id and time) and a twin whose host names and titles carry everything that could break out of a label or a literal.
import { demo, loadIndicators } from '../index.js';
import type { Story } from '../types.js';

const { analysis } = demo(50, { indicators: loadIndicators(), now: new Date('2025-03-01T12:00:00Z'), id: '11111111-2222-4333-8444-555555555555' });
export const story = analysis.stories[0] as Story;

export const HOSTILE = "x'); DROP; --\n#59; %% end ->> `}\u2028\\ <b>bold</b> participant Z\nend";
export const hostile: Story = {
  ...story,
  title: HOSTILE,
  alerts: story.alerts.map((a, i) => ({ ...a, title: `${a.title} ${HOSTILE}`, summary: HOSTILE, ...(i === 0 && story.attacker !== null ? { src: HOSTILE } : {}), dst: a.dst.map((d, j) => (j === 0 ? `${d}${HOSTILE}` : d)) })),
  graph: { ...story.graph, nodes: story.graph.nodes.map((n, i) => (i === 0 ? { ...n, id: HOSTILE } : n)) },
  ...(story.attacker !== null ? { attacker: HOSTILE } : {}),
};
