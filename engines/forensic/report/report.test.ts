// Reports from a fixed AnalysisView: the court-style content, escaping of hostile evidence text, the CSP hash, Cypher, PDF and the optional Neo4j push.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { VitrineError } from '../../core/errors.js';
import { fixtureCustody, fixtureView, FIXTURE_EVENTS } from './fixture.js';
import { buildReport, pushNeo4jView, renderReport, REPORT_CSP, toHtml, toMarkdown, toPdf, viewToCypher } from './index.js';

const META = { title: 'Ransomware <WS01>', caseId: 'case-1', origin: 'scenario:ransomware', generator: 'forensic 0.1.0', generatedAt: '2024-03-05T08:00:00.000Z' };

describe('court-style report', () => {
  const view = fixtureView();
  const custody = fixtureCustody();

  it('has the summary, evidence with SHA-256, custody head and verification, and every story with its events', () => {
    const md = toMarkdown(view, custody, META);
    for (const heading of ['## Case summary', '## Evidence inventory', '## Chain of custody', '## Anti-forensics', '### Confidence breakdown', '### Techniques', '### Graph', '### Timeline and the events behind it', '## Method and limits'])
      expect(md).toContain(heading);
    for (const e of view.evidence) expect(md).toContain(`\`${e.sha256}\``);
    expect(md).toContain(`\`${custody.verification.head}\``);
    expect(md).toContain('every record commits to the one before');
    expect(md).toContain('S1: Ransomware on WS01');
    for (const id of view.stories[0]?.eventIds ?? []) expect(md).toContain(`\`${id}\``);
    expect(md).toContain('Inhibit System Recovery');
    expect(md).toContain('| score | 0.63 |');
    expect(md).toContain('not a calibrated probability');
  });

  it('escapes evidence text in Markdown (no raw HTML, no extra table cells)', () => {
    const md = toMarkdown(view, custody, META);
    expect(md).not.toContain('<script>');
    expect(md).toContain('\\<script\\>');
    expect(md).toContain('Ransomware \\<WS01\\>');
    // Every table row has the same number of unescaped cell separators as its header.
    const rows = md.split('\n').filter((l) => l.startsWith('| '));
    for (const r of rows) expect(r.replace(/\\\|/g, '').split('|').length).toBeGreaterThan(2);
  });

  it('writes self-contained HTML with every value escaped and the style sheet allowed by its hash', () => {
    const html = toHtml(view, custody, META);
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html).not.toMatch(/<script/i);
    expect(html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
    expect(html).toContain('Ransomware &lt;WS01&gt;');
    expect(html).not.toMatch(/\s(src|href)="(https?:)?\/\//);
    expect(html).not.toMatch(/\sstyle="/);
    const style = /<style>([\s\S]*?)<\/style>/.exec(html)?.[1] ?? '';
    expect(REPORT_CSP).toContain(`'sha256-${createHash('sha256').update(style).digest('base64')}'`);
    expect(html).toContain(`content="${REPORT_CSP.replace("; frame-ancestors 'none'", '').replace(/'/g, '&#39;')}"`);
    // The story graph is inline SVG with one line per causal edge.
    expect((html.match(/<line /g) ?? []).length).toBe(view.edges.length);
    expect(html).toContain('id="S1"');
  });

  it('says when there is no custody ledger, no story and no evidence', () => {
    const empty = { ...view, stories: [], evidence: [], events: [], nodes: [], edges: [], tampering: { tampered: false, penalty: 1, indicators: [] } };
    const md = toMarkdown(empty, null, META);
    expect(md).toContain('The analysis found no story.');
    expect(md).toContain('No custody ledger was recorded');
    expect(md).toContain('No tampering indicator was found.');
  });

  it('reports a failed verification and missing triggers', () => {
    const broken = { ...custody, verification: { ...custody.verification, ok: false, firstBroken: 3, reason: 'hash does not match the record', missingTriggers: ['custody_no_update'] } };
    const md = toMarkdown(view, broken, META);
    expect(md).toContain('FAILED at record 3: hash does not match the record');
    expect(md).toContain('missing or altered: custody\\_no\\_update');
    expect(buildReport(view, broken, META).blocks.some((b) => b.t === 'kv' && b.rows.some(([, v]) => v.includes('VERIFICATION FAILED')))).toBe(true);
  });

  it('notes story events the export cut', () => {
    const cut = { ...view, events: view.events.slice(0, 2), eventsTruncated: true };
    expect(toMarkdown(cut, null, META)).toContain('4 of the story\'s events are not in this export');
  });
});

describe('exports', () => {
  const view = fixtureView();

  it('writes JSON that parses back to the view', () => {
    expect(JSON.parse(renderReport('json', view, null, META))).toEqual(view);
  });

  it('writes idempotent Cypher with every node, edge, story and event, values kept inside literals', () => {
    const cypher = viewToCypher(view);
    const lines = cypher.trim().split('\n');
    expect(lines[0]).toBe('// Vitrine forensic export');
    const merges = lines.filter((l) => l.startsWith('MERGE (n'));
    expect(merges.length).toBe(view.nodes.length + view.stories.length + view.events.length);
    expect(cypher).toContain("MERGE (a)-[r:SPAWNED {id: 'e4'}]->(b)");
    expect(cypher).toContain(":ForensicNode:Process {id: 'process:WS01:4242'}");
    expect(cypher).toContain('CREATE CONSTRAINT IF NOT EXISTS FOR (n:Story) REQUIRE n.id IS UNIQUE;');
    // The hostile summary stays inside a quoted string.
    expect(cypher).toContain(`'Ransom note <script>alert(\\"x\\")</script> & \\"README\\" written'`);
    expect(renderReport('cypher', view, null, META).split('\n')[0]).toBe('// Vitrine forensic export: Ransomware <WS01>');
  });

  it('renders a PDF offline', async () => {
    const pdf = await toPdf(view, fixtureCustody(), META, { creationDate: new Date('2024-03-05T08:00:00Z') });
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(pdf.subarray(-6).toString('latin1')).toContain('%%EOF');
    expect(pdf.length).toBeGreaterThan(5000);
    expect((pdf.toString('latin1').match(/\/Type \/Page\b/g) ?? []).length).toBeGreaterThanOrEqual(2);
  });

  it('push_neo4j without the optional driver says how to get it', async () => {
    const err = await pushNeo4jView(view, 'bolt://localhost:7687', 'neo4j', 'secret', async () => {
      const { loadNeo4jDriver } = await import('./cypher.js');
      return loadNeo4jDriver('vitrine-no-such-package');
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(VitrineError);
    expect((err as VitrineError).code).toBe('unavailable');
    expect((err as VitrineError).message).toContain('neo4j-driver');
    expect((err as VitrineError).message).not.toContain('secret');
  });

  it('push_neo4j runs every statement through the driver, and refuses other URI schemes', async () => {
    const ran: string[] = [];
    let closed = 0;
    const fake = async () => ({
      auth: { basic: (u: string, p: string) => ({ u, p }) },
      driver: () => ({
        verifyConnectivity: async () => undefined,
        close: async () => {
          closed++;
        },
        session: () => ({
          run: async (q: string) => {
            ran.push(q);
          },
          close: async () => {
            closed++;
          },
        }),
      }),
    });
    const n = await pushNeo4jView(view, 'neo4j://localhost:7687', 'neo4j', 'pw', fake);
    expect(n).toBe(ran.length);
    expect(ran.every((q) => !q.endsWith(';'))).toBe(true);
    expect(closed).toBe(2);
    await expect(pushNeo4jView(view, 'http://localhost:7474', 'neo4j', 'pw', fake)).rejects.toMatchObject({ code: 'validation_failed' });
  });

  const NEO4J = process.env['FORENSIC_TEST_NEO4J_URI'];
  it.skipIf(NEO4J === undefined)('push_neo4j against a reachable server (FORENSIC_TEST_NEO4J_URI, _USER, _PASSWORD)', async () => {
    const n = await pushNeo4jView(view, NEO4J ?? '', process.env['FORENSIC_TEST_NEO4J_USER'] ?? 'neo4j', process.env['FORENSIC_TEST_NEO4J_PASSWORD'] ?? '');
    expect(n).toBeGreaterThan(0);
  });

  it('the fixture events are what the stories refer to', () => {
    expect(new Set(view.stories.flatMap((s) => s.eventIds)).size).toBe(FIXTURE_EVENTS.length);
  });
});
