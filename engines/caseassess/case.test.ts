// Case file validation: what is accepted, what is refused, and that refusals name the field but never echo the value.
import { describe, expect, it } from 'vitest';
import type { VitrineError } from '../core/errors.js';
import { refusal } from '../core/errors.fixture.js';
import { MAX_ITEMS, validateCase } from './case.js';

const refused = (value: unknown): VitrineError => refusal(() => validateCase(value));

const SECRET = 'Sup3rSecretValue-xyz';

describe('validateCase', () => {
  it('accepts a full case and lower-case ids', () => {
    const kase = {
      case_id: 'IR-2024-017',
      title: 'Mail server intrusion',
      analyst: 'A. Analyst',
      techniques: [{ evidence_id: 'E1', id: 't1059.001', confidence: 0.7, note: 'EDR' }],
      software: [{ evidence_id: 'E2', name: 'Mimikatz' }, { evidence_id: 'E3', id: 'S0154' }],
      indicators: [{ evidence_id: 'E4', type: 'sha256', value: 'a'.repeat(64) }],
      sectors: [{ evidence_id: 'E5', name: 'government' }],
      regions: [{ evidence_id: 'E6', name: 'Germany' }],
      time_window: { evidence_id: 'E7', start: '2023-02', end: '2023-03-15' },
    };
    expect(validateCase(kase)).toEqual(kase);
    expect(validateCase({ case_id: 'x' })).toEqual({ case_id: 'x' });
  });

  it('refuses with status 422, the field path, and not the value', () => {
    const cases: [unknown, string][] = [
      [{ case_id: 'x', techniques: [{ evidence_id: 'E1', id: SECRET }] }, 'techniques[0].id'],
      [{ case_id: 'x', techniques: [{ evidence_id: 'E1', id: 'T1059', confidence: 1.5 }] }, 'techniques[0].confidence'],
      [{ case_id: 'x', indicators: [{ evidence_id: 'E1', type: SECRET, value: 'v' }] }, 'indicators[0].type'],
      [{ case_id: 'x', time_window: { evidence_id: 'W', start: SECRET } }, 'time_window.start'],
      // An unknown key is named in the path only when it looks like a field name (engines/core/validation.ts).
      [{ case_id: 'x', [`${SECRET} !`]: 1 }, '?'],
      [{ case_id: 'x', software: [{ evidence_id: 'E1', id: 'S0001', colour: SECRET }] }, 'software[0].colour'],
      [{ title: SECRET }, 'case_id'],
      [{ case_id: 'x', software: [{ evidence_id: 'E1' }] }, 'software[0]'],
      [{ case_id: 'x', techniques: [{ evidence_id: 'E1', id: 'T1059' }], sectors: [{ evidence_id: 'E1', name: SECRET }] }, 'sectors[0].evidence_id'],
      [{ case_id: 'x', time_window: { evidence_id: 'W', start: '2024-02', end: '2023' } }, 'time_window.end'],
      [{ case_id: 'x', time_window: { evidence_id: 'W', end: '2023-02-30' } }, 'time_window.end'],
      [{ case_id: 'x', time_window: { evidence_id: 'W' } }, 'time_window'],
      [[SECRET], ''],
      [null, ''],
    ];
    for (const [value, path] of cases) {
      const err = refused(value);
      expect(err.code).toBe('validation_failed');
      expect(err.status).toBe(422);
      expect(err.details?.map((d) => d.path)).toContain(path);
      expect(JSON.stringify({ message: err.message, details: err.details })).not.toContain(SECRET);
    }
  });

  it('limits list sizes and string lengths', () => {
    const many = Array.from({ length: MAX_ITEMS + 1 }, (_, i) => ({ evidence_id: `E${i}`, id: 'T1059' }));
    expect(refused({ case_id: 'x', techniques: many }).details?.[0]).toEqual({ path: 'techniques', issue: `must be at most ${MAX_ITEMS} items` });
    expect(refused({ case_id: 'x'.repeat(201) }).details?.[0]?.path).toBe('case_id');
    expect(refused({ case_id: 'x', sectors: [{ evidence_id: 'E', name: 's'.repeat(201) }] }).details?.[0]?.path).toBe('sectors[0].name');
  });
});
