// The alert and flow browsers: the protocol breakdown and timeline on corpus traces, migration 3, and the read routes with their filters, sorts, pages and refusals.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listen, type Listening } from '../../core/http/server.js';
import { migrateTo, openMemoryStore, storeAtVersion } from '../../core/store.js';
import { analyzeFile } from '../analyze.js';
import { corpusFile, pcapCorpusAvailable } from '../capture/capture.fixture.js';
import { createStandaloneApp } from '../http.js';
import { demo, loadIndicators } from '../index.js';
import { alertRowSchema, analysisDetailSchema, analysisSummarySchema, errorBodySchema, flowPageSchema, pageOf } from '../schemas.js';
import { replayService } from '../service.js';
import { migrations, saveAnalysis } from '../store.js';
import type { AlertPage, FlowPage } from '../types.js';
import { appName, bucketWidth, captureOverview, isFlowTable, MAX_PROTOCOLS } from './overview.js';
import { listAnalyses, queryAlerts, queryFlows } from './store.js';

describe('protocol breakdown and capture timeline', () => {
  it('names a flow by its first service, else transport/port, else transport', () => {
    expect(appName({ service: ['ssl'], proto: 'tcp', respP: 443 })).toBe('ssl');
    expect(appName({ service: [], proto: 'tcp', respP: 445 })).toBe('tcp/445');
    expect(appName({ service: [], proto: 'icmp', respP: 0 })).toBe('icmp');
  });

  it('picks round bucket widths giving at most 120 buckets', () => {
    expect(bucketWidth(60)).toBe(0.5);
    expect(bucketWidth(3600)).toBe(50);
    expect(bucketWidth(0)).toBeGreaterThan(0);
    for (const span of [0.01, 1, 37, 1080, 86_400 * 3]) expect(span / bucketWidth(span)).toBeLessThanOrEqual(120);
  });

  it.skipIf(!pcapCorpusAvailable())('adds up to the capture on ftp-bruteforce and wikipedia: every flow, packet, byte and alert counted once', async () => {
    for (const name of ['ftp-bruteforce.pcap', 'wikipedia.pcap']) {
      const a = await analyzeFile(corpusFile(name), { name, flowTable: true });
      const o = a.overview;
      expect(o).toBeDefined();
      if (!o) continue;
      const flows = a.flow_table ?? [];
      expect(flows).toHaveLength(a.capture.connections);
      expect(isFlowTable(flows)).toBe(true);
      expect(o.protocols.reduce((n, p) => n + p.flows, 0)).toBe(a.capture.connections);
      expect(o.protocols.length).toBeLessThanOrEqual(MAX_PROTOCOLS);
      const bytes = flows.reduce((n, t) => n + t[13] + t[14], 0);
      expect(o.protocols.reduce((n, p) => n + p.bytes, 0)).toBe(bytes);
      expect(o.timeline.buckets.reduce((n, b) => n + b.flows, 0)).toBe(a.capture.connections);
      expect(o.timeline.buckets.reduce((n, b) => n + b.alerts, 0)).toBe(a.alerts.length);
      // Bytes are spread over each flow's life and rounded per bucket.
      expect(Math.abs(o.timeline.buckets.reduce((n, b) => n + b.bytes, 0) - bytes)).toBeLessThanOrEqual(o.timeline.buckets.length);
      expect(o.timeline.start).toBeLessThanOrEqual(a.capture.first_ts ?? 0);
    }
    const ftp = await analyzeFile(corpusFile('ftp-bruteforce.pcap'));
    expect(ftp.overview?.protocols[0]?.name).toBe('ftp');
    expect('flow_table' in ftp).toBe(false);
  });

  it('has an empty timeline for a capture with no packets and refuses malformed flow tables', () => {
    expect(captureOverview([], [], null, null)).toEqual({ protocols: [], timeline: { start: null, bucket_s: 0, buckets: [] } });
    expect(isFlowTable([['C1']])).toBe(false);
    expect(isFlowTable('x')).toBe(false);
    expect(isFlowTable([['C1', 'tcp', 'http', '10.0.0.1', 1, '10.0.0.2', 80, 0, 1, 'SF', 'http', 1, 1, 1, 1, 0]])).toBe(false);
    expect(isFlowTable([['C1', 'tcp', 'http', '10.0.0.1', 1, '10.0.0.2', 80, 0, 1, 'SF', ['http'], 1, 1, 1, 1, 0]])).toBe(true);
  });
});

