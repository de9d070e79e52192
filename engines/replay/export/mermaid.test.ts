// @vitest-environment jsdom
// Mermaid's own parser as the oracle for the export: every story we can make, and its hostile twin, parses as a sequence diagram.
import mermaid from 'mermaid';
import { describe, expect, it } from 'vitest';
import { pcapCorpusAvailable, corpusFile } from '../capture/testutil.js';
import { analyzeCapture, demo, loadIndicators } from '../index.js';
import type { Story } from '../types.js';
import { storyToMermaid } from './mermaid.js';

const { analysis } = demo(50, { indicators: loadIndicators(), now: new Date('2025-03-01T12:00:00Z'), id: '11111111-2222-4333-8444-555555555555' });
const story = analysis.stories[0] as Story;
const HOSTILE = "x'); DROP; --\n#59; %% end ->> `}\u2028\\ <b>bold</b> participant Z\nend";
const hostile: Story = {
  ...story,
  title: HOSTILE,
  attacker: HOSTILE,
  alerts: story.alerts.map((a, i) => ({ ...a, title: `${a.title} ${HOSTILE}`, summary: HOSTILE, ...(i === 0 ? { src: HOSTILE } : {}), dst: a.dst.map((d, j) => (j === 0 ? `${d}${HOSTILE}` : d)) })),
  graph: { ...story.graph, nodes: story.graph.nodes.map((n, i) => (i === 0 ? { ...n, id: HOSTILE } : n)) },
};

mermaid.initialize({ startOnLoad: false, securityLevel: 'strict' });

async function parse(text: string): Promise<string> {
  const result = await mermaid.parse(text);
  return result === false ? 'rejected' : result.diagramType;
}

describe('Mermaid parser on the export', () => {
  it('rejects a broken diagram (the oracle is not a yes-man)', async () => {
    await expect(mermaid.parse('sequenceDiagram\n  A->>: no target\n  end end\n')).rejects.toThrow();
  });

  it('parses the demo story and its hostile twin as sequence diagrams', async () => {
    expect(await parse(storyToMermaid(story))).toBe('sequence');
    expect(await parse(storyToMermaid(hostile))).toBe('sequence');
  });

  it.skipIf(!pcapCorpusAvailable())('parses every story found in the Zeek traces', { timeout: 60_000 }, async () => {
    let seen = 0;
    for (const name of ['sshguess.pcap', 'ftp-bruteforce.pcap', 'nmap-vsn.pcap', 'cooper-grill-dvwa.pcapng']) {
      const a = await analyzeCapture(corpusFile(name), { name });
      for (const s of a.stories) {
        expect(await parse(storyToMermaid(s)), name).toBe('sequence');
        seen += 1;
      }
    }
    expect(seen).toBe(4);
  });
});
