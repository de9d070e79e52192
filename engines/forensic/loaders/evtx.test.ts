// The EVTX loader: record counts as GROUND_TRUTH.json expects, meaning of attack-sample ids, raw record bytes bound to each event, damage.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { corpusPath, hasCorpora } from '../../../test/corpora.js';
import { verifyEvent } from '../event.js';
import { ingestArtifact } from '../ingest.js';
import { EvtxParser, type EvtxRecord } from '../evtx/index.js';
import type { JsonRecord, JsonValue } from '../event.js';
import { attributesOf, clipData } from './evtx.js';

const corpus = hasCorpora() ? describe : describe.skip;
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function evtx(...parts: string[]): string {
  return corpusPath('evtx', ...parts);
}

corpus('evtx loader', () => {
  it('loads as many events as the ground truth has records, dirty files included', () => {
    const truth = (JSON.parse(readFileSync(evtx('GROUND_TRUTH.json'), 'utf8')) as { files: Record<string, { records_walked: number; evtx_crate_expected_ok?: number }> }).files;
    for (const name of ['evtx-crate/sample_with_a_bad_chunk_magic.evtx', 'evtx-crate/Application_no_crc32.evtx', 'attack-samples/LM_WMI_4624_4688_TargetHost.evtx']) {
      const t = truth[name] as { records_walked: number; evtx_crate_expected_ok?: number };
      const r = ingestArtifact(evtx(name), { evidenceRoot: corpusPath() });
      expect(r.artifact).toMatchObject({ kind: 'evtx', detectedBy: 'content', loader: 'evtx/1', reliability: 'B' });
      expect(r.events).toHaveLength(t.evtx_crate_expected_ok ?? t.records_walked);
    }
    const dirty = ingestArtifact(evtx('evtx-crate', 'sample_with_a_bad_chunk_magic.evtx'), { evidenceRoot: corpusPath() });
    expect(dirty.artifact.warningCounts['evtx_chunk_bad_magic']).toBeGreaterThanOrEqual(1);
  });

  it('gives well-known ids their meaning', () => {
    const cases: [string, string, string | null, string | null][] = [
      ['DE_1102_security_log_cleared.evtx', 'log.clear', 'EXAMPLE\\user01', 'Security'],
      ['DE_104_system_log_cleared.evtx', 'log.clear', 'EXAMPLE\\user01', 'System'],
      ['sysmon_10_lsass_mimikatz_sekurlsa_logonpasswords.evtx', 'process.access', null, null],
      ['temp_scheduled_task_4698_4699.evtx', 'task.create', null, null],
      ['LM_Remote_Service02_7045.evtx', 'service.install', null, null],
    ];
    for (const [file, action, actor, object] of cases) {
      const r = ingestArtifact(evtx('attack-samples', file), { evidenceRoot: corpusPath() });
      const e = r.events.find((x) => x.action === action);
      expect(e, `${file}: ${action}`).toBeDefined();
      if (actor !== null) expect(e?.actor?.name).toBe(actor);
      if (object !== null) expect(e?.object?.name).toBe(object);
    }
    const lsass = ingestArtifact(evtx('attack-samples', 'sysmon_10_lsass_mimikatz_sekurlsa_logonpasswords.evtx'), { evidenceRoot: corpusPath() }).events[0]!;
    expect(lsass.object?.name.toLowerCase()).toContain('lsass.exe');
    const logons = ingestArtifact(evtx('attack-samples', 'LM_WMI_4624_4688_TargetHost.evtx'), { evidenceRoot: corpusPath() }).events;
    const admin = logons.find((e) => e.action === 'auth.login.success' && e.actor?.name === 'EXAMPLE\\Administrator');
    expect(admin).toMatchObject({ host: 'WIN-77LTAPHIQ1R.example.corp', object: { type: 'host' }, attributes: { logonType: '3', eventId: 4624, channel: 'Security' } });
    expect(admin?.time).toMatchObject({ precision: '100ns', source: 'evtx System/TimeCreated@SystemTime' });
    expect(logons.filter((e) => e.action === 'process.create')).toHaveLength(2);
  });

  it('binds every event to its record bytes in the file', () => {
    const file = evtx('attack-samples', 'exec_persist_rundll32_mshta_scheduledtask_sysmon_1_3_11.evtx');
    const bytes = readFileSync(file);
    const r = ingestArtifact(file, { evidenceRoot: corpusPath() });
    for (const e of r.events) {
      const raw = bytes.subarray(e.raw.offset as number, (e.raw.offset as number) + (e.raw.length as number));
      expect(raw.readUInt32LE(0)).toBe(0x00002a2a);
      expect(verifyEvent(e, raw)).toBe(true);
    }
    expect(new Set(r.events.map((e) => e.eventId)).size).toBe(r.events.length);
  });

  it('keeps the complete records of a truncated copy, with warnings', () => {
    const source = readFileSync(evtx('evtx-crate', 'security.evtx'));
    const dir = mkdtempSync(path.join(tmpdir(), 'forensic-evtx-'));
    dirs.push(dir);
    writeFileSync(path.join(dir, 'cut.evtx'), source.subarray(0, 4096 + 65536 + 30000));
    const r = ingestArtifact('cut.evtx', { evidenceRoot: dir });
    expect(r.events.length).toBeGreaterThan(0);
    expect(r.artifact.warningCounts['evtx_chunk_truncated']).toBe(1);
    writeFileSync(path.join(dir, 'not.evtx'), Buffer.from('ElfFile\0 too short'));
    expect(() => ingestArtifact('not.evtx', { evidenceRoot: dir, kind: 'evtx' })).toThrow(/EVTX file header is truncated/);
  });
});

