// The timeline filter matched in idle slices while the events' search texts are not all made (a filter typed soon after a
// large case opens): the matches so far are shown and grow slice by slice, and the last slice leaves the same list a
// match in one go gives.
import { useEffect, useMemo, useState } from 'react';
import type { ExportedEvent } from '../../../../engines/core/contracts/forensic';
import { pageHost, runInIdleSlices, type IdleHost } from './idle-slices';
import { CLOCK_EVERY, keptEvents, makeSearchTexts, searchTexts, searchTextsMade, type TimelineIndex } from './model';

/** Whether the event at `position`, whose search text is `text`, is kept ('' when the filter needs no text). */
export type Keep = (e: ExportedEvent, position: number, text: string) => boolean;

/** Events matched between two looks at the clock when their texts are made already (well under a millisecond). */
const MATCH_EVERY = 1024;
/** Searching longer than this (milliseconds) shows a progress bar. */
export const SLOW_MS = 1000;
/** The matches so far are shown at most this often (milliseconds) while searching, and once at the end. */
const SHOW_EVERY_MS = 100;

export interface Matcher {
  /** Matches on until `timeLeft()` is 0 or less (looked at every CLOCK_EVERY texts made or MATCH_EVERY matched); true once every event is matched. */
  step(timeLeft: () => number): boolean;
  /** The positions kept so far, ascending, and how many events are looked at (all positions below it). */
  progress(): { kept: Uint32Array; scanned: number };
}

/** Matches the index's events in position order, making each search text not made yet on the way (kept for later filters). */
export function matchInSlices(index: TimelineIndex, keep: Keep): Matcher {
  const total = index.events.length;
  const out = new Uint32Array(total);
  let n = 0;
  let scanned = 0;
  return {
    step(timeLeft) {
      while (scanned < total) {
        if (searchTextsMade(index).length <= scanned) makeSearchTexts(index, CLOCK_EVERY);
        const texts = searchTextsMade(index);
        const end = Math.min(texts.length, scanned + MATCH_EVERY);
        for (; scanned < end; scanned++) if (keep(index.events[scanned] as ExportedEvent, scanned, texts[scanned] as string)) out[n++] = scanned;
        if (timeLeft() <= 0) break;
      }
      return scanned === total;
    },
    progress: () => ({ kept: out.subarray(0, n), scanned }),
  };
}

/** The events kept (null: no filter, every event), how many are still to be searched, and whether the search is slow enough for a progress bar. */
export interface KeptSoFar {
  readonly kept: Uint32Array | null;
  readonly left: number;
  readonly slow: boolean;
}

const NO_TEXTS: readonly string[] = [];
const NOTHING = new Uint32Array(0);

/**
 * The events `keep` accepts (null: no filter): in one go when it needs no search text or they are all made, otherwise in
 * idle slices (matchInSlices), the matches so far given back as they grow. `host` is the page's unless a test gives a fake clock.
 */
export function useKeptEvents(index: TimelineIndex, keep: Keep | null, needsTexts: boolean, host?: IdleHost): KeptSoFar {
  const idle = useMemo(() => host ?? pageHost(), [host]);
  const oneGo = useMemo((): KeptSoFar | null => {
    if (keep === null) return { kept: null, left: 0, slow: false };
    if (needsTexts && searchTextsMade(index).length < index.events.length) return null;
    const texts = needsTexts ? searchTexts(index) : NO_TEXTS;
    return { kept: keptEvents(index, (e, i) => keep(e, i, texts[i] ?? '')), left: 0, slow: false };
  }, [index, keep, needsTexts]);
  const [partial, setPartial] = useState<{ readonly index: TimelineIndex; readonly keep: Keep; readonly found: KeptSoFar } | null>(null);
  useEffect(() => {
    if (oneGo !== null || keep === null) return undefined;
    const matcher = matchInSlices(index, keep);
    const started = idle.now();
    let shown = started;
    return runInIdleSlices((timeLeft) => {
      const done = matcher.step(timeLeft);
      const now = idle.now();
      if (done || now - shown >= SHOW_EVERY_MS) {
        shown = now;
        const { kept, scanned } = matcher.progress();
        setPartial({ index, keep, found: { kept, left: index.events.length - scanned, slow: !done && now - started > SLOW_MS } });
      }
      return done;
    }, idle);
  }, [index, keep, oneGo, idle]);
  if (oneGo !== null) return oneGo;
  if (partial !== null && partial.index === index && partial.keep === keep) return partial.found;
  return { kept: NOTHING, left: index.events.length, slow: false };
}
