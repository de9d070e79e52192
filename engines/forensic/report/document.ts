// The court-style report as format-neutral blocks, built once from an AnalysisView and a CustodyView; markdown.ts, html.ts and pdf.ts only lay them out.
import { attackLookup } from '../../core/attack/lookup.js';
import type { DetectionSummary, RuleProblem } from '../../core/contracts/forensic.js';
import type { AnalysisView, CausalEdge, ConfidenceBreakdown, CustodyView, ExportedEvent, GraphNode, Story } from '../../core/contracts/forensic.js';

/** What the report says about the case besides the analysis. */
export interface ReportMeta {
  readonly title: string;
  readonly caseId?: string;
  /** `scenario:<name>`, `path`, `cli` ... */
  readonly origin?: string;
  /** Tool and version that wrote the report. */
  readonly generator: string;
  /** When the report was written (ISO 8601 UTC); default the analysis time. */
  readonly generatedAt?: string;
}

export interface StoryGraph {
  readonly nodes: readonly GraphNode[];
  readonly edges: readonly CausalEdge[];
  readonly rootNodeId: string;
}

export type Block =
  | { readonly t: 'h'; readonly level: 1 | 2 | 3; readonly text: string; readonly anchor?: string }
  | { readonly t: 'p'; readonly text: string; readonly muted?: boolean }
  | { readonly t: 'kv'; readonly rows: readonly (readonly [string, string])[] }
  | { readonly t: 'table'; readonly caption?: string; readonly head: readonly string[]; readonly rows: readonly (readonly string[])[]; readonly mono?: readonly number[] }
  | { readonly t: 'list'; readonly items: readonly string[] }
  | { readonly t: 'bars'; readonly caption: string; readonly items: readonly (readonly [string, number])[] }
  | { readonly t: 'graph'; readonly graph: StoryGraph };

export interface ReportDocument {
  readonly title: string;
  readonly blocks: readonly Block[];
}

/** Sigma detections grouped by rule, every one (inside a story or not), with the rule's author (DRL 1.1). */
function detectionBlocks(detections: readonly DetectionSummary[]): Block[] {
  const blocks: Block[] = [{ t: 'h', level: 2, text: 'Sigma detections', anchor: 'detections' }];
  if (detections.length === 0) {
    blocks.push({ t: 'p', text: 'No Sigma rule matched (or Sigma was off).' });
    return blocks;
  }
  const total = detections.reduce((n, d) => n + d.count, 0);
  blocks.push({ t: 'p', text: `${total} detection(s) by ${detections.length} rule(s), grouped by rule. High and critical detections take part in the causal graph and the stories. Rules: SigmaHQ (Detection Rule License 1.1) and the built-in Windows rules (rules-builtin); each rule's author is named.` });
  blocks.push({
    t: 'table',
    head: ['level', 'rule', 'count', 'hosts', 'first seen (UTC)', 'last seen (UTC)', 'techniques', 'tactics', 'author', 'rule id'],
    rows: detections.map((d) => [d.level, d.title, String(d.count), d.hosts.join(', ') || '-', orDash(d.firstSeen), orDash(d.lastSeen), d.techniques.map((id) => `${id} ${attackLookup().label(id)}`).join(', ') || '-', d.tactics.join(', ') || '-', orDash(d.author), d.ruleId]),
    mono: [9],
  });
  return blocks;
}

/** Detection rules (shipped or the analyst's) that could not be parsed or compiled: they did not run on this case. */
function ruleProblemBlocks(all: readonly RuleProblem[]): Block[] {
  const problems = all.filter((r) => r.placeholder === undefined);
  const waiting = all.filter((r) => r.placeholder !== undefined);
  const out: Block[] = [];
  if (problems.length > 0) {
    out.push(
      { t: 'h', level: 2, text: 'Rules that could not run', anchor: 'rule-problems' },
      { t: 'p', text: `${problems.length} rule(s) could not be parsed or compiled and did not run on this case; what they look for was not searched.` },
      { t: 'table', head: ['rule file', 'rule id', 'title', 'reason'], rows: problems.map((r) => [r.source, orDash(r.id), orDash(r.title), r.reason]), mono: [0, 1] },
    );
  }
  if (waiting.length > 0) {
    out.push(
      { t: 'h', level: 2, text: 'Rules not run: placeholders without values', anchor: 'rule-placeholders' },
      { t: 'p', text: `${waiting.length} valid rule(s) name a placeholder that is filled from this site's values (for example its domain controllers) and none were given, so they did not run on this case.` },
      { t: 'table', head: ['rule file', 'rule id', 'title', 'placeholder'], rows: waiting.map((r) => [r.source, orDash(r.id), orDash(r.title), `%${r.placeholder ?? ''}%`]), mono: [0, 1, 3] },
    );
  }
  return out;
}

