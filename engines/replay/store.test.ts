// Migrations of the replay tables (one test per migration, as engines/core/store.ts describes) and the queries over them.
import { describe, expect, it } from 'vitest';
import { migrateTo, openMemoryStore, storeAtVersion } from '../core/store.js';
import { demo, loadIndicators } from './index.js';
import { replayService } from './service.js';
import { countAnalyses, getAnalysis, getStory, listStories, migrations, saveAnalysis } from './store.js';

const columns = (db: ReturnType<typeof openMemoryStore>, table: string): string[] => (db.prepare(`PRAGMA table_info(${table})`).all() as { name: string }[]).map((c) => c.name);

describe('migration 1: analyses', () => {
  it('creates the analyses table from an empty store', () => {
    const db = storeAtVersion('replay', migrations, 0);
    migrateTo(db, 'replay', migrations, 1);
    expect(columns(db, 'replay_analyses')).toEqual(['id', 'name', 'source', 'created_at', 'capture_sha256', 'capture_format', 'capture_bytes', 'packets', 'flows', 'alerts', 'stories', 'result_json']);
    db.close();
  });
});

describe('migration 2: stories', () => {
  it('adds the stories table; analyses stored at version 1 stay, and deleting one deletes its stories', () => {
    const db = storeAtVersion('replay', migrations, 1);
    db.prepare(
      `INSERT INTO replay_analyses (id, name, source, created_at, capture_sha256, capture_format, capture_bytes, packets, flows, alerts, stories, result_json)
       VALUES ('a1', 'old', 'file', '2024-01-01T00:00:00.000Z', ?, 'pcap', 10, 1, 1, 0, 0, '{}')`,
    ).run('0'.repeat(64));
    migrateTo(db, 'replay', migrations, 2);
    expect(db.prepare('SELECT id, name FROM replay_analyses').all()).toEqual([{ id: 'a1', name: 'old' }]);
    expect(columns(db, 'replay_stories')).toContain('story_json');
    db.prepare(
      `INSERT INTO replay_stories (id, analysis_id, ordinal, title, severity, score, attacker, host_count, alert_count, stages_json, techniques_json, first_ts, last_ts, story_json)
       VALUES ('s1', 'a1', 1, 't', 'high', 70, NULL, 2, 1, '[]', '[]', 0, 1, '{}')`,
    ).run();
    db.prepare("DELETE FROM replay_analyses WHERE id = 'a1'").run();
    expect(db.prepare('SELECT COUNT(*) AS n FROM replay_stories').get()).toEqual({ n: 0 });
    db.close();
  });
});

describe('stored analyses and stories', () => {
  const indicators = loadIndicators();
  const first = demo(0, { indicators, now: new Date('2025-01-01T00:00:00Z') }).analysis;
  const second = demo(10, { indicators, now: new Date('2025-01-02T00:00:00Z'), seed: 3 }).analysis;

  it('saves, lists newest first, reads back a story and the analysis unchanged', () => {
    const db = openMemoryStore([replayService]);
    saveAnalysis(db, first);
    saveAnalysis(db, second);
    const listed = listStories(db, { limit: 10, offset: 0 });
    expect(listed.total).toBe(2);
    expect(listed.items.map((s) => s.analysis_id)).toEqual([second.id, first.id]);
    expect(listed.items[0]).toMatchObject({ title: second.stories[0]?.title, alerts: second.stories[0]?.alerts.length, stages: ['recon', 'access', 'movement', 'action'] });
    expect(listStories(db, { limit: 10, offset: 0 }, first.id).items.map((s) => s.id)).toEqual([first.stories[0]?.id]);
    expect(listStories(db, { limit: 1, offset: 1 }).items).toHaveLength(1);
    expect(getStory(db, first.stories[0]?.id ?? '')).toEqual(first.stories[0]);
    expect(getStory(db, '00000000-0000-4000-8000-000000000000')).toBeNull();
    expect(getAnalysis(db, first.id)).toEqual(first);
    expect(countAnalyses(db)).toEqual({ analyses: 2, stories: 2 });
    db.close();
  });

  it('keeps only the newest analyses past the bound, with their stories', () => {
    const db = openMemoryStore([replayService]);
    saveAnalysis(db, first, 1);
    saveAnalysis(db, second, 1);
    expect(countAnalyses(db)).toEqual({ analyses: 1, stories: 1 });
    expect(getAnalysis(db, first.id)).toBeNull();
    db.close();
  });
});
