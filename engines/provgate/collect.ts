// The collector: verifies every envelope (fail closed), checks each stage payload, and stitches the events into one provenance graph.
import { pep503 } from '../core/manifests/index.js';
import { issuesToDetails } from '../core/validation.js';
import { isMalformed, SignatureError, verifyEnvelope, type LoadedEnvelope, type StageEvent, type TrustedKeys } from './envelope.js';
import {
  isStage,
  PAYLOAD_SCHEMAS,
  REQUIRED_STAGES,
  type BuildPayload,
  type CommitPayload,
  type SastPayload,
  type ScanFinding,
  type ScanPayload,
  type Stage,
} from './events.js';
import { nodeId, ProvenanceGraph, type GraphNode } from './graph.js';
import { makePurl, parsePurl, purlIdentity } from './purl.js';
import type { Rejection, UnattributedFinding } from '../core/contracts/provgate.js';

export type { Rejection, UnattributedFinding } from '../core/contracts/provgate.js';

/** What collection produced: the graph, rejected envelopes, stages seen, unattributed findings, runtime facts. */
export interface CollectResult {
  readonly graph: ProvenanceGraph;
  readonly rejected: Rejection[];
  readonly stagesSeen: Set<Stage>;
  readonly unattributed: UnattributedFinding[];
  /** Container node id to the modules observed loaded in it. */
  readonly runtime: Map<string, Set<string>>;
}

export function missingStages(res: CollectResult): Stage[] {
  return REQUIRED_STAGES.filter((s) => !res.stagesSeen.has(s));
}

const ORDER: readonly Stage[] = ['commit', 'sast', 'build', 'scan'];

interface Verified {
  readonly index: number;
  readonly stage: Stage;
  readonly runId: string;
  readonly payload: CommitPayload | BuildPayload | ScanPayload | SastPayload;
}

/** What is wrong with a verified event's stage or payload (our words, with the field path), or null when it is well formed. */
export function eventProblem(event: StageEvent): string | null {
  if (!isStage(event.stage)) return 'unknown stage';
  const parsed = PAYLOAD_SCHEMAS[event.stage].safeParse(event.payload);
  if (parsed.success) return null;
  const first = issuesToDetails(parsed.error.issues)[0];
  const where = first === undefined || first.path === '' ? '' : ` at ${first.path}`;
  return `malformed ${event.stage} payload${where}: ${first?.issue ?? 'invalid'}`;
}

function checkPayload(index: number, event: StageEvent, rejected: Rejection[]): Verified | null {
  const problem = eventProblem(event);
  if (problem !== null || !isStage(event.stage)) {
    rejected.push({ index, reason: `envelope[${index}]: ${problem ?? 'unknown stage'}` });
    return null;
  }
  const payload = PAYLOAD_SCHEMAS[event.stage].parse(event.payload);
  return { index, stage: event.stage, runId: event.runId, payload };
}

/** The node id of a dependency: its purl identity (type, namespace, name, version). */
export function dependencyId(purl: string): string {
  return nodeId('dependency', purlIdentity(purl) ?? purl);
}

function commitId(sha: string): string {
  return nodeId('commit', sha.toLowerCase());
}

function normalisedName(name: string, ecosystem: string): string {
  return ecosystem === 'pypi' ? pep503(name) : name.toLowerCase();
}

class Collection {
  readonly res: CollectResult = { graph: new ProvenanceGraph(), rejected: [], stagesSeen: new Set(), unattributed: [], runtime: new Map() };
  private depIndex: Map<string, string[]> | null = null;

  private addDependency(name: string, version: string, purl: string, extra: Record<string, unknown> = {}): GraphNode {
    const parsed = parsePurl(purl);
    const ecosystem = parsed?.type ?? 'generic';
    const attrs: Record<string, unknown> = { name, version, purl, ecosystem, ...extra };
    if (ecosystem === 'pypi' && attrs['importName'] === undefined) attrs['importName'] = name.toLowerCase().replace(/-/g, '_');
    this.depIndex = null;
    return this.res.graph.addNode('dependency', dependencyId(purl), `${name}@${version}`, attrs);
  }

