// A lookup's headline never says "no vulnerabilities" unless the status is ok; advisory file names; EPSS text.
import { describe, expect, it } from 'vitest';
import { advisoryFileKind, epssText, lookupHeadline } from './model';

describe('vulnerability helpers', () => {
  it('only ok with nothing found reads as no known vulnerabilities', () => {
    expect(lookupHeadline('ok', 0)).toEqual({ tone: 'ok', text: expect.stringMatching(/^No known vulnerabilities/) });
    expect(lookupHeadline('ok', 2).tone).toBe('found');
    for (const status of ['partial', 'unavailable'] as const) {
      for (const n of [0, 1, 3]) {
        const h = lookupHeadline(status, n);
        expect(h.tone).toBe('unknown');
        expect(h.text).toMatch(/^UNKNOWN/);
        expect(h.text).not.toMatch(/no known vulnerabilities/i);
      }
    }
    expect(lookupHeadline('partial', 1).text).toMatch(/there may be more/);
  });

  it('advisory file kinds by name', () => {
    expect(advisoryFileKind('epss_scores-2026-11-01.csv.gz')).toBe('EPSS scores');
    expect(advisoryFileKind('known_exploited_vulnerabilities.csv')).toBe('KEV catalogue (CSV)');
    expect(advisoryFileKind('known_exploited_vulnerabilities.json')).toBe('KEV catalogue');
    expect(advisoryFileKind('all.zip')).toBe('OSV export (zip)');
    expect(advisoryFileKind('GHSA-xxxx.json')).toBe('OSV record or feed');
    expect(advisoryFileKind('nvdcve-2.0-2024.json')).toBe('NVD CVE feed');
    expect(advisoryFileKind('readme.md')).toBeNull();
  });

  it('EPSS as a percentage with its percentile', () => {
    expect(epssText(null, null)).toBe('—');
    expect(epssText(0.9731, 0.999)).toBe('97.3% (p100)');
    expect(epssText(0.00043, 0.12)).toBe('0.04% (p12)');
  });
});
