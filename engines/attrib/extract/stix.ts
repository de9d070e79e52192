// STIX 2.1 bundle of an extraction: a report referring to an indicator per indicator (STIX patterning), a vulnerability per CVE and an attack-pattern per technique.
import type { Extraction, IndicatorSpan } from '../../core/contracts/attrib.js';
import { VitrineError } from '../../core/errors.js';
import { attackPattern, bundle, identity, indicator, report, stixId, stixTimestamp, validateStixObject, type StixBundle, type StixObject } from '../../core/stix.js';
import type { AttackKb } from '../kb/kb.js';

export interface ExtractionStixOptions {
  /** Name of the report object (default `Extraction`). */
  readonly name?: string;
  /** Creation time of every object (default now); fixed in tests for stable ids. */
  readonly created?: Date | string;
}

/** A STIX pattern string literal: backslash and quote escaped. */
function lit(value: string): string {
  return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

const HASH_NAME = { md5: 'MD5', sha1: 'SHA-1', sha256: 'SHA-256', sha512: 'SHA-512' } as const;

/** The STIX pattern of an indicator, or undefined for CVEs (they become vulnerabilities). */
export function stixPattern(i: IndicatorSpan): string | undefined {
  switch (i.type) {
    case 'ipv4':
      return `[ipv4-addr:value = ${lit(i.value)}]`;
    case 'ipv6':
      return `[ipv6-addr:value = ${lit(i.value)}]`;
    case 'domain':
      return `[domain-name:value = ${lit(i.value)}]`;
    case 'url':
      return `[url:value = ${lit(i.value)}]`;
    case 'email':
      return `[email-addr:value = ${lit(i.value)}]`;
    case 'md5':
    case 'sha1':
    case 'sha256':
    case 'sha512':
      return `[file:hashes.${lit(HASH_NAME[i.type])} = ${lit(i.value)}]`;
    case 'file_path': {
      const cut = Math.max(i.value.lastIndexOf('\\'), i.value.lastIndexOf('/'));
      const dir = cut >= 0 ? i.value.slice(0, cut + 1) : '';
      const base = cut >= 0 ? i.value.slice(cut + 1) : i.value;
      if (base === '') return `[directory:path = ${lit(i.value)}]`;
      return dir === '' ? `[file:name = ${lit(base)}]` : `[file:name = ${lit(base)} AND file:parent_directory_ref.path = ${lit(dir)}]`;
    }
    case 'registry_key':
      return `[windows-registry-key:key = ${lit(i.value)}]`;
    case 'cve':
      return undefined;
  }
}

/** The bundle; it passes engines/core/stix.ts's validator (checked before returning). */
export function extractionToStix(extraction: Extraction, kb: AttackKb, opts: ExtractionStixOptions = {}): StixBundle {
  const created = stixTimestamp(opts.created ?? new Date());
  const author = identity({ name: 'Vitrine attribution service', identity_class: 'system' }, { created });
  const common = { created, created_by_ref: author.id };
  const objects: StixObject[] = [author];
  const seen = new Set<string>();
  for (const i of extraction.indicators) {
    const key = `${i.type}:${i.value}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const pattern = stixPattern(i);
    if (pattern === undefined) {
      const vuln: StixObject = {
        type: 'vulnerability',
        spec_version: '2.1',
        id: stixId('vulnerability', { name: i.value, created_by_ref: author.id }),
        created,
        modified: created,
        created_by_ref: author.id,
        name: i.value,
        external_references: [{ source_name: 'cve', external_id: i.value }],
      };
      objects.push(vuln);
      continue;
    }
    objects.push(indicator({ pattern, pattern_type: 'stix', valid_from: created, name: `${i.type} ${i.value}`.slice(0, 300), indicator_types: ['malicious-activity'] }, common));
  }
  for (const t of extraction.technique_summary) {
    const k = kb.techniques.get(t.id);
    if (k === undefined) continue;
    objects.push(attackPattern({ name: k.name, mitre_id: k.id, kill_chain_phases: k.tactics.map((p) => ({ kill_chain_name: 'mitre-attack', phase_name: p })) }, common));
  }
  const refs = objects.filter((o) => o.id !== author.id).map((o) => o.id);
  if (refs.length === 0) refs.push(author.id);
  objects.push(report({ name: (opts.name ?? 'Extraction').slice(0, 300), published: created, object_refs: refs, report_types: ['threat-report'] }, common));
  const b = bundle(objects);
  const problems = validateStixObject(b);
  if (problems.length > 0) throw new VitrineError('internal', 'the extraction bundle did not validate', { details: problems });
  return b;
}