describe('migration 3: alerts and flows', () => {
  it('adds the tables and fills in the alerts of analyses stored before it, with their stories', () => {
    const analysis = demo(0, { indicators: loadIndicators(), now: new Date('2025-01-01T00:00:00Z') }).analysis;
    const db = storeAtVersion('replay', migrations, 2);
    // As saveAnalysis wrote it at version 2.
    const { stories, ...rest } = analysis;
    db.prepare(
      `INSERT INTO replay_analyses (id, name, source, created_at, capture_sha256, capture_format, capture_bytes, packets, flows, alerts, stories, result_json)
       VALUES (?, 'old', 'demo', ?, ?, 'pcap', 10, 1, 1, ?, ?, ?)`,
    ).run(analysis.id, analysis.created_at, '0'.repeat(64), analysis.alerts.length, stories.length, JSON.stringify({ ...rest, story_ids: stories.map((s) => s.id) }));
    for (const s of stories) {
      db.prepare(
        `INSERT INTO replay_stories (id, analysis_id, ordinal, title, severity, score, attacker, host_count, alert_count, stages_json, techniques_json, first_ts, last_ts, story_json)
         VALUES (?, ?, ?, 't', 'high', 70, NULL, 2, 1, '[]', '[]', 0, 1, ?)`,
      ).run(s.id, analysis.id, s.ordinal, JSON.stringify(s));
    }
    migrateTo(db, 'replay', migrations, 3);
    const all = queryAlerts(db, analysis.id, { sort: 'time', order: 'asc', limit: 500, offset: 0 });
    expect(all.total).toBe(analysis.alerts.length);
    expect(all.items.filter((a) => a.story_id === stories[0]?.id)).toHaveLength(stories[0]?.alerts.length ?? -1);
    expect(listAnalyses(db, { limit: 5, offset: 0 }).items[0]).toMatchObject({ id: analysis.id, flows_stored: 0 });
    expect(queryFlows(db, analysis.id, { sort: 'time', order: 'asc', limit: 5, offset: 0 }).total).toBe(0);
    db.prepare('DELETE FROM replay_analyses').run();
    expect(db.prepare('SELECT COUNT(*) AS n FROM replay_alerts').get()).toEqual({ n: 0 });
    db.close();
  });

  it('keeps flow rows for the newest analyses only', () => {
    const db = openMemoryStore([replayService]);
    const made = [1, 2, 3].map((day) => demo(0, { indicators: loadIndicators(), flowTable: true, now: new Date(`2025-01-0${day}T00:00:00Z`), seed: day }).analysis);
    for (const a of made) {
      saveAnalysis(db, a);
    }
    expect(listAnalyses(db, { limit: 5, offset: 0 }).items.every((a) => a.flows_stored === a.flows)).toBe(true);
    // Flows kept for 2 analyses: the two oldest lose their rows, not their alerts.
    saveAnalysis(db, demo(0, { indicators: loadIndicators(), flowTable: true, now: new Date('2025-01-04T00:00:00Z'), seed: 4 }).analysis, 200, 2);
    const listed = listAnalyses(db, { limit: 5, offset: 0 }).items;
    expect(listed).toHaveLength(4);
    expect(listed.map((a) => a.flows_stored > 0)).toEqual([true, true, false, false]);
    const oldest = made[0]?.id ?? '';
    expect(queryFlows(db, oldest, { sort: 'time', order: 'asc', limit: 5, offset: 0 }).total).toBe(0);
    expect(queryAlerts(db, oldest, { sort: 'time', order: 'asc', limit: 500, offset: 0 }).total).toBe(made[0]?.alerts.length);
    db.close();
  });
});

