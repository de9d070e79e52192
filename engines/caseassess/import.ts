// A STIX 2.1 bundle as a case file: attack patterns with ATT&CK ids become techniques, malware and tools software, indicator patterns and
// observables indicators, targeted identities and locations sectors and regions; actors and campaigns are named in the description
// (the hypotheses are the knowledge graph's actors). The summary says what was mapped and what was skipped, and why.
import type { CaseFile, CaseIndicator, CaseRegion, CaseSector, CaseSoftware, CaseTechnique } from '../core/contracts/caseassess.js';
import type { FindingSource, StixImportSummary } from '../core/contracts/findings.js';
import { VitrineError } from '../core/errors.js';
import { attackIdOf, attackTechniqueId, displayName, externalIdOf, patternValues, readImportBundle, scoValue } from '../core/stix-import.js';
import type { StixObject } from '../core/stix.js';
import { MAX_ITEMS, validateCase } from './case.js';

export interface StixCase {
  readonly case: CaseFile;
  readonly summary: StixImportSummary;
}

const SKIP_REASONS: Readonly<Record<string, string>> = {
  'course-of-action': 'a defence, not an observation of the activity',
  vulnerability: 'a vulnerability is not scored against actors',
  'marking-definition': 'a data marking, not evidence',
  note: 'analyst commentary, not an observation',
  opinion: 'analyst commentary, not an observation',
  grouping: 'a container of other objects',
  'observed-data': 'observed-data wraps observables by reference; give the observables or an indicator',
  sighting: 'a sighting repeats its indicator, which is mapped itself',
  infrastructure: 'infrastructure has no case field (its observables are mapped when they are in the bundle)',
  'malware-analysis': 'an analysis result, not an observation',
  incident: 'an incident has no case field',
  'language-content': 'a translation, not evidence',
  'extension-definition': 'a schema extension, not evidence',
};

