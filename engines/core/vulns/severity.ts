// Severity of an advisory: the base score computed from its CVSS v4/v3 vector (ae-cvss-calculator), else the database's own word, documented order.
import cvss from 'ae-cvss-calculator';
import type { Severity } from '../contracts/pkgscan.js';
import type { SeveritySource } from '../contracts/pkgscan-vulns.js';
import type { OsvRecord } from './osv.js';

export interface SeverityAnswer {
  readonly severity: Severity | null;
  readonly score: number | null;
  readonly vector: string | null;
  readonly source: SeveritySource | null;
}

export const NO_SEVERITY: SeverityAnswer = { severity: null, score: null, vector: null, source: null };

/** CVSS qualitative bands (v3 and v4 alike); 0.0 is `none`, shown here as `info`. */
export function bandOf(score: number): Severity {
  if (score >= 9) return 'critical';
  if (score >= 7) return 'high';
  if (score >= 4) return 'medium';
  if (score > 0) return 'low';
  return 'info';
}

/** Longest vector string read. */
export const MAX_VECTOR_CHARS = 256;

/** The base score of a CVSS v3.0, v3.1 or v4.0 vector; null when the vector is not one the calculator reads. */
export function cvssBaseScore(vector: string): number | null {
  // The longest CVSS v4.0 vector with every metric is under 200 characters: anything longer is not one.
  if (vector.length > MAX_VECTOR_CHARS) return null;
  const v = vector.trim();
  try {
    let base: number | undefined;
    if (v.startsWith('CVSS:4.0/')) base = new cvss.Cvss4P0(v).calculateScores().base;
    else if (v.startsWith('CVSS:3.1/')) base = new cvss.Cvss3P1(v).calculateScores().base;
    else if (v.startsWith('CVSS:3.0/')) base = new cvss.Cvss3P0(v).calculateScores().base;
    else return null;
    return typeof base === 'number' && Number.isFinite(base) && base >= 0 && base <= 10 ? base : null;
  } catch {
    // The calculator throws on a malformed vector: no score, never a failed import.
    return null;
  }
}

/** GitHub's and others' severity words to ours. */
export function severityWord(word: unknown): Severity | null {
  if (typeof word !== 'string') return null;
  switch (word.trim().toUpperCase()) {
    case 'CRITICAL':
      return 'critical';
    case 'HIGH':
    case 'IMPORTANT':
      return 'high';
    case 'MODERATE':
    case 'MEDIUM':
      return 'medium';
    case 'LOW':
    case 'NEGLIGIBLE':
      return 'low';
    case 'NONE':
    case 'INFO':
      return 'info';
    default:
      return null;
  }
}

/**
 * Which wins: a CVSS v4 vector, then a v3 vector (the record's own `severity`, then its affected entries'), computed
 * from the vector; else `database_specific.severity` of the record or of an affected entry (GHSA's word), else the
 * `ecosystem_specific.severity`; none: null (the caller may then use NVD through the CVE alias).
 */
export function severityOfRecord(r: OsvRecord): SeverityAnswer {
  const all = [...(r.severity ?? []), ...(r.affected ?? []).flatMap((a) => a.severity ?? [])];
  for (const type of ['CVSS_V4', 'CVSS_V3'] as const) {
    for (const s of all) {
      if (s.type !== type) continue;
      const score = cvssBaseScore(s.score);
      if (score !== null) return { severity: bandOf(score), score, vector: s.score, source: type === 'CVSS_V4' ? 'cvss_v4' : 'cvss_v3' };
    }
  }
  const words = [r.database_specific?.['severity'], ...(r.affected ?? []).flatMap((a) => [a.database_specific?.['severity'], a.ecosystem_specific?.['severity']])];
  for (const w of words) {
    const s = severityWord(w);
    if (s !== null) return { severity: s, score: null, vector: null, source: 'database_specific' };
  }
  return NO_SEVERITY;
}