  commit(ev: Verified & { payload: CommitPayload }): void {
    const g = this.res.graph;
    const p = ev.payload;
    const id = commitId(p.sha);
    g.addNode('commit', id, p.sha.slice(0, 12), {
      sha: p.sha.toLowerCase(),
      author: p.author,
      timestamp: p.timestamp,
      subject: p.subject,
      pr: p.pr ?? null,
      manifest: p.manifest,
      seq: p.seq,
      runId: ev.runId,
      removed: p.removed.map((r) => `${r.name}@${r.version}`),
    });
    for (const file of p.files ?? []) {
      const fid = nodeId('file', [p.sha.toLowerCase(), file]);
      g.addNode('file', fid, file, { path: file });
      g.addEdge(id, fid, 'modifies');
    }
    for (const d of p.added) {
      const purl = d.purl !== undefined && parsePurl(d.purl) !== null ? d.purl : makePurl(d.ecosystem ?? 'pypi', d.name, d.version);
      const dep = this.addDependency(d.name, d.version, purl);
      g.addEdge(id, dep.id, 'introduced');
    }
  }

  sast(ev: Verified & { payload: SastPayload }): void {
    const g = this.res.graph;
    const p = ev.payload;
    const cid = commitId(p.commit);
    for (const f of p.findings) {
      const fid = nodeId('file', [p.commit.toLowerCase(), f.file]);
      g.addNode('file', fid, f.file, { path: f.file });
      if (g.nodes.has(cid)) g.addEdge(cid, fid, 'modifies');
      g.addFinding({
        id: `sast:${nodeId('file', [p.commit.toLowerCase(), f.file, f.rule, f.line ?? null, f.title]).slice(5)}`,
        nodeId: fid,
        source: 'sast',
        severity: f.severity,
        title: `${f.rule}: ${f.title}`,
        cve: null,
        reachable: null,
        evidence: f.line === undefined ? [] : [`line ${f.line}`],
      });
    }
  }

  build(ev: Verified & { payload: BuildPayload }): void {
    const g = this.res.graph;
    const p = ev.payload;
    const bid = nodeId('build', p.buildId);
    g.addNode('build', bid, p.buildId, { buildId: p.buildId, runId: ev.runId, tool: p.tool, commit: p.commit ?? null });
    if (p.commit) {
      const cid = commitId(p.commit);
      if (g.nodes.has(cid)) g.addEdge(cid, bid, 'built');
    }
    let target = bid;
    const layerIds = new Map<string, string>();
    if (p.image) {
      const iid = nodeId('image', p.image.digest);
      g.addNode('image', iid, p.image.name ?? p.image.digest.slice(0, 19), { digest: p.image.digest, name: p.image.name ?? null, repoDigests: p.image.repoDigests ?? [] });
      g.addEdge(bid, iid, 'produced');
      target = iid;
      for (const layer of p.layers) {
        // A layer is one node however many images share it: that is what makes a blast radius.
        const lid = nodeId('layer', layer.digest);
        layerIds.set(layer.digest, lid);
        g.addNode('layer', lid, layer.digest.slice(0, 19), { digest: layer.digest, createdBy: layer.createdBy, size: layer.size });
        g.addEdge(lid, iid, 'layer_of');
      }
    }
    for (const pkg of p.packages) {
      const dep = this.addDependency(pkg.name, pkg.version, pkg.purl, pkg.importName === undefined ? {} : { importName: pkg.importName });
      const targets = [...new Set(pkg.layers.map((l) => layerIds.get(l)).filter((l): l is string => l !== undefined))];
      for (const t of targets.length > 0 ? targets : [target]) g.addEdge(dep.id, t, 'installed_in');
    }
    for (const d of p.deployments ?? []) {
      const sid = nodeId('service', d.service);
      g.addNode('service', sid, d.service, { service: d.service });
      g.addEdge(target, sid, 'deployed_as');
      for (const c of d.containers) {
        const ctid = nodeId('container', c.id);
        g.addNode('container', ctid, c.id, { service: d.service });
        g.addEdge(sid, ctid, 'runs');
        if (c.loadedModules !== undefined) {
          let mods = this.res.runtime.get(ctid);
          if (mods === undefined) this.res.runtime.set(ctid, (mods = new Set()));
          for (const m of c.loadedModules) mods.add(m.toLowerCase());
        }
      }
    }
  }