/** The bundle as a case; 422 when it is not a STIX 2.1 bundle. */
export function stixToCase(value: unknown): StixCase {
  const bundle = readImportBundle(value);
  const { tally } = bundle;
  const source: FindingSource = { service: 'stix', kind: 'bundle', id: bundle.id };
  const techniques: CaseTechnique[] = [];
  const software: CaseSoftware[] = [];
  const indicators: CaseIndicator[] = [];
  const sectors: CaseSector[] = [];
  const regions: CaseRegion[] = [];
  const seen = new Set<string>();
  const named: string[] = [];
  let report: StixObject | undefined;

  const targeted = new Set(bundle.relationships.filter((r) => r['relationship_type'] === 'targets').map((r) => String(r['target_ref'])));
  const add = <T>(list: T[], key: string, item: T, type: string, as: string, objectId: string): void => {
    if (seen.has(key)) {
      tally.skipped(type, 'the same evidence is already in the case', objectId);
      return;
    }
    if (list.length >= MAX_ITEMS) {
      tally.skipped(type, `more than ${MAX_ITEMS} items of one kind`, objectId);
      return;
    }
    seen.add(key);
    list.push(item);
    tally.mapped(type, as, objectId);
  };
  const note = (o: StixObject, extra = ''): string => `From STIX ${o.type} "${displayName(o, 120)}"${extra} in ${bundle.id}`.slice(0, 2000);
  const confidenceOf = (o: StixObject): { confidence?: number } => (typeof o['confidence'] === 'number' ? { confidence: Math.min(1, Math.max(0, o['confidence'] / 100)) } : {});

  for (const o of bundle.objects) {
    switch (o.type) {
      case 'attack-pattern': {
        const id = attackTechniqueId(o);
        if (id === undefined) {
          tally.skipped(o.type, `no ATT&CK technique id (${externalIdOf(o) !== undefined ? 'only a CAPEC or other id' : 'a name only'}): the knowledge graph scores ATT&CK techniques`, o.id);
          break;
        }
        add(techniques, `t:${id}`, { evidence_id: `T-${techniques.length + 1}`, id, note: note(o), source, ...confidenceOf(o) }, o.type, 'technique', o.id);
        break;
      }
      case 'malware':
      case 'tool': {
        const sid = attackIdOf(o);
        const name = displayName(o);
        if (name === o.type && sid === undefined) {
          tally.skipped(o.type, 'no name and no ATT&CK software id', o.id);
          break;
        }
        const item: CaseSoftware = /^S\d{4}$/.test(sid ?? '')
          ? { evidence_id: `S-${software.length + 1}`, id: sid!, note: note(o), source }
          : { evidence_id: `S-${software.length + 1}`, name, note: note(o), source };
        add(software, `s:${(sid ?? name).toLowerCase()}`, item, o.type, 'software', o.id);
        break;
      }
      case 'indicator': {
        const p = patternValues(String(o['pattern']), String(o['pattern_type']));
        if (p.values.length === 0) {
          tally.skipped(o.type, 'its pattern compares no plain observable value (regular expressions, certificates, pattern languages other than STIX)', o.id);
          break;
        }
        for (const v of p.values)
          add(indicators, `i:${v.type}:${v.value.toLowerCase()}`, { evidence_id: `I-${indicators.length + 1}`, type: v.type, value: v.value, note: note(o), source, ...confidenceOf(o) }, o.type, 'indicator', o.id);
        if (p.unsupported > 0) tally.skipped('indicator', 'pattern comparisons without a plain value (MATCHES, LIKE, !=) or on properties no indicator type holds', o.id);
        break;
      }
      case 'identity': {
        const list = Array.isArray(o['sectors']) ? (o['sectors'] as unknown[]).filter((s): s is string => typeof s === 'string' && s !== '') : [];
        if (!targeted.has(o.id) || list.length === 0) {
          tally.skipped(o.type, 'not a targeted organisation with sectors (authors, people, attributions)', o.id);
          break;
        }
        for (const s of list) add(sectors, `sector:${s}`, { evidence_id: `SEC-${sectors.length + 1}`, name: s.slice(0, 200), note: note(o, ' (targeted)'), source }, o.type, 'sector of the victim', o.id);
        break;
      }
      case 'location': {
        const name = [o['country'], o['region'], o['name']].find((x): x is string => typeof x === 'string' && x !== '');
        if (!targeted.has(o.id) || name === undefined) {
          tally.skipped(o.type, 'not a targeted location with a country, region or name', o.id);
          break;
        }
        add(regions, `region:${name.toLowerCase()}`, { evidence_id: `R-${regions.length + 1}`, name: name.slice(0, 200), note: note(o, ' (targeted)'), source }, o.type, 'region of the victim', o.id);
        break;
      }
      case 'intrusion-set':
      case 'threat-actor':
      case 'campaign': {
        const aliases = Array.isArray(o['aliases']) ? (o['aliases'] as unknown[]).filter((a): a is string => typeof a === 'string' && a !== displayName(o)).slice(0, 5) : [];
        const gid = attackIdOf(o);
        named.push(`${o.type} ${displayName(o, 100)}${gid !== undefined ? ` (${gid})` : ''}${aliases.length > 0 ? ` aka ${aliases.join(', ')}` : ''}`);
        tally.mapped(o.type, 'named in the case description (the hypotheses are the knowledge graph\u2019s actors)', o.id);
        break;
      }
      case 'report':
        if (report === undefined) {
          report = o;
          tally.mapped(o.type, 'case title and description', o.id);
        } else tally.skipped(o.type, 'only the first report names the case', o.id);
        break;
      case 'relationship':
        if (o['relationship_type'] === 'targets' && ['identity', 'location'].includes(bundle.byId.get(String(o['target_ref']))?.type ?? '')) tally.mapped(o.type, 'marks the victim (sector, region)', o.id);
        else tally.skipped(o.type, `"${String(o['relationship_type']).slice(0, 40)}" links are not scored: the knowledge graph links actors to techniques and software`, o.id);
        break;
      default: {
        const v = scoValue(o);
        if (v !== undefined) add(indicators, `i:${v.type}:${v.value.toLowerCase()}`, { evidence_id: `I-${indicators.length + 1}`, type: v.type, value: v.value, note: `From STIX ${o.type} in ${bundle.id}`, source }, o.type, 'indicator', o.id);
        else tally.skipped(o.type, SKIP_REASONS[o.type] ?? 'no case field holds this type', o.id);
      }
    }
  }

  const short = bundle.id.slice('bundle--'.length, 'bundle--'.length + 8);
  const reportName = report !== undefined ? displayName(report, 400) : undefined;
  const reportText = report !== undefined && typeof report['description'] === 'string' ? report['description'].slice(0, 8000) : undefined;
  const description = [
    `Imported from STIX 2.1 bundle ${bundle.id}.`,
    ...(reportText !== undefined ? ['', reportText] : []),
    ...(named.length > 0 ? ['', 'Named in the bundle:', ...named.slice(0, 100).map((n) => `- ${n}`)] : []),
  ]
    .join('\n')
    .slice(0, 20_000);
  if (techniques.length + software.length + indicators.length + sectors.length + regions.length === 0)
    throw new VitrineError(
      'validation_failed',
      'nothing in the bundle can be evidence of a case (no attack pattern with an ATT&CK id, malware or tool, indicator with a plain value, observable, or targeted sector or region)',
    );
  const kase: CaseFile = {
    case_id: `stix-${short}`,
    title: reportName ?? `STIX bundle ${short}`,
    description,
    ...(techniques.length > 0 ? { techniques } : {}),
    ...(software.length > 0 ? { software } : {}),
    ...(indicators.length > 0 ? { indicators } : {}),
    ...(sectors.length > 0 ? { sectors } : {}),
    ...(regions.length > 0 ? { regions } : {}),
  };
  return { case: validateCase(kase), summary: tally.summary(bundle.id, bundle.count) };
}
