// Span-anchored extraction: indicators and techniques (ids, names, phrasings, classifier predictions per sentence) from one text.
import type { Extraction, TechniqueSpan, TechniqueSummary } from '../../core/contracts/attrib.js';
import { VitrineError } from '../../core/errors.js';
import type { TechniqueClassifier } from '../classifier/classifier.js';
import type { AttackKb } from '../kb/kb.js';
import { extractIndicators } from './indicators.js';
import { findTechniqueIds, findTechniqueNames, findTechniquePhrases, splitSentences } from './techniques.js';

import { MAX_TEXT_CHARS } from '../limits.js';

export { MAX_TEXT_CHARS };

export interface ExtractOptions {
  /** Adds the classifier's top label of each sentence when its probability reaches the model's extraction threshold. */
  readonly classifier?: TechniqueClassifier;
  /** Overrides the model's threshold. */
  readonly threshold?: number;
}

const SOURCE_RANK = { id: 0, name: 1, phrase: 2, classifier: 3 } as const;

/** Indicators and techniques of `text`, every one with its [start, end) span in `text`. */
export function extract(text: string, kb: AttackKb, opts: ExtractOptions = {}): Extraction {
  if (typeof text !== 'string') throw new VitrineError('validation_failed', 'the text must be a string');
  if (text.length > MAX_TEXT_CHARS) throw new VitrineError('payload_too_large', `the text is longer than ${MAX_TEXT_CHARS} characters`);
  const warnings: string[] = [];
  const indicators = extractIndicators(text);
  const found: TechniqueSpan[] = [...findTechniqueIds(text, kb, warnings), ...findTechniqueNames(text, kb), ...findTechniquePhrases(text, kb)];
  if (opts.classifier) {
    const threshold = opts.threshold ?? opts.classifier.extractionThreshold;
    for (const s of splitSentences(text)) {
      const sentence = text.slice(s.start, s.end);
      if (!/[\p{L}]{3}/u.test(sentence)) continue;
      const [top] = opts.classifier.predict(sentence, 1);
      if (top === undefined || top.probability < threshold) continue;
      const t = kb.techniques.get(kb.revoked.get(top.id) ?? top.id);
      if (t === undefined) continue;
      found.push({ id: t.id, name: t.name, start: s.start, end: s.end, source: 'classifier', probability: Math.round(top.probability * 1e4) / 1e4 });
    }
  }
  // One span per (id, start, end): the most explicit source wins.
  found.sort((a, b) => a.start - b.start || a.end - b.end || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0) || SOURCE_RANK[a.source] - SOURCE_RANK[b.source]);
  const techniques = found.filter((t, i) => i === 0 || !(t.start === found[i - 1]!.start && t.end === found[i - 1]!.end && t.id === found[i - 1]!.id));
  return { length: text.length, indicators, techniques, technique_summary: summarise(techniques, kb), warnings };
}

function summarise(spans: readonly TechniqueSpan[], kb: AttackKb): TechniqueSummary[] {
  const by = new Map<string, { count: number; sources: Set<TechniqueSpan['source']> }>();
  for (const s of spans) {
    const e = by.get(s.id) ?? { count: 0, sources: new Set() };
    e.count++;
    e.sources.add(s.source);
    by.set(s.id, e);
  }
  return [...by.entries()]
    .sort((a, b) => (a[0] < b[0] ? -1 : 1))
    .map(([id, e]) => {
      const t = kb.techniques.get(id)!;
      return { id, name: t.name, tactics: [...t.tactics], count: e.count, sources: [...e.sources].sort((a, b) => SOURCE_RANK[a] - SOURCE_RANK[b]) };
    });
}
