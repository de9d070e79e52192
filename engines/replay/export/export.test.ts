// Exports of a story: a STIX 2.1 bundle that validates and refers only to its own objects, Mermaid that keeps to the grammar with every label escaped, Cypher that keeps data in literals.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { validateStixObject, type StixObject } from '../../core/stix.js';
import { storyToCypher } from './cypher.js';
import { mermaidText, storyToMermaid } from './mermaid.js';
import { storyToStix } from './stix.js';
import { hostile, story } from './stories.fixture.js';
import { CHROMIUM, skipWithout } from '../../../test/oracles.js';

describe('STIX 2.1', () => {
  const bundle = storyToStix(story);
  const ofType = (t: string): StixObject[] => bundle.objects.filter((o) => o.type === t);

  it('is a valid bundle; every reference points into it', () => {
    expect(validateStixObject(bundle)).toEqual([]);
    const ids = new Set(bundle.objects.map((o) => o.id));
    for (const o of bundle.objects) {
      for (const [k, v] of Object.entries(o)) {
        if (k.endsWith('_ref') && typeof v === 'string') expect(ids.has(v), `${o.type}.${k}`).toBe(true);
        if (k.endsWith('_refs') && Array.isArray(v)) for (const r of v as string[]) expect(ids.has(r), `${o.type}.${k}`).toBe(true);
      }
    }
  });

  it('carries the story as a report, its techniques as ATT&CK attack patterns, one observed-data per alert, sightings', () => {
    const [report] = ofType('report');
    expect(report?.['name']).toBe(story.title);
    expect(ofType('attack-pattern').map((p) => (p['external_references'] as Array<{ external_id: string }>)[0]?.external_id).sort()).toEqual(story.techniques.map((t) => t.id).sort());
    expect(ofType('observed-data')).toHaveLength(story.alerts.length);
    expect(ofType('sighting').length).toBeGreaterThanOrEqual(story.alerts.length - 1);
    expect(ofType('ipv4-addr').map((o) => o['value'])).toEqual(expect.arrayContaining(story.hosts as string[]));
    expect(ofType('network-traffic').length).toBeGreaterThan(10);
  });

  it('gives the same ids for the same story', () => {
    expect(storyToStix(structuredClone(story)).id).toBe(bundle.id);
  });
});

