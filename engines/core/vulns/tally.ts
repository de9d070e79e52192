// What one advisory import has read, for both advisory stores (engines/core/vulns/store.ts on SQLite, pkgscan's repository on
// SQLite or PostgreSQL): the counts, the warning samples, the data's own date and, per OSV ecosystem, what osvSourceDate needs.
import type { AdvisorySourceKind } from '../contracts/pkgscan-vulns.js';
import { VitrineError } from '../errors.js';
import type { SourceItem } from './sources.js';

/** At most this many warning messages are kept with an import (all are counted). */
export const MAX_WARNING_SAMPLES = 20;

/** A record a source yielded, for the store to write. */
export type SourceRecord = Extract<SourceItem, { readonly type: 'osv' | 'kev' | 'epss' | 'nvd' }>;

/** An import's counts: records read, and what writing them did (the stores add inserted/updated/unchanged). */
export interface ImportCounts {
  records: number;
  inserted: number;
  updated: number;
  unchanged: number;
  warnings: number;
}

export class ImportTally {
  readonly counts: ImportCounts = { records: 0, inserted: 0, updated: 0, unchanged: 0, warnings: 0 };
  /** The first MAX_WARNING_SAMPLES warning messages. */
  readonly samples: string[] = [];
  /** The data's own date (the last one the source gave), else null. */
  dataDate: string | null = null;
  /** Per OSV ecosystem: the newest `modified` among this import's records that name it. */
  readonly osvNewest = new Map<string, string>();
  /** Per OSV ecosystem: how many of this import's records name it. */
  readonly osvCounts = new Map<string, number>();

  constructor(private readonly onProgress?: (fraction: number, message: string) => void) {}

  /** One item of readSource: a warning, a date or progress is taken here (progress reported); a record is counted and handed back. */
  take(item: SourceItem): SourceRecord | undefined {
    switch (item.type) {
      case 'warning':
        this.counts.warnings++;
        if (this.samples.length < MAX_WARNING_SAMPLES) this.samples.push(item.message);
        return undefined;
      case 'date':
        this.dataDate = item.date;
        return undefined;
      case 'progress':
        this.onProgress?.(Math.min(0.99, item.fraction), `${this.counts.records} records`);
        return undefined;
      case 'osv': {
        const r = item.record;
        const ecosystems = new Set<string>();
        for (const a of r.affected ?? []) {
          if (a.package === undefined) continue;
          ecosystems.add(a.package.ecosystem);
          const prev = this.osvNewest.get(a.package.ecosystem);
          if (prev === undefined || r.modified > prev) this.osvNewest.set(a.package.ecosystem, r.modified);
        }
        for (const e of ecosystems) this.osvCounts.set(e, (this.osvCounts.get(e) ?? 0) + 1);
        break;
      }
    }
    this.counts.records++;
    return item;
  }

  /** A source that yielded no record at all (a folder of files in no format read, an empty array) is a failed import. */
  requireRecords(): void {
    if (this.counts.records === 0)
      throw new VitrineError('validation_failed', this.counts.warnings > 0 ? 'no advisory record could be read from the source (see the warnings)' : 'the source holds no advisory record');
  }
}

/** The vuln_sources name of a kind that is not OSV (its table is `vuln_<name>`). */
export function plainSourceOf(kind: AdvisorySourceKind): 'kev' | 'epss' | 'nvd' {
  return kind.startsWith('kev') ? 'kev' : kind.startsWith('epss') ? 'epss' : 'nvd';
}