/** Every ATT&CK technique of the case, named by the ATT&CK lookup, with where it was seen. */
function techniqueBlocks(view: AnalysisView): Block[] {
  const list = view.techniques ?? [];
  if (list.length === 0) return [];
  return [
    { t: 'h', level: 2, text: 'ATT&CK techniques', anchor: 'techniques' },
    { t: 'p', text: `${list.length} technique(s) from the stories, the detections of every level and the tampering indicators${view.attackVersion ? `, named from ATT&CK ${view.attackVersion} and the earlier releases the workstation knows` : ''}. Revoked ids are named with their replacement; an id no release knows is marked unknown.` },
    {
      t: 'table',
      head: ['ATT&CK id', 'name', 'tactics', 'stories', 'detection rules', 'hits', 'indicators'],
      rows: list.map((t) => [t.id, t.name, t.tactics.join(', ') || '-', String(t.stories), String(t.rules), String(t.hits), String(t.indicators)]),
      mono: [0],
    },
  ];
}

/** The analysts' tags and notes on events (their current versions; every version stays in the annotation ledger). */
function annotationBlocks(view: AnalysisView): Block[] {
  const notes = view.annotations ?? [];
  if (notes.length === 0) return [];
  const events = new Map(view.events.map((e) => [e.eventId, e]));
  return [
    { t: 'h', level: 2, text: 'Analyst annotations', anchor: 'annotations' },
    { t: 'p', text: `${notes.length} event(s) tagged or annotated by an analyst (the current version of each; every version is kept in the case's hash-chained annotation ledger).` },
    {
      t: 'table',
      head: ['event', 'time (UTC)', 'summary', 'tags', 'note', 'by', 'at (UTC)', 'versions'],
      rows: notes.map((a) => {
        const e = events.get(a.eventId);
        return [a.eventId, orDash(e?.time.time ?? null), e?.summary ?? '-', a.tags.join(', ') || '-', a.note || '-', a.actor, a.at, String(a.versions)];
      }),
      mono: [0],
    },
  ];
}

/** Custody records listed one by one in the report (ingest records are counted, not listed: one per event). */
export const CUSTODY_RECORDS_LISTED = 50;

function fixed(n: number, digits = 2): string {
  return Number.isFinite(n) ? n.toFixed(digits) : '-';
}

function orDash(s: string | null | undefined): string {
  return s === null || s === undefined || s === '' ? '-' : s;
}

/** The confidence breakdown as rows: the four terms, the penalty, the score and the grade. */
export function confidenceRows(c: ConfidenceBreakdown): [string, number][] {
  return [
    ['reliability', c.reliability],
    ['corroboration', c.corroboration],
    ['temporal fit', c.temporalFit],
    ['edge strength', c.edgeStrength],
    ['tampering penalty', c.penalty],
    ['score', c.score],
  ];
}

/** The nodes and edges of one story, taken from the view (ids the view lacks are skipped). */
export function storyGraph(view: AnalysisView, story: Story): StoryGraph {
  const nodes = new Map(view.nodes.map((n) => [n.id, n]));
  const edges = new Map(view.edges.map((e) => [e.id, e]));
  const storyEdges = story.edgeIds.map((id) => edges.get(id)).filter((e): e is CausalEdge => e !== undefined);
  const ids = new Set([story.rootNodeId, ...story.nodeIds, ...storyEdges.flatMap((e) => [e.from, e.to])]);
  return { nodes: [...ids].map((id) => nodes.get(id)).filter((n): n is GraphNode => n !== undefined), edges: storyEdges, rootNodeId: story.rootNodeId };
}

function eventRow(e: ExportedEvent): string[] {
  return [orDash(e.time.time), orDash(e.host), e.action, e.summary, e.eventId, `${e.loader} (${e.reliability})`, e.integrityHash];
}

