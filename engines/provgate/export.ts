// Exports beyond JSON and Cypher: the OPA input document of a collection, and in-toto v1 statements (SLSA provenance v1) of verified builds.
import { eventProblem, missingStages, type CollectResult } from './collect.js';
import { isMalformed, verifyEnvelope, type LoadedEnvelope, type TrustedKeys } from './envelope.js';
import { buildPayloadSchema } from './events.js';
import { pathLabels } from './graph.js';

/** `export --format opa`: what an OPA policy needs to decide as the rules do (no graph internals). */
export function opaInput(res: CollectResult): Record<string, unknown> {
  const g = res.graph;
  return {
    rejected: res.rejected.map((r) => r.reason),
    stagesSeen: [...res.stagesSeen].sort(),
    missingStages: missingStages(res),
    findings: g.findings.map((f) => {
      const ids = g.upstreamPath(f.nodeId, 'commit') ?? [f.nodeId];
      return { id: f.id, source: f.source, severity: f.severity, cve: f.cve, reachable: f.reachable, title: f.title, evidence: f.evidence, path: pathLabels(g, ids) };
    }),
    unattributed: res.unattributed.map((u) => ({ id: u.id, cve: u.cve, package: u.package, version: u.version, source: u.source, severity: u.severity })),
  };
}

export const INTOTO_STATEMENT_TYPE = 'https://in-toto.io/Statement/v1';
export const SLSA_PROVENANCE_V1 = 'https://slsa.dev/provenance/v1';
export const BUILD_TYPE = 'https://vitrine.invalid/provgate/build/v1';

/** `export --format intoto`: one in-toto v1 statement with a SLSA provenance v1 predicate per verified build event. */
export function intotoStatements(envelopes: Iterable<LoadedEnvelope>, trusted: TrustedKeys): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (const env of envelopes) {
    if (isMalformed(env)) continue;
    let event;
    try {
      event = verifyEnvelope(env, trusted);
    } catch {
      continue; // Only verified provenance is re-stated.
    }
    if (event.stage !== 'build' || eventProblem(event) !== null) continue;
    const b = buildPayloadSchema.parse(event.payload);
    const subject: Record<string, unknown>[] = [];
    if (b.image) {
      const [alg, hex] = b.image.digest.includes(':') ? (b.image.digest.split(':', 2) as [string, string]) : ['sha256', b.image.digest];
      subject.push({ name: b.image.name ?? 'image', digest: { [alg]: hex } });
    }
    const resolvedDependencies: Record<string, unknown>[] = b.packages.map((p) => ({ uri: p.purl, name: p.name }));
    if (b.commit) resolvedDependencies.unshift({ uri: 'git+commit', digest: { gitCommit: b.commit } });
    out.push({
      _type: INTOTO_STATEMENT_TYPE,
      subject,
      predicateType: SLSA_PROVENANCE_V1,
      predicate: {
        buildDefinition: { buildType: BUILD_TYPE, externalParameters: { buildId: b.buildId }, resolvedDependencies },
        runDetails: { builder: { id: `${BUILD_TYPE}#${b.tool ?? 'unknown'}` }, metadata: { invocationId: event.runId } },
      },
    });
  }
  return out;
}
