// Migrations of the attribution tables (one test per migration) and the TAXII object store and override log over them.
import { describe, expect, it } from 'vitest';
import { migrateTo, openMemoryStore, storeAtVersion } from '../core/store.js';
import { analyzeScenario } from './ach/engine.js';
import { parseOverride, ScenarioLibrary } from './ach/scenario.js';
import { assessmentToStix } from './ach/stix.js';
import { attribService } from './service.js';
import { logOverrides, migrations, OVERRIDE_LOG_TABLE, overrideLog } from './store.js';
import { addObjects, collectionByKey, collectionCounts, queryObjects } from './taxii/collections.js';

const columns = (db: ReturnType<typeof openMemoryStore>, table: string): string[] => (db.prepare(`PRAGMA table_info(${table})`).all() as { name: string }[]).map((c) => c.name);
const library = ScenarioLibrary.fromEnvironment(undefined, {});
const NOW = new Date('2026-05-01T12:00:00.000Z');

describe('migration 1: taxii objects', () => {
  it('creates the object table from an empty store', () => {
    const db = storeAtVersion('attrib', migrations, 0);
    migrateTo(db, 'attrib', migrations, 1);
    expect(columns(db, 'attrib_taxii_objects')).toEqual(['seq', 'collection', 'id', 'version', 'type', 'spec_version', 'date_added', 'json']);
    db.close();
  });
});

describe('migration 2: override log', () => {
  it('adds the append-only log; objects stored at version 1 stay', () => {
    const db = storeAtVersion('attrib', migrations, 1);
    const bundle = assessmentToStix(analyzeScenario(library.get('ransomware-hospital')!, { now: NOW }));
    addObjects(db, 'assessments', bundle.objects);
    migrateTo(db, 'attrib', migrations, 2);
    expect(collectionCounts(db)).toEqual({ assessments: bundle.objects.length, extractions: 0 });
    expect(columns(db, OVERRIDE_LOG_TABLE)).toEqual(['seq', 'at', 'kind', 'actor', 'payload', 'prev_hash', 'hash']);
    const a = analyzeScenario(library.get('ransomware-hospital')!, { now: NOW, analyst: 'j.doe', overrides: [parseOverride('E3:WIZARD=C')] });
    expect(logOverrides(db, a)).toBe(1);
    expect(() => db.prepare(`UPDATE ${OVERRIDE_LOG_TABLE} SET actor = 'someone else'`).run()).toThrow(/append-only/);
    expect(() => db.prepare(`DELETE FROM ${OVERRIDE_LOG_TABLE}`).run()).toThrow(/append-only/);
    expect(overrideLog(db).verify()).toMatchObject({ ok: true, count: 1 });
    db.close();
  });
});

describe('TAXII object store', () => {
  it('keeps one row per id and version, in the order added, with strictly increasing date_added', () => {
    const db = openMemoryStore([attribService]);
    const bundle = assessmentToStix(analyzeScenario(library.get('ceremony-wiper')!, { now: NOW }));
    expect(addObjects(db, 'assessments', bundle.objects)).toBe(bundle.objects.length);
    // The same bundle again adds nothing (a bundled scenario without overrides is the same every time).
    expect(addObjects(db, 'assessments', bundle.objects)).toBe(0);
    const page = queryObjects(db, collectionByKey('assessments').id, { limit: 500, offset: 0 });
    expect(page.items.map((i) => i.id)).toEqual(bundle.objects.map((o) => o.id));
    const dates = page.items.map((i) => i.date_added);
    expect([...dates].sort()).toEqual(dates);
    expect(new Set(dates).size).toBe(dates.length);
    expect(queryObjects(db, collectionByKey('extractions').id, { limit: 10, offset: 0 }).total).toBe(0);
    db.close();
  });
});
