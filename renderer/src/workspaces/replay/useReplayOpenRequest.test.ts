// What Replay does with an open request: a story, an analysis (Overview), an alert rule (Alerts filtered).
import { describe, expect, it } from 'vitest';
import { NO_ALERT_FILTERS } from './browse';
import { replayOpenOf } from './useReplayOpenRequest';

describe('replayOpenOf', () => {
  it('maps each kind Replay selects', () => {
    expect(replayOpenOf({ kind: 'story', id: 's1', parent: 'a1' })).toEqual({ story: 's1' });
    expect(replayOpenOf({ kind: 'analysis', id: 'a1' })).toEqual({ analysis: 'a1', tab: 'overview' });
    expect(replayOpenOf({ kind: 'alert', id: 'beacon', parent: 'a1' })).toEqual({ analysis: 'a1', tab: 'alerts', request: { tab: 'alerts', alerts: { ...NO_ALERT_FILTERS, rule: 'beacon' } } });
  });

  it('ignores an alert without its analysis and kinds it does not know', () => {
    expect(replayOpenOf({ kind: 'alert', id: 'beacon' })).toBeNull();
    expect(replayOpenOf({ kind: 'flow', id: 'f1' })).toBeNull();
  });
});
