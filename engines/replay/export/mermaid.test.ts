// @vitest-environment jsdom
// Mermaid's own parser as the oracle for the export: every story we can make, and its hostile twin, parses as a sequence diagram.
import mermaid from 'mermaid';
import { describe, expect, it } from 'vitest';
import { pcapCorpusAvailable, corpusFile } from '../capture/capture.fixture.js';
import { analyzeCapture } from '../index.js';
import { storyToMermaid } from './mermaid.js';
import { hostile, story } from './stories.fixture.js';

mermaid.initialize({ startOnLoad: false, securityLevel: 'strict' });

async function parse(text: string): Promise<string> {
  return (await mermaid.parse(text)).diagramType;
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