describe.skipIf(!pcapCorpusAvailable())('read routes over corpus captures', () => {
  const uploadDir = mkdtempSync(path.join(tmpdir(), 'replay-browse-'));
  let server: Listening;
  const url = (p: string): string => `${server.url}${p}`;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    server = await listen(createStandaloneApp({ uploadDir }), { port: 0 });
    for (const name of ['ftp-bruteforce.pcap', 'vnc-scanner.pcap', 'wikipedia.pcap']) {
      const res = await fetch(url(`/api/analyze?name=${name}`), { method: 'POST', headers: { 'content-type': 'application/octet-stream' }, body: readFileSync(corpusFile(name)) });
      expect(res.status).toBe(200);
      const body = (await res.json()) as Record<string, unknown>;
      // The flow rows are stored, never sent with the analysis.
      expect(body['flow_table']).toBeUndefined();
      expect(body['overview']).toBeDefined();
      ids[name] = String(body['id']);
    }
  }, 60_000);
  afterAll(async () => {
    await server.close();
    rmSync(uploadDir, { recursive: true, force: true });
  });

  const json = async <T>(p: string): Promise<T> => {
    const res = await fetch(url(p));
    expect(res.status).toBe(200);
    return (await res.json()) as T;
  };

  it('lists the analyses newest first and serves one without its alert and story bodies', async () => {
    const page = pageOf(analysisSummarySchema).parse(await json('/api/analyses'));
    expect(page.items.map((a) => a.name)).toEqual(['wikipedia.pcap', 'vnc-scanner.pcap', 'ftp-bruteforce.pcap']);
    expect(page.items[0]).toMatchObject({ flows: 34, flows_stored: 34 });
    const detail = analysisDetailSchema.parse(await json(`/api/analyses/${ids['ftp-bruteforce.pcap']}`));
    expect(detail.story_ids).toHaveLength(1);
    expect(detail.overview?.protocols[0]?.name).toBe('ftp');
    expect('alerts' in detail).toBe(false);
  });

  it('reaches every alert, those in no story included, with filters', async () => {
    const vnc = pageOf(alertRowSchema).parse(await json(`/api/analyses/${ids['vnc-scanner.pcap']}/alerts`));
    // vnc-scanner: one low alert and no story; the alert table still has it.
    expect(vnc.total).toBe(1);
    expect(vnc.items[0]).toMatchObject({ rule: 'vnc_auth_failure', severity: 'low', story_id: null, story_ordinal: null });
    const ftpId = ids['ftp-bruteforce.pcap'] ?? '';
    const all = await json<AlertPage>(`/api/analyses/${ftpId}/alerts`);
    expect(all.total).toBe(2);
    expect(all.items.every((a) => a.story_ordinal === 1)).toBe(true);
    expect((await json<AlertPage>(`/api/analyses/${ftpId}/alerts?severity=low`)).items.map((a) => a.rule)).toEqual(['cleartext_credentials']);
    expect((await json<AlertPage>(`/api/analyses/${ftpId}/alerts?rule=ftp_bruteforce,port_scan`)).total).toBe(1);
    expect((await json<AlertPage>(`/api/analyses/${ftpId}/alerts?host=192.168.56.1`)).total).toBe(2);
    // A partial address is not an address: 400, as on the flows.
    for (const h of ['192.168.56', 'abc', 'notanip']) expect((await fetch(url(`/api/analyses/${ftpId}/alerts?host=${h}`))).status, h).toBe(400);
    expect((await json<AlertPage>(`/api/analyses/${ftpId}/alerts?host=10.9.9.9`)).total).toBe(0);
    expect((await json<AlertPage>(`/api/analyses/${ftpId}/alerts?in_story=none`)).total).toBe(0);
    expect((await json<AlertPage>(`/api/analyses/${ftpId}/alerts?to=1`)).total).toBe(0);
    const bySeverity = await json<AlertPage>(`/api/analyses/${ftpId}/alerts?sort=severity&order=desc`);
    expect(bySeverity.items.map((a) => a.severity)).toEqual(['high', 'low']);
    expect((await json<AlertPage>(`/api/analyses/${ftpId}/alerts?limit=1&offset=1`)).items).toHaveLength(1);
  });

  it('pages, sorts and filters the flows by host, port and protocol', async () => {
    const id = ids['wikipedia.pcap'] ?? '';
    const first = flowPageSchema.parse(await json(`/api/analyses/${id}/flows?limit=10`));
    expect(first).toMatchObject({ total: 34, flows: 34, flows_stored: 34, limit: 10, offset: 0 });
    expect(first.items.map((f) => f.n)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    const rest = await json<FlowPage>(`/api/analyses/${id}/flows?limit=500&offset=10`);
    expect(rest.items).toHaveLength(24);
    const byBytes = await json<FlowPage>(`/api/analyses/${id}/flows?sort=bytes&order=desc&limit=500`);
    const sizes = byBytes.items.map((f) => f.orig_bytes + f.resp_bytes);
    expect(sizes).toEqual([...sizes].sort((a, b) => b - a));
    const dns = await json<FlowPage>(`/api/analyses/${id}/flows?protocol=dns&limit=500`);
    expect(dns.total).toBeGreaterThan(0);
    expect(dns.items.every((f) => f.app === 'dns')).toBe(true);
    const udp = await json<FlowPage>(`/api/analyses/${id}/flows?protocol=UDP&limit=500`);
    expect(udp.items.every((f) => f.proto === 'udp')).toBe(true);
    const port80 = await json<FlowPage>(`/api/analyses/${id}/flows?port=80&limit=500`);
    expect(port80.total).toBeGreaterThan(0);
    expect(port80.items.every((f) => f.resp_p === 80 || f.orig_p === 80)).toBe(true);
    const host = port80.items[0]?.resp_h ?? '';
    const byHost = await json<FlowPage>(`/api/analyses/${id}/flows?host=${encodeURIComponent(host)}&limit=500`);
    expect(byHost.items.every((f) => f.orig_h === host || f.resp_h === host)).toBe(true);
    const late = await json<FlowPage>(`/api/analyses/${id}/flows?from=${(first.items[9]?.start_ts ?? 0) + 0.000001}&limit=500`);
    expect(late.total).toBeLessThan(34);
  });

  it('refuses bad queries without echoing them and unknown analyses with 404', async () => {
    expect.hasAssertions();
    const id = ids['wikipedia.pcap'] ?? '';
    for (const q of ['host=abc', 'host=10.0.0', 'host=notanip', 'host=1.2.3.4.5', 'host=%3A%3A%3A', 'sort=evil', 'port=70000', 'host=a%20b%3Bdrop', 'protocol=%3Cscript%3E', 'limit=0', 'from=x', 'severity=urgent', 'rule=not_a_rule']) {
      const kind = q.startsWith('severity') || q.startsWith('rule') ? 'alerts' : 'flows';
      const res = await fetch(url(`/api/analyses/${id}/${kind}?${q}`));
      expect(res.status, q).toBe(400);
      const text = await res.text();
      expect(errorBodySchema.parse(JSON.parse(text)).error.code).toBe('bad_request');
      expect(text).not.toContain('script');
      expect(text).not.toContain('drop');
    }
    for (const p of ['/api/analyses/00000000-0000-4000-8000-000000000000', '/api/analyses/nope/flows', '/api/analyses/00000000-0000-4000-8000-000000000000/alerts']) {
      const res = await fetch(url(p));
      expect(res.status, p).toBe(404);
    }
  });
});
