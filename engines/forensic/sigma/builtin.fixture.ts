// Shared pieces of the built-in rule tests: the built-in rules read from their files (not the bundle, so a test runs on
// the rules as written), a Windows event, the detections of some events, and the catalogue check every family's test
// file runs (each rule fires on its event with its level and a tactic, and stays quiet on a benign near miss).
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { JsonRecord } from '../event.js';
import { analyzeEvents } from '../analysis/analyze.js';
import { at, makeEvent } from '../analysis/events.fixture.js';
import { loadSigmaRules, shippedRulesDir, type SigmaRuleSet } from './index.js';

export type Ev = ReturnType<typeof makeEvent>;

let rules: SigmaRuleSet | null = null;

/** Every built-in rule file at every level, read once per test file. */
export function builtinRules(): SigmaRuleSet {
  rules ??= loadSigmaRules({ sources: [{ name: 'rules-builtin-folder', path: path.join(shippedRulesDir(), 'rules-builtin') }], minLevel: 'informational' });
  return rules;
}

/** A Windows event log record as the EVTX loader gives it: channel, provider, event id and its data. */
export function windowsEvent(t: number, channel: string, provider: string, eventId: number, data: JsonRecord, host = 'SRV01'): Ev {
  return makeEvent({ time: at(t), host, action: 'windows.event', object: { type: 'log', name: channel }, attributes: { eventId, provider, channel, data } });
}

/** The built-in detections of one event or a sequence: rule title → {level, tactics}. */
export function builtinHits(events: Ev | readonly Ev[]): Map<string, { level: string; tactics: readonly string[] }> {
  const a = analyzeEvents(Array.isArray(events) ? [...(events as readonly Ev[])] : [events as Ev], { sigma: builtinRules() });
  return new Map((a.detections?.summary() ?? []).map((d) => [d.title, { level: d.level, tactics: d.tactics }]));
}

/** [rule title, level, a tactic it carries, the event(s) it is written for, a benign near miss]. */
export type CatalogueCase = readonly [title: string, level: string, tactic: string, event: Ev | readonly Ev[], nearMiss: Ev | readonly Ev[]];

/** The rules load without problems, and each case's rule fires with its level and tactic while its near miss does not. */
export function describeCatalogue(name: string, cases: readonly CatalogueCase[]): void {
  describe(name, () => {
    it('load without problems', () => {
      expect(builtinRules().skipped).toEqual([]);
      expect(builtinRules().inapplicable).toEqual([]);
    });
    it.each(cases)('%s: fires with its level and tactic; the near miss does not', (title, level, tactic, event, nearMiss) => {
      const h = builtinHits(event).get(title);
      expect(h?.level).toBe(level);
      expect(h?.tactics).toContain(tactic);
      expect(builtinHits(nearMiss).has(title)).toBe(false);
    });
  });
}
