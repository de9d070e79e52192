// What Cases does with an open request: the case to open and what to select in it.
import { describe, expect, it } from 'vitest';
import { caseTargetOf } from './useCaseOpenRequest';

describe('caseTargetOf', () => {
  it('opens a case, a story in its case, an event in its case', () => {
    expect(caseTargetOf({ kind: 'case', id: 'c1' })).toEqual({ caseId: 'c1', target: null });
    expect(caseTargetOf({ kind: 'story', id: 'S2', parent: 'c1' })).toEqual({ caseId: 'c1', target: { story: 'S2' } });
    expect(caseTargetOf({ kind: 'event', id: 'e9', parent: 'c1' })).toEqual({ caseId: 'c1', target: { event: 'e9' } });
  });

  it('needs the case for a story or an event, and ignores other kinds', () => {
    expect(caseTargetOf({ kind: 'story', id: 'S2' })).toBeNull();
    expect(caseTargetOf({ kind: 'event', id: 'e9' })).toBeNull();
    expect(caseTargetOf({ kind: 'graph', id: 'g', parent: 'c1' })).toBeNull();
  });
});
