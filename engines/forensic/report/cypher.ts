// The analysis as a Cypher script (spec to_cypher) on engines/core/cypher.ts, and push_neo4j through the optional official driver.
import { toCypher, type CypherEdge, type CypherNode, type CypherValue } from '../../core/cypher.js';
import { VitrineError } from '../../core/errors.js';
import type { AnalysisView } from '../../core/contracts/forensic.js';
import type { DetectionSummary } from '../analysis/detections.js';

function label(kind: string): string {
  return kind.charAt(0).toUpperCase() + kind.slice(1);
}

/** A relation as a relationship type: `created-service` becomes CREATED_SERVICE. */
export function relationType(relation: string): string {
  // Each run of other characters (underscores too) is one `_` by then, so one at each end is all there is to drop.
  const t = relation.toUpperCase().replace(/[^A-Z0-9]+/g, '_').replace(/^_|_$/g, '');
  return t === '' ? 'RELATED' : t;
}

function scalar(v: unknown): CypherValue | undefined {
  return typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v)) ? v : undefined;
}

/**
 * The view's graph as idempotent MERGE statements: provenance nodes (:ForensicNode:<Kind>), causal edges typed by
 * relation, stories (:Story)-[:INCLUDES]-> their nodes, events (:Event) linked from the nodes they support, and the
 * Sigma rules hit (:SigmaRule)-[:MATCHED]-> their exported events.
 */
export function viewToCypher(view: AnalysisView, header = 'Vitrine forensic export'): string {
  const nodes: CypherNode[] = [];
  const edges: CypherEdge[] = [];
  const nodeIds = new Set(view.nodes.map((n) => n.id));
  for (const n of view.nodes) {
    const props: Record<string, CypherValue | undefined> = { kind: n.kind, label: n.label, host: n.host ?? undefined, eventIds: [...n.eventIds], sources: n.sources.map((s) => s.source) };
    for (const [k, v] of Object.entries(n.attributes)) props[`attr_${k}`] = scalar(v);
    nodes.push({ id: n.id, labels: ['ForensicNode', label(n.kind)], properties: props });
  }
  for (const e of view.edges) {
    if (!nodeIds.has(e.from) || !nodeIds.has(e.to)) continue;
    edges.push({
      from: e.from,
      to: e.to,
      type: relationType(e.relation),
      properties: { id: e.id, rule: e.rule, relation: e.relation, confidence: e.confidence, time: e.time ?? undefined, eventIds: [...e.eventIds], techniques: [...e.techniques], stage: e.stage ?? undefined },
    });
  }
  for (const s of view.stories) {
    const id = `story:${s.id}`;
    nodes.push({
      id,
      labels: ['Story'],
      properties: {
        rank: s.rank,
        title: s.title,
        summary: s.summary,
        suspicion: s.suspicion,
        score: s.confidence.score,
        grade: s.confidence.grade,
        reliability: s.confidence.reliability,
        corroboration: s.confidence.corroboration,
        temporalFit: s.confidence.temporalFit,
        edgeStrength: s.confidence.edgeStrength,
        penalty: s.confidence.penalty,
        techniques: s.techniques.map((t) => t.id),
        stages: [...s.stages],
        hosts: [...s.hosts],
        start: s.start ?? undefined,
        end: s.end ?? undefined,
      },
    });
    for (const n of new Set([s.rootNodeId, ...s.nodeIds])) if (nodeIds.has(n)) edges.push({ from: id, to: n, type: n === s.rootNodeId ? 'ROOTED_AT' : 'INCLUDES' });
  }
  const eventIds = new Set<string>();
  for (const ev of view.events) {
    eventIds.add(ev.eventId);
    nodes.push({
      id: `event:${ev.eventId}`,
      labels: ['Event'],
      properties: { eventId: ev.eventId, integrityHash: ev.integrityHash, time: ev.time.time ?? undefined, host: ev.host ?? undefined, action: ev.action, summary: ev.summary, kind: ev.kind, loader: ev.loader, reliability: ev.reliability },
    });
  }
  for (const n of view.nodes) for (const ev of new Set(n.eventIds)) if (eventIds.has(ev)) edges.push({ from: n.id, to: `event:${ev}`, type: 'EVIDENCED_BY' });
  // Sigma rules hit, one node each with its count, linked to the exported events they matched.
  for (const d of (view as AnalysisView & { readonly detections?: readonly DetectionSummary[] }).detections ?? []) {
    const id = `sigma:${d.ruleId}`;
    nodes.push({
      id,
      labels: ['SigmaRule'],
      properties: { ruleId: d.ruleId, title: d.title, level: d.level, author: d.author ?? undefined, count: d.count, hosts: [...d.hosts], techniques: [...d.techniques], tactics: [...d.tactics], firstSeen: d.firstSeen ?? undefined, lastSeen: d.lastSeen ?? undefined },
    });
    for (const ev of d.eventIds) if (eventIds.has(ev)) edges.push({ from: id, to: `event:${ev}`, type: 'MATCHED' });
  }
  return toCypher({ nodes, edges }, { constraints: true, header });
}