  private index(): Map<string, string[]> {
    if (this.depIndex !== null) return this.depIndex;
    const idx = new Map<string, string[]>();
    const add = (key: string, id: string): void => {
      const list = idx.get(key);
      if (list === undefined) idx.set(key, [id]);
      else if (!list.includes(id)) list.push(id);
    };
    for (const n of this.res.graph.ofKind('dependency')) {
      const eco = String(n.attrs['ecosystem'] ?? '');
      const name = String(n.attrs['name'] ?? '');
      const version = String(n.attrs['version'] ?? '');
      add(`${eco}\u0000${normalisedName(name, eco)}\u0000${version}`, n.id);
      add(`*\u0000${name.toLowerCase()}\u0000${version}`, n.id);
    }
    return (this.depIndex = idx);
  }

  /** The dependency node of a scanner finding: by purl identity, else by a unique (ecosystem, name, version) match. */
  private match(f: ScanFinding): string | null {
    const g = this.res.graph;
    if (f.purl) {
      const id = dependencyId(f.purl);
      if (g.nodes.has(id)) return id;
    }
    const eco = f.ecosystem ?? null;
    const key = eco === null ? `*\u0000${f.package.toLowerCase()}\u0000${f.version}` : `${eco}\u0000${normalisedName(f.package, eco)}\u0000${f.version}`;
    const hits = this.index().get(key) ?? [];
    return hits.length === 1 ? (hits[0] as string) : null;
  }

  scan(ev: Verified & { payload: ScanPayload }): void {
    const g = this.res.graph;
    const p = ev.payload;
    const tool = p.tool.toLowerCase();
    for (const f of p.findings) {
      const dep = this.match(f);
      if (dep === null) {
        this.res.unattributed.push({ id: `${f.id}@${f.package}@${f.version}`, cve: f.id, package: f.package, version: f.version, ecosystem: f.ecosystem ?? null, purl: f.purl ?? null, source: tool, severity: f.severity, title: f.title });
        continue;
      }
      const evidence: string[] = [];
      if (f.fixedVersion) evidence.push(`fixed in ${f.fixedVersion}`);
      if (f.layer) evidence.push(`layer ${f.layer.slice(0, 19)}`);
      g.addFinding({ id: `${f.id}@${dep}`, nodeId: dep, source: tool, severity: f.severity, title: f.title, cve: f.id, reachable: null, evidence });
    }
  }
}

/** Verifies envelopes against the trusted keys (revoked key ids vouch for nothing) and builds the graph. Rejected envelopes add nothing. */
export function collect(envelopes: Iterable<LoadedEnvelope>, trusted: TrustedKeys, revoked?: ReadonlySet<string>): CollectResult {
  const c = new Collection();
  const verified: Verified[] = [];
  let index = 0;
  for (const env of envelopes) {
    const i = isMalformed(env) ? env.index : index;
    index++;
    if (isMalformed(env)) {
      c.res.rejected.push({ index: i, reason: `envelope[${i}]: malformed envelope (${env.issue})` });
      continue;
    }
    let event: StageEvent;
    try {
      event = verifyEnvelope(env, trusted, revoked);
    } catch (err) {
      // Any failure on one envelope fails closed for that envelope, with a reason.
      c.res.rejected.push({ index: i, reason: `envelope[${i}]: ${err instanceof SignatureError ? err.message : 'unreadable'}` });
      continue;
    }
    const v = checkPayload(i, event, c.res.rejected);
    if (v !== null) verified.push(v);
  }
  verified.sort((a, b) => ORDER.indexOf(a.stage) - ORDER.indexOf(b.stage) || a.index - b.index);
  for (const v of verified) {
    switch (v.stage) {
      case 'commit':
        c.commit(v as Verified & { payload: CommitPayload });
        break;
      case 'sast':
        c.sast(v as Verified & { payload: SastPayload });
        break;
      case 'build':
        c.build(v as Verified & { payload: BuildPayload });
        break;
      case 'scan':
        c.scan(v as Verified & { payload: ScanPayload });
        break;
    }
    c.res.stagesSeen.add(v.stage);
  }
  return c.res;
}
