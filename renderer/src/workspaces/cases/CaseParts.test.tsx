// @vitest-environment jsdom
// The stories list: each entry counts its events in words that agree with the count.
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Story } from '../../../../engines/core/contracts/forensic';
import { StoryList } from './CaseParts';

afterEach(cleanup);

function story(id: string, events: number): Story {
  return {
    id,
    rank: Number(id.slice(1)),
    title: 'LSASS Memory on PC04',
    summary: '',
    rootNodeId: 'n1',
    hosts: ['PC04'],
    start: null,
    end: null,
    suspicion: 0.9,
    confidence: { reliability: 1, corroboration: 1, temporalFit: 1, edgeStrength: 1, penalty: 1, score: 0.69, grade: 'HIGH' },
    techniques: [],
    stages: [],
    nodeIds: [],
    edgeIds: [],
    eventIds: Array.from({ length: events }, (_, i) => String(i)),
    chains: [],
  };
}

describe('StoryList', () => {
  it('says "1 event" for a story of one event and groups the digits of a large count', () => {
    render(<StoryList stories={[story('S1', 1), story('S2', 1234)]} selected={null} onSelect={() => undefined} />);
    const metas = screen.getAllByRole('button').map((b) => b.querySelector('.story-item__meta')?.textContent ?? '');
    expect(metas[0]).toContain('· 1 event ·');
    expect(metas[1]).toContain('· 1,234 events ·');
  });
});
