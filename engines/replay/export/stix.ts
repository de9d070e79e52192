// A story as a STIX 2.1 bundle: a report, the ATT&CK attack patterns, one observed-data per alert over host and network-traffic SCOs, sightings of each technique.
import { attackPattern, bundle, identity, report, stixId, stixTimestamp, validateStixObject, type StixBundle, type StixObject } from '../../core/stix.js';
import { VitrineError } from '../../core/errors.js';
import { ipv4Number } from '../net.js';
import type { Alert, ConnectionFact, Story } from '../types.js';

/** Connections per alert written as network-traffic objects (the alert's counts keep the full number). */
export const MAX_TRAFFIC_PER_ALERT = 20;

const KILL_CHAIN = 'mitre-attack';

function ts(seconds: number): string {
  return stixTimestamp(new Date(Math.round(seconds * 1000)));
}

/** An SCO with the spec's deterministic id (UUIDv5 over its id-contributing properties). */
function sco(type: string, contributing: Record<string, unknown>, rest: Record<string, unknown> = {}): StixObject {
  return { type, spec_version: '2.1', id: stixId(type, contributing), ...contributing, ...rest };
}

function addressObject(address: string): StixObject {
  return sco(ipv4Number(address) !== undefined ? 'ipv4-addr' : 'ipv6-addr', { value: address });
}

function checked(o: StixObject): StixObject {
  const problems = validateStixObject(o);
  if (problems.length > 0) throw new VitrineError('internal', `the STIX export built an invalid ${o.type}`, { details: problems });
  return o;
}


function observedData(alert: Alert, story: Story, creator: string, hosts: Map<string, StixObject>, extra: StixObject[], connections: ReadonlyMap<string, ConnectionFact>): StixObject {
  const refs: string[] = [];
  const host = (a: string): string => {
    let o = hosts.get(a);
    if (!o) {
      o = addressObject(a);
      hosts.set(a, o);
    }
    return o.id;
  };
  refs.push(host(alert.src));
  for (const d of alert.dst) refs.push(host(d));
  for (const uid of alert.evidence.uids.slice(0, MAX_TRAFFIC_PER_ALERT)) {
    const c = connections.get(uid);
    if (!c) continue;
    const ip = ipv4Number(c.orig_h) !== undefined ? 'ipv4' : 'ipv6';
    const protocols = c.proto === 'other' ? [ip] : [ip, c.proto];
    const traffic = sco(
      'network-traffic',
      { src_ref: host(c.orig_h), dst_ref: host(c.resp_h), ...(c.proto === 'tcp' || c.proto === 'udp' ? { src_port: c.orig_p, dst_port: c.resp_p } : {}), protocols, start: ts(c.start_ts) },
      { end: ts(Math.max(c.last_ts, c.start_ts)) },
    );
    extra.push(traffic);
    refs.push(traffic.id);
  }
  return checked({
    type: 'observed-data',
    spec_version: '2.1',
    id: stixId('observed-data', { story: story.id, alert: alert.id }),
    created: stixTimestamp(story.created_at),
    modified: stixTimestamp(story.created_at),
    created_by_ref: creator,
    first_observed: ts(alert.first_ts),
    last_observed: ts(Math.max(alert.last_ts, alert.first_ts)),
    number_observed: Math.max(1, alert.evidence.uid_count),
    object_refs: [...new Set(refs)],
    labels: [alert.rule, alert.stage, alert.severity],
    description: `${alert.title}. ${alert.summary}`,
  });
}

/** The story as a valid STIX 2.1 bundle; the same story always gives the same ids. */
export function storyToStix(story: Story): StixBundle {
  const created = story.created_at;
  const creator = identity({ name: 'Vitrine capture replay', identity_class: 'system' }, { created: '2024-01-01T00:00:00.000Z' });
  const patterns = new Map<string, StixObject>();
  for (const t of story.techniques) {
    // Ids outside ATT&CK's form (a local list's own) stay out of the technique objects.
    if (!/^T\d{4}(\.\d{3})?$/.test(t.id)) continue;
    patterns.set(t.id, attackPattern({ name: t.name, mitre_id: t.id, kill_chain_phases: [{ kill_chain_name: KILL_CHAIN, phase_name: t.tactic }] }, { created, created_by_ref: creator.id }));
  }
  const hosts = new Map<string, StixObject>();
  const scos: StixObject[] = [];
  const observed: StixObject[] = [];
  const sightings: StixObject[] = [];
  const connections = new Map(story.connections.map((c) => [c.uid, c]));
  for (const alert of story.alerts) {
    const od = observedData(alert, story, creator.id, hosts, scos, connections);
    observed.push(od);
    for (const t of alert.techniques) {
      const ap = patterns.get(t);
      if (!ap) continue;
      sightings.push(
        checked({
          type: 'sighting',
          spec_version: '2.1',
          id: stixId('sighting', { story: story.id, alert: alert.id, technique: t }),
          created: stixTimestamp(created),
          modified: stixTimestamp(created),
          created_by_ref: creator.id,
          sighting_of_ref: ap.id,
          observed_data_refs: [od.id],
          where_sighted_refs: [creator.id],
          first_seen: ts(alert.first_ts),
          last_seen: ts(Math.max(alert.last_ts, alert.first_ts)),
          count: Math.max(1, alert.evidence.uid_count),
          description: alert.summary,
        }),
      );
    }
  }
  const contents = [...patterns.values(), ...observed, ...sightings, ...hosts.values(), ...scos];
  const story_report = report(
    {
      name: story.title,
      published: created,
      report_types: ['attack-pattern', 'observed-data'],
      object_refs: [creator.id, ...contents.map((o) => o.id)],
      description: `${story.summary} Severity ${story.severity} (score ${story.score}); stages ${story.stages.join(', ')}. Source capture ${story.source.name} (SHA-256 ${story.source.sha256}).`,
    },
    { created, created_by_ref: creator.id, labels: [story.severity, ...story.stages], external_references: [{ source_name: 'vitrine-replay', external_id: story.id, description: `story ${story.ordinal} of analysis ${story.analysis_id}` }] },
  );
  return bundle([creator, story_report, ...contents]);
}
