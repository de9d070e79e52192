// The Replay workspace's pure pieces: figures, the graph at a step, names and checks before sending.
import { describe, expect, it } from 'vitest';
import type { Story } from '../../../../engines/core/contracts/replay';
import { clampStep, duration, exportName, graphAtStep, hostPositions, parseBenign, percentOf, ratio, reductionRows, refuseUpload, utc } from './model';

const alert = (id: string, src: string, dst: string[]) => ({
  id,
  rule: 'r',
  title: id,
  summary: '',
  severity: 'high' as const,
  stage: 'access' as const,
  techniques: ['T1110'],
  src,
  dst,
  dst_count: dst.length,
  compromised: [],
  first_ts: 1,
  last_ts: 2,
  evidence: { uids: [], uid_count: 0, packets: [], counts: {}, facts: {} },
});

// Edges deliberately listed out of timeline order: the step, not the list position, decides when each appears.
const STORY = {
  id: '0b6f3c2e-8a55-5d41-9f0e-1c2d3e4f5a6b',
  ordinal: 2,
  alerts: [alert('A1', 'x', ['y']), alert('A2', 'y', ['z', 'w']), alert('A3', 'x', ['far'])],
  timeline: [
    { step: 1, ts: 1, stage: 'recon', alert_id: 'A1', rule: 'r', title: 'A1', severity: 'high', src: 'x', dst: ['y'] },
    { step: 2, ts: 2, stage: 'access', alert_id: 'A2', rule: 'r', title: 'A2', severity: 'high', src: 'y', dst: ['z', 'w'] },
    { step: 3, ts: 3, stage: 'action', alert_id: 'A3', rule: 'r', title: 'A3', severity: 'high', src: 'x', dst: ['far'] },
  ],
  graph: {
    nodes: [
      { id: 'x', role: 'attacker', internal: false },
      { id: 'y', role: 'victim', internal: true },
      { id: 'z', role: 'internal', internal: true },
      { id: 'w', role: 'internal', internal: true },
    ],
    edges: [
      { from: 'y', to: 'z', stage: 'access', rule: 'r', alert_id: 'A2', first_ts: 2 },
      { from: 'x', to: 'y', stage: 'recon', rule: 'r', alert_id: 'A1', first_ts: 1 },
      { from: 'y', to: 'w', stage: 'access', rule: 'r', alert_id: 'A2', first_ts: 2 },
      // 'far' is not drawn (beyond the host bound): its edge cannot be drawn either.
      { from: 'x', to: 'far', stage: 'action', rule: 'r', alert_id: 'A3', first_ts: 3 },
    ],
    omitted_hosts: 1,
  },
} as unknown as Story;

describe('graphAtStep', () => {
  it('adds edges in timeline order and highlights the current step’s drawn hosts', () => {
    const s1 = graphAtStep(STORY, 1);
    expect(s1.edges.map((e) => `${e.from}>${e.to}`)).toEqual(['x>y']);
    expect([...s1.active].sort()).toEqual(['x', 'y']);
    const s2 = graphAtStep(STORY, 2);
    expect(s2.edges.map((e) => `${e.from}>${e.to}`).sort()).toEqual(['x>y', 'y>w', 'y>z']);
    expect([...s2.active].sort()).toEqual(['w', 'y', 'z']);
    const s3 = graphAtStep(STORY, 3);
    expect(s3.edges).toHaveLength(3);
    expect([...s3.active]).toEqual(['x']);
    expect(s3.total).toBe(3);
    expect(graphAtStep(STORY, 0).edges).toHaveLength(0);
  });
});

describe('hostPositions', () => {
  it('puts the attacker in the middle and every other host on a circle, each in its own place', () => {
    const pos = hostPositions(STORY.graph.nodes);
    expect(pos.get('x')).toEqual({ x: 0, y: 0 });
    const others = ['y', 'z', 'w'].map((id) => pos.get(id)!);
    const radii = others.map((p) => Math.round(Math.hypot(p.x, p.y)));
    expect(new Set(radii).size).toBe(1);
    expect(radii[0]).toBeGreaterThan(0);
    expect(new Set(others.map((p) => `${Math.round(p.x)},${Math.round(p.y)}`)).size).toBe(3);
  });
});

describe('figures', () => {
  it('formats ratios and fractions, with a dash for nothing to divide by', () => {
    expect(ratio(null)).toBe('–');
    expect(ratio(1234.56)).toBe('1,234.6');
    expect(percentOf(0.5)).toBe('50%');
    expect(percentOf(0.0004)).toBe('<0.1%');
    expect(percentOf(null)).toBe('–');
    expect(utc(0)).toBe('1970-01-01 00:00:00.000 UTC');
  });

  it('lists the reduction from packets down to stories', () => {
    const rows = reductionRows({
      packets: 431,
      flows: 11,
      alerts: 1,
      stories: 1,
      alerts_in_stories: 1,
      flows_in_stories: 10,
      packets_in_stories: 400,
      ratios: { packets_per_story: 431, flows_per_story: 11, alerts_per_story: 1, flows_per_alert: 11, story_flow_fraction: 10 / 11 },
    });
    expect(rows.map((r) => r.key)).toEqual(['packets', 'flows', 'alerts', 'stories', 'packets_per_story', 'flows_per_story', 'alerts_per_story', 'flows_per_alert']);
    expect(rows.find((r) => r.key === 'flows')?.hint).toBe('10 in stories (90.9%)');
  });

  it('clamps the step into 1..steps', () => {
    expect(clampStep(0, 3)).toBe(1);
    expect(clampStep(9, 3)).toBe(3);
    expect(clampStep(2, 0)).toBe(0);
  });
});

describe('checks before sending', () => {
  it('refuses empty and oversized files without naming them', () => {
    expect(refuseUpload(0, 10)).toMatch(/empty/);
    expect(refuseUpload(11 * 1024 * 1024, 10 * 1024 * 1024)).toMatch(/10 MiB/);
    expect(refuseUpload(5, 10)).toBeNull();
  });

  it('accepts a whole number of benign flows in range, and says why otherwise without repeating the input', () => {
    expect(parseBenign(' 25 ', 50_000)).toEqual({ ok: true, value: 25 });
    for (const bad of ['-1', '2.5', 'abc<script>', '60000', '']) {
      const r = parseBenign(bad, 50_000);
      expect(r.ok).toBe(false);
      if (!r.ok && bad) expect(r.message).not.toContain(bad);
    }
  });

  it('names export files from the story’s ordinal and id only', () => {
    expect(exportName(STORY, 'stix')).toBe('replay-story-2-0b6f3c2e.stix.json');
    expect(exportName(STORY, 'mermaid')).toBe('replay-story-2-0b6f3c2e.mmd');
    expect(exportName(STORY, 'cypher')).toBe('replay-story-2-0b6f3c2e.cypher');
  });
});

describe('duration', () => {
  it('says milliseconds under a second, seconds and minutes above', () => {
    expect(duration(0)).toBe('0 s');
    expect(duration(0.0004)).toBe('<1 ms');
    expect(duration(0.042)).toBe('42 ms');
    expect(duration(0.9996)).toBe('1000 ms');
    expect(duration(5.24)).toBe('5.2 s');
    expect(duration(184)).toBe('3 min 4 s');
    expect(duration(-1)).toBe('–');
  });
});
