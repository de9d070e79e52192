import { describe, expect, it } from 'vitest';
import { centredViewAt, graphKey, HIDE_LABEL_PX, labelPxAt, MIN_LABEL_PX, minFitZoom, readableViewAt } from './graph-readable';

describe('the graphs\' readability rule', () => {
  it('a fit never draws labels under 10 px on screen: the zoom floor times the label size', () => {
    expect(MIN_LABEL_PX).toBeGreaterThanOrEqual(10);
    expect(HIDE_LABEL_PX).toBeLessThan(MIN_LABEL_PX);
    for (const size of [10, 11, 12, 14]) expect(labelPxAt(minFitZoom(size), size)).toBeGreaterThanOrEqual(MIN_LABEL_PX);
    expect(labelPxAt(0.5, 12)).toBe(6);
  });

  it('floors a fit that needed a smaller zoom, from the left of what it fitted', () => {
    const floor = minFitZoom(12);
    expect(readableViewAt(floor, { x1: 0, y1: 0, y2: 100 }, 500, floor, 28)).toBeNull();
    const low = readableViewAt(0.4, { x1: 100, y1: 0, y2: 100 }, 500, floor, 28);
    expect(low?.zoom).toBe(floor);
    expect(low?.pan.x).toBeCloseTo(28 - 100 * floor);
    // Short: its middle at the panel's middle; tall: its top at the top.
    expect(low?.pan.y).toBeCloseTo(250 - 50 * floor);
    expect(readableViewAt(0.1, { x1: 0, y1: 40, y2: 4000 }, 500, floor, 28)?.pan.y).toBeCloseTo(28 - 40 * floor);
  });

  it('the toolbar keys are the same for every graph', () => {
    const view = { zoom: 1, pan: { x: 0, y: 0 } };
    const size = { width: 600, height: 400 };
    const limits = { min: 0.05, max: 1.4 };
    expect(graphKey('+', view, size, limits)).toMatchObject({ zoom: 1.25 });
    expect(graphKey('ArrowLeft', view, size, limits)).toEqual({ zoom: 1, pan: { x: 80, y: 0 } });
    expect(graphKey('0', view, size, limits)).toBe('whole');
    expect(graphKey('s', view, size, limits)).toBe('story');
    expect(graphKey('x', view, size, limits)).toBeNull();
  });

  it('centres a focus at a given zoom, from its left or top where it is larger than the panel', () => {
    const size = { width: 600, height: 400 };
    expect(centredViewAt({ x1: 100, x2: 300, y1: 0, y2: 100 }, size, 1, 28)).toEqual({ zoom: 1, pan: { x: 100, y: 150 } });
    expect(centredViewAt({ x1: 100, x2: 1000, y1: 0, y2: 1000 }, size, 1, 28)).toEqual({ zoom: 1, pan: { x: 28 - 100, y: 28 } });
  });

  it('keeps the whole graph as much in view as it can when it is a little larger than the panel', () => {
    const size = { width: 600, height: 400 };
    // A focus at the right end of a graph 700 wide: centring it would leave empty panel right of the graph.
    const v = centredViewAt({ x1: 600, x2: 700, y1: 0, y2: 100 }, size, 1, 28, { x1: 0, x2: 700, y1: 0, y2: 100 });
    expect(v.pan.x).toBe(600 - 28 - 700);
  });
});
