// Pure helpers of the Vulnerabilities tab: what a lookup status lets an analyst conclude, which advisory file kind a name suggests, EPSS as text.
import type { LookupStatus } from '../../../../../engines/core/contracts/pkgscan-vulns';

/** The headline of a lookup: only `ok` with no items may read as "no known vulnerabilities"; partial and unavailable are unknown. */
export function lookupHeadline(status: LookupStatus, count: number): { tone: 'ok' | 'found' | 'unknown'; text: string } {
  if (status === 'ok') return count === 0 ? { tone: 'ok', text: 'No known vulnerabilities in the advisory store for this version' } : { tone: 'found', text: `${count} advisor${count === 1 ? 'y affects' : 'ies affect'} this version` };
  const found = count > 0 ? ` ${count} advisor${count === 1 ? 'y' : 'ies'} found so far, there may be more.` : '';
  return {
    tone: 'unknown',
    text: status === 'partial' ? `UNKNOWN: the advisory data is incomplete (partial).${found}` : `UNKNOWN: no advisory data for this ecosystem (unavailable).${found}`,
  };
}

/** Advisory files the import accepts, by name (the service decides from the content; this only filters obvious mistakes). */
export function advisoryFileKind(filename: string): string | null {
  const n = filename.toLowerCase();
  if (n.endsWith('.csv.gz') || n.endsWith('.csv')) return n.includes('epss') ? 'EPSS scores' : n.includes('known_exploited') || n.includes('kev') ? 'KEV catalogue (CSV)' : 'CSV (KEV or EPSS)';
  if (n.endsWith('.zip')) return 'OSV export (zip)';
  if (n.endsWith('.json') || n.endsWith('.json.gz')) return n.includes('known_exploited') || n.includes('kev') ? 'KEV catalogue' : n.includes('nvd') ? 'NVD CVE feed' : 'OSV record or feed';
  return null;
}

export function epssText(score: number | null, percentile: number | null): string {
  if (score === null) return '—';
  const s = score < 0.01 ? `${(score * 100).toFixed(2)}%` : `${(score * 100).toFixed(1)}%`;
  return percentile === null ? s : `${s} (p${Math.round(percentile * 100)})`;
}
