// Story scores against the documented formulas, computed by hand in the test (not compared with stored output of the
// code): the confidence terms, the tampering penalty of the story's hosts, and the kill-chain stage factor of suspicion.
import { describe, expect, it } from 'vitest';
import type { CausalEdge, GraphNode, TamperingIndicator } from '../../core/contracts/forensic.js';
import type { AnalysisEvent } from './events.js';
import { scoreChain, type ScoringGraph } from './scoring.js';
import { DEFAULT_TECHNIQUE_SEVERITY, suspicionOf, TECHNIQUE_SEVERITY } from './stories.js';

const T0 = '2024-03-01T10:00:00.000Z';
const T10 = '2024-03-01T10:00:10.000Z';
const ev = (eventId: string, reliability: string, time: string, host = 'WS01'): AnalysisEvent => ({ eventId, reliability, kind: 'evtx', host, time: { time } }) as unknown as AnalysisEvent;
const node = (id: string, sources: string[], eventIds: string[]): GraphNode => ({ id, kind: 'process', sources: sources.map((source) => ({ source })), eventIds }) as unknown as GraphNode;
const edge = (id: string, from: string, to: string, eventIds: string[], time: string | null, confidence: number): CausalEdge => ({ id, from, to, eventIds, time, confidence }) as unknown as CausalEdge;
const indicator = (host: string, kind: string, severity: 'low' | 'medium' | 'high'): TamperingIndicator => ({ host, kind, severity, eventIds: [], time: null, summary: kind }) as unknown as TamperingIndicator;

function graph(indicators: TamperingIndicator[]): ScoringGraph {
  return {
    // reliability A (1) and C (0.7)
    events: [ev('e1', 'A', T0), ev('e2', 'C', T10)],
    // n1 seen by two source families (evtx:sysmon, evtx:security), n2 by one
    nodes: [node('n1', ['evtx:sysmon-1', 'evtx:security-4688'], ['e1']), node('n2', ['evtx:sysmon-1'], ['e2'])],
    // x1 fits in time (n1 first seen at T0 <= T10); x2 has no time (counts half)
    edges: [edge('x1', 'n1', 'n2', ['e1', 'e2'], T10, 0.64), edge('x2', 'n2', 'n1', ['e2'], null, 0.81)],
    tampering: { tampered: indicators.length > 0, penalty: 1, indicators },
  };
}

// By hand: reliability (1 + 0.7) / 2 = 0.85; corroboration 0.4 + 0.3 * 0 (one artefact kind) + 0.3 * 1/2 (one of two
// nodes fused) = 0.55; temporal fit (1 + 0.5) / 2 = 0.75; edge strength sqrt(0.64 * 0.81) = 0.72.
// Unpenalised score 0.2 * 0.85 + 0.2 * 0.55 + 0.2 * 0.75 + 0.4 * 0.72 = 0.718.
const TERMS = { reliability: 0.85, corroboration: 0.55, temporalFit: 0.75, edgeStrength: 0.72 };
const BASE = 0.718;

describe('scoreChain by hand', () => {
  it('without tampering: the four terms and their weighted sum, grade HIGH', () => {
    expect(scoreChain(['x1', 'x2'], graph([]))).toEqual({ ...TERMS, penalty: 1, score: BASE, grade: 'HIGH' });
  });

  it('tampering on the story host multiplies the score: 1 - (0.2 high + 0.1 medium of another kind) = 0.7', () => {
    const c = scoreChain(['x1', 'x2'], graph([indicator('WS01', 'log_cleared', 'high'), indicator('WS01', 'log_cleared', 'low'), indicator('WS01', 'audit_policy_changed', 'medium')]));
    expect(c.penalty).toBe(0.7);
    expect(c.score).toBe(Math.round(BASE * 0.7 * 1000) / 1000); // 0.503
    expect(c.score).toBe(0.503);
    expect(c.grade).toBe('MEDIUM');
  });

  it('tampering on another host does not touch the story', () => {
    expect(scoreChain(['x1', 'x2'], graph([indicator('WS02', 'log_cleared', 'high')]))).toMatchObject({ penalty: 1, score: BASE });
  });

  it('the penalty is floored at 0.5', () => {
    const many = ['a', 'b', 'c', 'd'].map((k) => indicator('WS01', k, 'high'));
    expect(scoreChain(['x1', 'x2'], graph(many))).toMatchObject({ penalty: 0.5, score: 0.359 });
  });
});

describe('suspicionOf by hand: 1 - prod(1 - severity), times 1 + 0.1 per stage beyond the first, capped at 1', () => {
  const a = TECHNIQUE_SEVERITY['T1059.003'] as number;
  const b = TECHNIQUE_SEVERITY.T1033 as number;
  const r3 = (x: number): number => Math.round(x * 1000) / 1000;
  const combined = 1 - (1 - a) * (1 - b);

  it('one stage: no factor; zero stages the same', () => {
    expect(suspicionOf(['T1059.003', 'T1033'], 1)).toBe(r3(combined));
    expect(suspicionOf(['T1059.003', 'T1033'], 0)).toBe(r3(combined));
  });
  it('three stages: 1.2 times', () => {
    expect(suspicionOf(['T1059.003', 'T1033'], 3)).toBe(r3(combined * 1.2));
    expect(suspicionOf(['T1059.003', 'T1033'], 3)).toBeGreaterThan(suspicionOf(['T1059.003', 'T1033'], 1));
  });
  it('a detection without techniques counts as one technique of the default severity, with the stage factor', () => {
    expect(suspicionOf([], 2, true)).toBe(r3(DEFAULT_TECHNIQUE_SEVERITY * 1.1));
    expect(suspicionOf([], 2, false)).toBe(0);
  });
  it('capped at 1', () => {
    expect(suspicionOf(['T1003.001', 'T1490'], 3)).toBe(1);
  });
});