function storyBlocks(view: AnalysisView, story: Story, events: ReadonlyMap<string, ExportedEvent>): Block[] {
  const c = story.confidence;
  const graph = storyGraph(view, story);
  const labels = new Map(graph.nodes.map((n) => [n.id, n.label]));
  const edgeById = new Map(graph.edges.map((e) => [e.id, e]));
  const blocks: Block[] = [
    { t: 'h', level: 2, text: `${story.id}: ${story.title}`, anchor: story.id },
    {
      t: 'kv',
      rows: [
        ['Rank', String(story.rank)],
        ['Confidence grade', `${c.grade} (score ${fixed(c.score)})`],
        ['Suspicion', fixed(story.suspicion)],
        ['Hosts', story.hosts.join(', ') || '-'],
        ['Start', orDash(story.start)],
        ['End', orDash(story.end)],
        ['Kill-chain stages', story.stages.join(', ') || '-'],
        ['Events', String(story.eventIds.length)],
      ],
    },
    { t: 'p', text: story.summary },
    { t: 'h', level: 3, text: 'Confidence breakdown' },
    { t: 'bars', caption: `Confidence breakdown of ${story.id}`, items: confidenceRows(c) },
    { t: 'table', head: ['term', 'value'], rows: [...confidenceRows(c).map(([k, v]) => [k, fixed(v)]), ['grade', c.grade]] },
    { t: 'h', level: 3, text: 'Techniques' },
    story.techniques.length === 0
      ? { t: 'p', text: 'No ATT&CK technique was tagged.', muted: true }
      : { t: 'table', head: ['ATT&CK id', 'name', 'tactics'], rows: story.techniques.map((t) => [t.id, t.name, t.tactics.join(', ')]), mono: [0] },
    { t: 'h', level: 3, text: 'Graph' },
  ];
  if (graph.edges.length > 0) blocks.push({ t: 'graph', graph });
  blocks.push(
    graph.edges.length === 0
      ? { t: 'p', text: `No causal edge: the story is its root (${labels.get(story.rootNodeId) ?? story.rootNodeId}) and the events below.`, muted: true }
      : {
          t: 'table',
          head: ['from', 'relation', 'to', 'rule', 'confidence', 'time', 'techniques'],
          rows: graph.edges.map((e) => [labels.get(e.from) ?? e.from, e.relation, labels.get(e.to) ?? e.to, e.rule, fixed(e.confidence), orDash(e.time), e.techniques.join(', ')]),
        },
  );
  if (story.chains.length > 0) {
    blocks.push({ t: 'h', level: 3, text: 'Path chains' });
    blocks.push({
      t: 'list',
      items: story.chains.map((chain) => {
        const steps = chain.map((id) => edgeById.get(id)).filter((e): e is CausalEdge => e !== undefined);
        const first = steps[0];
        if (!first) return '-';
        return [labels.get(first.from) ?? first.from, ...steps.map((e) => `-[${e.relation}]-> ${labels.get(e.to) ?? e.to}`)].join(' ');
      }),
    });
  }
  const rows = story.eventIds.map((id) => events.get(id));
  const missing = rows.filter((e) => e === undefined).length;
  blocks.push({ t: 'h', level: 3, text: 'Timeline and the events behind it' });
  blocks.push({ t: 'table', head: ['time (UTC)', 'host', 'action', 'summary', 'event id', 'loader (reliability)', 'integrity hash (SHA-256)'], rows: rows.filter((e): e is ExportedEvent => e !== undefined).map(eventRow), mono: [4, 6] });
  if (missing > 0) blocks.push({ t: 'p', text: `${missing} of the story's events are not in this export (the event limit cut them); their ids are in the JSON export.`, muted: true });
  return blocks;
}