/** attributesOf as it was written before its literal fast path: every key added to `{}` in turn, nulls left out. */
function attributesByKeys(r: EvtxRecord, sid: string | null, extra: JsonRecord | undefined, data: Readonly<Record<string, JsonValue>>): JsonRecord {
  const out: Record<string, JsonValue> = {};
  if (r.eventId !== null) out['eventId'] = r.eventId;
  if (r.provider !== null) out['provider'] = r.provider;
  if (r.channel !== null) out['channel'] = r.channel;
  out['recordId'] = r.recordId;
  if (r.eventRecordId !== null) out['eventRecordId'] = r.eventRecordId;
  if (r.qualifiers !== null) out['qualifiers'] = r.qualifiers;
  if (sid !== null) out['userSid'] = sid;
  if (extra !== undefined) for (const [k, v] of Object.entries(extra)) if (v !== null && v !== undefined) out[k] = v;
  out['data'] = clipData(data);
  return out;
}

corpus('event attributes of a record', () => {
  it('have the keys, order and values of the key-by-key build, with and without a SID, qualifiers or a meaning', () => {
    let records = 0;
    let literal = 0;
    for (const dir of ['evtx-crate', 'attack-samples']) {
      for (const name of readdirSync(evtx(dir)).filter((f) => f.endsWith('.evtx'))) {
        for (const r of new EvtxParser({ json: false, data: true }).recordsFromFileSync(evtx(dir, name))) {
          const data = r.data ?? {};
          const sids = records % 8 === 0 ? [r.userSid ?? null, null, 'S-1-5-18'] : [r.userSid ?? null];
          const extras: (JsonRecord | undefined)[] = [undefined, { logonType: '3', sourceIp: null }];
          for (const sid of sids)
            for (const extra of extras) {
              for (const variant of records % 8 === 0 ? [r, { ...r, qualifiers: 16384 }, { ...r, eventRecordId: null }, { ...r, channel: null }] : [r]) {
                const got = attributesOf(variant, sid, extra, data);
                const want = attributesByKeys(variant, sid, extra, data);
                expect(Object.keys(got)).toEqual(Object.keys(want));
                expect(JSON.stringify(got)).toBe(JSON.stringify(want));
                if (extra === undefined && variant === r && r.qualifiers === null && r.eventId !== null && r.provider !== null && r.channel !== null && r.eventRecordId !== null) literal++;
              }
            }
          records++;
        }
      }
    }
    expect(records).toBeGreaterThan(6900);
    // Most corpus records take the literal.
    expect(literal).toBeGreaterThan(records / 2);
  });
});

describe('event data of a record', () => {
  it('is kept as it is when it holds no #attributes and no string past 16384 characters, else copied without them and clipped', () => {
    const plain = { SubjectUserName: 'alice', LogonType: 3, Nested: { a: 'b' } };
    expect(clipData(plain)).toBe(plain);
    const long = 'x'.repeat(20000);
    const odd = { '#attributes': { Name: 'n' }, Script: long, Short: 's' };
    const out = clipData(odd);
    expect(out).not.toBe(odd);
    expect(Object.keys(out)).toEqual(['Script', 'Short']);
    expect(out['Script']).toBe(`${long.slice(0, 16384)}…`);
    expect(out['Short']).toBe('s');
  });
});
