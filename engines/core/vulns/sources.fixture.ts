// Advisory source texts for the advisory stores' tests (engines/core/vulns/store.test.ts, pkgscan's repository tests): OSV
// records, a KEV catalogue and an EPSS file, small and dated against one fixed clock.

/** The tests' clock. */
export const NOW = Date.parse('2025-09-01T00:00:00Z');
/** A `modified` two days before NOW. */
export const fresh = '2025-08-30T00:00:00Z';

/** An OSV record for PyPI Demo_Pkg, affected below 2.0, modified `fresh`; `extra` replaces or adds fields. */
export const osvRec = (id: string, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  id,
  modified: fresh,
  summary: `summary of ${id}`,
  affected: [{ package: { ecosystem: 'PyPI', name: 'Demo_Pkg' }, ranges: [{ type: 'ECOSYSTEM', events: [{ introduced: '0' }, { fixed: '2.0' }] }] }],
  ...extra,
});

/** A CISA KEV catalogue (JSON) listing `cves`, all with known ransomware use. */
export const kevJson = (cves: string[]): string =>
  JSON.stringify({ catalogVersion: '2025.08.30', dateReleased: '2025-08-30T10:00:00Z', count: cves.length, vulnerabilities: cves.map((c) => ({ cveID: c, vendorProject: 'V', product: 'P', vulnerabilityName: 'N', dateAdded: '2025-08-01', dueDate: '2025-08-22', knownRansomwareCampaignUse: 'Known' })) });

/** An EPSS CSV of [cve, score, percentile] rows, scored 2025-08-31. */
export const epssCsv = (rows: [string, number, number][]): string => `#model_version:v2025.03.14,score_date:2025-08-31T00:00:00+0000\ncve,epss,percentile\n${rows.map((r) => r.join(',')).join('\n')}\n`;