/** The minimal surface of neo4j-driver this module uses (the driver is optional and loaded only when asked). */
interface Neo4jSession {
  run(query: string): Promise<unknown>;
  close(): Promise<void>;
}
interface Neo4jDriver {
  session(): Neo4jSession;
  verifyConnectivity(): Promise<unknown>;
  close(): Promise<void>;
}
interface Neo4jModule {
  driver(uri: string, auth: unknown): Neo4jDriver;
  auth: { basic(user: string, password: string): unknown };
}

function isNeo4jModule(m: unknown): m is Neo4jModule {
  const o = m as { driver?: unknown; auth?: { basic?: unknown } } | null;
  return typeof o === 'object' && o !== null && typeof o.driver === 'function' && typeof o.auth?.basic === 'function';
}

/** Loads neo4j-driver if it is installed; a clear error otherwise (it is not a dependency of Vitrine). */
export async function loadNeo4jDriver(specifier = 'neo4j-driver'): Promise<Neo4jModule> {
  let mod: unknown;
  try {
    mod = await import(specifier);
  } catch (err) {
    throw new VitrineError('unavailable', 'push_neo4j needs the optional neo4j-driver package: npm install neo4j-driver', { cause: err });
  }
  const candidate = (mod as { default?: unknown }).default ?? mod;
  if (!isNeo4jModule(candidate)) throw new VitrineError('unavailable', 'the installed neo4j-driver package does not look like the official driver');
  return candidate;
}

/**
 * spec push_neo4j: runs the Cypher export against a live graph database, statement by statement (MERGE, so a second
 * push changes nothing). Returns how many statements ran. Connection errors never echo the URI or the credentials.
 */
export async function pushNeo4jView(view: AnalysisView, uri: string, user: string, password: string, loader: () => Promise<Neo4jModule> = loadNeo4jDriver): Promise<number> {
  if (!/^(neo4j|bolt)(\+s|\+ssc)?:\/\/[^\s]+$/.test(uri)) throw new VitrineError('validation_failed', 'the Neo4j URI must start with neo4j:// or bolt://');
  const neo4j = await loader();
  const statements = viewToCypher(view)
    .split('\n')
    .filter((l) => l.trim() !== '' && !l.startsWith('//'));
  const driver = neo4j.driver(uri, neo4j.auth.basic(user, password));
  try {
    try {
      await driver.verifyConnectivity();
    } catch (err) {
      throw new VitrineError('unavailable', 'the Neo4j server could not be reached or refused the credentials', { cause: err });
    }
    const session = driver.session();
    try {
      for (const s of statements) await session.run(s.replace(/;$/, ''));
    } finally {
      await session.close();
    }
    return statements.length;
  } finally {
    await driver.close();
  }
}