/** The subset of Mermaid's sequence-diagram grammar the export writes, one pattern per statement. */
const LINE = [
  /^sequenceDiagram$/,
  /^ {4}%% [^\n]*$/,
  /^ {4}participant [HG]\d+ as [A-Za-z0-9 .,_()/'#;-]+$/,
  /^ {4}Note over [HG]\d+(,[HG]\d+)?: [A-Za-z0-9 .,_()/'#;-]+$/,
  /^ {4}Note right of [HG]\d+: [A-Za-z0-9 .,_()/'#;-]+$/,
  /^ {4}[HG]\d+->>[HG]\d+: [A-Za-z0-9 .,_()/'#;-]+$/,
];
/** After the keyword and ids, `#` and `;` may only appear as parts of a decimal entity. */
const ENTITY_ONLY = /^(?:[^#;]|#\d{1,7};)*$/;

function checkMermaid(text: string): void {
  const lines = text.trimEnd().split('\n');
  for (const line of lines) {
    expect(LINE.some((p) => p.test(line)), line).toBe(true);
    if (!line.startsWith('    %%')) expect(ENTITY_ONLY.test(line.replace(/^ {4}\S+ /, '')), line).toBe(true);
  }
  const declared = new Set(lines.flatMap((l) => /participant (\S+) as/.exec(l)?.[1] ?? []));
  for (const l of lines) for (const used of l.match(/\b[HG]\d+\b/g) ?? []) expect(declared.has(used), used).toBe(true);
}

describe('Mermaid', () => {
  it('is a sequence diagram: every participant declared, one message per alert target, a note per stage', () => {
    const text = storyToMermaid(story);
    checkMermaid(text);
    expect(text.split('\n')[0]).toBe('sequenceDiagram');
    expect(text.match(/^ {4}Note over .*: (recon|access|movement|action)$/gm)).toHaveLength(4);
    expect(text).toContain(`as ${story.attacker} (attacker)`);
  });

  it('escapes hostile labels into entities, so nothing breaks out of a statement', () => {
    expect(mermaidText('a;b#c:d')).toBe('a#59;b#35;c#58;d');
    expect(mermaidText('line\nbreak')).toBe('line break');
    const text = storyToMermaid(hostile);
    checkMermaid(text);
    expect(text).not.toContain('DROP;');
    expect(text).not.toContain('%% end');
  });
});

/** Mermaid itself as the oracle: the bundle the workstation ships (MERMAID_JS may name another mermaid.min.js), rendered in Debian's Chromium. */
const MERMAID_JS = process.env['MERMAID_JS'] ?? fileURLToPath(new URL('../../../node_modules/mermaid/dist/mermaid.min.js', import.meta.url));

describe.skipIf(!existsSync(MERMAID_JS) || skipWithout('chromium'))('Mermaid renders (in Chromium)', () => {
  it('renders the story and its hostile twin to SVG, the hostile text shown as text', { timeout: 120_000 }, async () => {
    expect.hasAssertions();
    const { chromium } = await import('playwright-core');
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--headless', '--disable-gpu'] });
    try {
      const page = await browser.newPage();
      await page.setContent('<html><body><div id="out"></div></body></html>');
      await page.addScriptTag({ content: readFileSync(MERMAID_JS, 'utf8') });
      for (const s of [story, hostile]) {
        const text = storyToMermaid(s);
        // A string, so the page's DOM types stay out of this Node-only compilation.
        const result = (await page.evaluate(`(async (t) => {
          mermaid.initialize({ startOnLoad: false, securityLevel: 'strict' });
          const { svg } = await mermaid.render('diagram', t);
          const out = document.getElementById('out');
          out.innerHTML = svg;
          return { text: out.textContent ?? '', bold: out.querySelectorAll('b').length, actors: out.querySelectorAll('rect.actor').length, messages: out.querySelectorAll('.messageText').length };
        })(${JSON.stringify(text)})`)) as { text: string; bold: number; actors: number; messages: number };
        expect(result.actors).toBeGreaterThanOrEqual(2 * 3);
        expect(result.messages).toBeGreaterThanOrEqual(s.alerts.length);
        expect(result.text).toContain(`${story.alerts[1]?.title.slice(0, 20)}`);
        expect(result.bold).toBe(0);
        if (s === hostile) expect(result.text).toContain("x'); DROP; --");
      }
    } finally {
      await browser.close();
    }
  });
});

describe('Cypher', () => {
  it('MERGEs the story, its alerts, hosts and techniques, with constraints first', () => {
    const text = storyToCypher(story);
    const lines = text.trimEnd().split('\n');
    expect(lines[0]?.startsWith('// ')).toBe(true);
    expect(lines.filter((l) => l.startsWith('CREATE CONSTRAINT'))).toHaveLength(4);
    expect(lines.filter((l) => l.startsWith('MERGE (n:ReplayAlert'))).toHaveLength(story.alerts.length);
    expect(lines.filter((l) => l.startsWith('MERGE (n:Host'))).toHaveLength(new Set([...story.alerts.flatMap((a) => [a.src, ...a.dst])]).size);
    for (const l of lines.slice(1)) expect(l.endsWith(';'), l).toBe(true);
  });

  it('keeps hostile text inside string literals', () => {
    expect.hasAssertions();
    const text = storyToCypher(hostile);
    for (const l of text.trimEnd().split('\n').slice(1)) {
      // Outside literals a statement has exactly one `;`, at its end.
      const outside = l.replace(/'(?:[^'\\]|\\.)*'/g, "''");
      expect(outside.indexOf(';'), l).toBe(outside.length - 1);
      expect(outside).not.toContain('DROP');
    }
  });
});
