// The workstation-wide search (GET /api/search): what the gateway answers and the renderer shows. Types only.

/** What the query was read as; providers match each kind by its own rules (see engines/core/search.ts). */
export type QueryKind = 'ipv4' | 'ipv6' | 'md5' | 'sha1' | 'sha256' | 'domain' | 'technique' | 'cve' | 'package' | 'text';

/** Where the UI goes for a hit: a workspace (by service) and, as far as that workspace supports it, one item. */
export interface SearchLink {
  readonly service: string;
  /** The item kind, for example `story`, `analysis`, `scan`. */
  readonly kind: string;
  readonly id: string;
  /** The item's container when it has one, for example the analysis a story belongs to. */
  readonly parent?: string;
}

export interface SearchHit {
  readonly service: string;
  /** case, story, scan, report, analysis, assessment, run, artifact, object, diff, project-scan, container-scan... */
  readonly kind: string;
  readonly id: string;
  readonly title: string;
  /** Where it matched, for example `attacker` or `stories[2].hosts[0]`. */
  readonly field: string;
  /** A short piece of the matching text (at most about 160 characters). */
  readonly snippet: string;
  readonly link: SearchLink;
  /** ISO 8601 time of the item, when it has one. */
  readonly time?: string;
  /** Higher first: 3 an identifying column (id, hash, name), 2 another column, 1 inside a stored document. */
  readonly rank: number;
}

export interface SearchGroup {
  readonly service: string;
  readonly title: string;
  readonly workspace: string;
  readonly hits: readonly SearchHit[];
  /** More hits may exist than were returned (the limit was reached). */
  readonly truncated: boolean;
  /** Set when this service's search failed; the other groups still answer. */
  readonly error?: string;
}

export interface SearchResponse {
  /** The kind the query was read as (the query itself is not echoed). */
  readonly kind: QueryKind;
  readonly total: number;
  readonly groups: readonly SearchGroup[];
}