/** The report in blocks: summary, evidence, custody, anti-forensics, each story, method notes. */
export function buildReport(view: AnalysisView, custody: CustodyView | null, meta: ReportMeta): ReportDocument {
  const events = new Map(view.events.map((e) => [e.eventId, e]));
  const top = view.stories[0]?.confidence.grade ?? null;
  const blocks: Block[] = [
    { t: 'h', level: 1, text: `Forensic case report: ${meta.title}` },
    { t: 'h', level: 2, text: 'Case summary', anchor: 'summary' },
    {
      t: 'kv',
      rows: [
        ...(meta.caseId !== undefined ? [['Case', meta.caseId] as const] : []),
        ...(meta.origin !== undefined ? [['Origin', meta.origin] as const] : []),
        ['Report written', meta.generatedAt ?? view.generatedAt],
        ['Analysis time', view.generatedAt],
        ['Written by', meta.generator],
        ['Evidence items', String(view.evidence.length)],
        ['Events analysed', String(view.counts.events)],
        ['Events filtered as noise', String(view.counts.noisy)],
        ['Graph', `${view.counts.nodes} nodes, ${view.counts.edges} causal edges`],
        ['Stories', `${view.counts.stories} (${view.stories.length} in this report)`],
        ['Highest confidence grade', top ?? '-'],
        ['Tampering', view.tampering.tampered ? `yes: ${view.tampering.indicators.length} indicators, penalty ${fixed(view.tampering.penalty)}` : 'no indicator found'],
        ['Custody ledger', custody === null ? 'not recorded' : `${custody.verification.count} records, ${custody.verification.ok ? 'verified' : 'VERIFICATION FAILED'}`],
      ],
    },
  ];
  if (view.stories.length > 0) {
    blocks.push({ t: 'table', caption: 'Stories by rank', head: ['story', 'title', 'grade', 'score', 'suspicion', 'hosts', 'techniques'], rows: view.stories.map((s) => [s.id, s.title, s.confidence.grade, fixed(s.confidence.score), fixed(s.suspicion), s.hosts.join(', '), s.techniques.map((t) => t.id).join(', ')]) });
  } else blocks.push({ t: 'p', text: 'The analysis found no story.', muted: true });

  blocks.push({ t: 'h', level: 2, text: 'Evidence inventory', anchor: 'evidence' });
  blocks.push(
    view.evidence.length === 0
      ? { t: 'p', text: 'No evidence item is recorded (a synthetic scenario).', muted: true }
      : { t: 'table', head: ['artefact', 'kind', 'SHA-256', 'bytes', 'events', 'warnings'], rows: view.evidence.map((e) => [e.path, e.kind, e.sha256, String(e.bytes), String(e.events), String(e.warnings)]), mono: [2] },
  );
  const rejected = view.rejected ?? [];
  if (rejected.length > 0) {
    blocks.push({ t: 'p', text: `${rejected.length} artefact(s) named for the case could not be analysed and gave no event; the others were analysed. Each refusal is also a custody record (artifact.rejected).` });
    blocks.push({ t: 'table', caption: 'Artefacts not analysed', head: ['artefact', 'code', 'reason'], rows: rejected.map((r) => [r.path, r.code, r.reason]) });
  }

  blocks.push({ t: 'h', level: 2, text: 'Chain of custody', anchor: 'custody' });
  if (custody === null) blocks.push({ t: 'p', text: 'No custody ledger was recorded for this analysis.', muted: true });
  else {
    const v = custody.verification;
    blocks.push({
      t: 'kv',
      rows: [
        ['Records', String(v.count)],
        ['Head (anchor this value elsewhere)', v.head],
        ['Verification', v.ok ? 'every record commits to the one before; the chain verifies' : `FAILED at record ${v.firstBroken ?? '?'}: ${v.reason ?? 'unknown reason'}`],
        ['Append-only triggers', v.missingTriggers.length === 0 ? 'present' : `missing or altered: ${v.missingTriggers.join(', ')}`],
      ],
    });
    const listed = custody.records.filter((r) => r.action !== 'ingest');
    const ingests = custody.records.length - listed.length;
    blocks.push({
      t: 'table',
      head: ['seq', 'time (UTC)', 'action', 'artefact', 'digest (SHA-256)', 'record hash'],
      rows: listed.slice(0, CUSTODY_RECORDS_LISTED).map((r) => [String(r.seq), r.time, r.action, orDash(r.artifact), r.digest, r.hash]),
      mono: [4, 5],
    });
    blocks.push({ t: 'p', text: `${ingests} ingest records (one per event: its integrity hash under its event id) are not listed; ${Math.max(0, listed.length - CUSTODY_RECORDS_LISTED)} further records are left out. GET /api/cases/{id}/custody or the ledger store holds all of them.`, muted: true });
  }

  blocks.push({ t: 'h', level: 2, text: 'Anti-forensics', anchor: 'tampering' });
  const t = view.tampering;
  blocks.push({ t: 'p', text: t.tampered ? `Tampering indicators were found; stories on affected hosts carry a penalty of ${fixed(t.penalty)} (1.00 means none, never below 0.50).` : 'No tampering indicator was found.' });
  if (t.indicators.length > 0)
    blocks.push({ t: 'table', head: ['indicator', 'severity', 'host', 'time (UTC)', 'summary', 'techniques', 'events'], rows: t.indicators.map((i) => [i.kind, i.severity, orDash(i.host), orDash(i.time), i.summary, i.techniques.join(', '), i.eventIds.join(' ')]), mono: [6] });

  blocks.push(...detectionBlocks(view.detections ?? []));
  blocks.push(...ruleProblemBlocks(view.ruleProblems ?? []));
  blocks.push(...techniqueBlocks(view));

  blocks.push(...annotationBlocks(view));

  for (const story of view.stories) blocks.push(...storyBlocks(view, story, events));

  blocks.push({ t: 'h', level: 2, text: 'Method and limits', anchor: 'method' });
  blocks.push({
    t: 'list',
    items: [
      'Every event carries an integrity hash (SHA-256 over its canonical form, bound to the raw source record); its event id is the first 16 hex characters. Ids an artefact supplies are never trusted.',
      'The confidence score combines reliability, corroboration, temporal fit and edge strength by hand-set weights, times the tampering penalty. It is not a calibrated probability; only the per-rule edge confidences are calibrated against the ground truth of the built-in scenarios.',
      'Suspicion ranks the stories (how bad); the grade says how sure the reconstruction is.',
      `This report lists the events inside its stories${view.eventsTruncated ? ', cut at the export limit' : ''}; the JSON export can include every event.`,
    ],
  });
  return { title: `Forensic case report: ${meta.title}`, blocks };
}
