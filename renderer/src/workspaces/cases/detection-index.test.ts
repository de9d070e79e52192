// Tests of the case's detection index: summary rows from a view, and per event the rules that hit it, most severe first.
import { describe, expect, it } from 'vitest';
import { detectionsByEvent, detectionsOf } from './detection-index';
import type { AnalysisView, DetectionSummary } from './types';

const row = (ruleId: string, level: DetectionSummary['level'], eventIds: string[]): DetectionSummary => ({
  ruleId, title: ruleId, level, status: 'test', author: 'A', source: 'rules/x.yml', techniques: [], tactics: [], count: eventIds.length, hosts: [], firstSeen: null, lastSeen: null, eventIds,
});

describe('detection index', () => {
  it('reads the rows of a view, none for an old view', () => {
    expect(detectionsOf(null)).toEqual([]);
    expect(detectionsOf({} as AnalysisView)).toEqual([]);
    expect(detectionsOf({ detections: [row('a', 'low', ['e1'])] } as unknown as AnalysisView)).toHaveLength(1);
  });
  it('maps each event to its rules, most severe first', () => {
    const m = detectionsByEvent([row('low', 'low', ['e1', 'e2']), row('crit', 'critical', ['e1'])]);
    expect(m.get('e1')?.map((r) => r.ruleId)).toEqual(['crit', 'low']);
    expect(m.get('e2')?.map((r) => r.ruleId)).toEqual(['low']);
    expect(m.has('e3')).toBe(false);
  });
});
