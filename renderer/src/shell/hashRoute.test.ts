// Item links in the fragment: the shapes "Send to…" writes and the generic one, what is refused, and the hand-off to
// the workspaces through the open-request path.
import { describe, expect, it } from 'vitest';
import { followHashRoute, parseHashRoute } from './hashRoute';
import { canOpen, requestOpen, takeOpenRequest, type OpenRequest } from './openItem';

describe('parseHashRoute', () => {
  it('reads the Cases story link Send to… writes', () => {
    expect(parseHashRoute('#/forensic/case/c-12/story/s3')).toEqual({ service: 'forensic', kind: 'story', id: 's3', parent: 'c-12', title: 'story s3' });
    expect(parseHashRoute('#/forensic/case/c-12/event/ev%2042')).toEqual({ service: 'forensic', kind: 'event', id: 'ev 42', parent: 'c-12', title: 'event ev 42' });
    expect(parseHashRoute('#/forensic/case/c-12')).toMatchObject({ service: 'forensic', kind: 'case', id: 'c-12' });
  });

  it('reads the Replay story link and an alert rule inside an analysis', () => {
    expect(parseHashRoute('#/replay/story/st-1')).toEqual({ service: 'replay', kind: 'story', id: 'st-1', title: 'story st-1' });
    expect(parseHashRoute('#/replay/analysis/a1/alert/beacon')).toMatchObject({ service: 'replay', kind: 'alert', id: 'beacon', parent: 'a1' });
  });

  it('takes a workspace word for the service, a trailing slash, and a parent', () => {
    expect(parseHashRoute('#/packages/scan/abc/')).toMatchObject({ service: 'pkgscan', kind: 'scan', id: 'abc' });
    expect(parseHashRoute('#/Lineage/run/r1')).toMatchObject({ service: 'provgate', kind: 'run', id: 'r1' });
    expect(parseHashRoute('#/pkgscan/project-scan/ps1?parent=p9')).toMatchObject({ kind: 'project-scan', id: 'ps1', parent: 'p9' });
  });

  it('names nothing for the token fragment, unknown services, bad shapes and unsafe segments', () => {
    for (const h of [
      '',
      '#',
      '#token=abc',
      '#main',
      '#/',
      '#/nowhere/story/1',
      '#/replay',
      '#/replay/story',
      '#/replay/story/',
      '#/replay/story/1/extra',
      '#/replay/st%ory/1',
      '#/replay/story/%E0%A4%A',
      '#/replay/story/a%0Ab',
      '#/replay/story/a%2Fb',
      `#/replay/story/${'x'.repeat(301)}`,
      '#/forensic/case/c1/graph/n1',
      '#/replay/story/s1/event/e1',
      '#/forensic/case/c1/story/',
    ])
      expect(parseHashRoute(h), h).toBeNull();
  });
});

describe('following a link', () => {
  it('clears the fragment, then sends the request that a listening workspace takes', () => {
    const seen: OpenRequest[] = [];
    const steps: string[] = [];
    expect(
      followHashRoute(
        '#/replay/story/st-9',
        () => steps.push('clear'),
        (r) => {
          steps.push('open');
          seen.push(r);
          requestOpen(r);
        },
      ),
    ).toBe(true);
    expect(steps).toEqual(['clear', 'open']);
    expect(canOpen(seen[0] as OpenRequest)).toBe(true);
    expect(takeOpenRequest('forensic')).toBeNull();
    expect(takeOpenRequest('replay')).toMatchObject({ kind: 'story', id: 'st-9' });
    expect(takeOpenRequest('replay')).toBeNull();
  });

  it('leaves a fragment that names no item alone', () => {
    let cleared = false;
    expect(followHashRoute('#token=abc', () => (cleared = true), () => undefined)).toBe(false);
    expect(cleared).toBe(false);
  });

  it('knows which kinds each workspace can select', () => {
    expect(canOpen({ service: 'forensic', kind: 'event', id: 'e' })).toBe(true);
    expect(canOpen({ service: 'pkgscan', kind: 'artifact', id: 'a' })).toBe(false);
    expect(canOpen({ service: 'petriage', kind: 'analysis', id: 'a' })).toBe(true);
    expect(canOpen({ service: 'petriage', kind: 'model', id: 'a' })).toBe(false);
  });
});
