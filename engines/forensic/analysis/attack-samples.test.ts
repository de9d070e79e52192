// Measure: on EVTX-ATTACK-SAMPLES, does a story carry the technique each file's name states?
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { analyzePaths, run } from './analyze.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..', 'shared', 'corpora', 'evtx', 'attack-samples');

/** What each file name states, as ATT&CK ids (any one of them counts: names like "psexec_smb" state both the share and the service). */
export const STATED_TECHNIQUES: Readonly<Record<string, readonly string[]>> = {
  'DE_104_system_log_cleared.evtx': ['T1685.005', 'T1070.001'],
  'DE_1102_security_log_cleared.evtx': ['T1685.005', 'T1070.001'],
  'LM_Remote_Service02_7045.evtx': ['T1569.002', 'T1021.002', 'T1543.003'],
  'LM_WMI_4624_4688_TargetHost.evtx': ['T1047'],
  'LM_sysmon_psexec_smb_meterpreter.evtx': ['T1569.002', 'T1021.002'],
  'Powershell_4104_MiniDumpWriteDump_Lsass.evtx': ['T1003.001'],
  'exec_persist_rundll32_mshta_scheduledtask_sysmon_1_3_11.evtx': ['T1218.011', 'T1218.005', 'T1053.005'],
  'kerberos_pwd_spray_4771.evtx': ['T1110.003'],
  'sysmon_10_lsass_mimikatz_sekurlsa_logonpasswords.evtx': ['T1003.001'],
  'temp_scheduled_task_4698_4699.evtx': ['T1053.005'],
};
/** Every file today; the floor keeps a regression from passing silently. */
const HIT_RATE_FLOOR = 1;

describe.skipIf(!existsSync(root))('EVTX-ATTACK-SAMPLES: stated technique carried by a story', () => {
  it('computes the table and keeps the hit rate', () => {
    const files = readdirSync(root).filter((f) => f.endsWith('.evtx')).sort();
    const rows = files.map((f) => {
      const a = analyzePaths([path.join(root, f)], { evidenceRoot: root });
      const tagged = new Set(a.stories.flatMap((s) => s.techniques.map((t) => t.id)));
      const stated = STATED_TECHNIQUES[f] ?? [];
      return { file: f, stated: stated.join('|'), hit: stated.some((t) => tagged.has(t)), stories: a.stories.length };
    });
    console.table(rows);
    const rate = rows.filter((r) => r.hit).length / rows.length;
    expect(rows.every((r) => r.stated !== '')).toBe(true);
    expect(rate).toBeGreaterThanOrEqual(HIT_RATE_FLOOR);
  });

  it('run() takes an EVTX file\'s bytes as a record and gives the same events and stories', () => {
    const file = path.join(root, 'sysmon_10_lsass_mimikatz_sekurlsa_logonpasswords.evtx');
    const byPath = analyzePaths([file], { evidenceRoot: root });
    const byBytes = run([{ kind: 'evtx', record: readFileSync(file) }]);
    expect(byBytes.events.map((e) => e.eventId)).toEqual(byPath.events.map((e) => e.eventId));
    expect(byBytes.stories.map((s) => s.techniques.map((t) => t.id))).toEqual(byPath.stories.map((s) => s.techniques.map((t) => t.id)));
    expect(byBytes.evidence[0]?.path).toBe('records:evtx');
  });
});

const laurel = path.resolve(root, '..', '..', 'logs', 'auditd-laurel');
describe.skipIf(!existsSync(laurel))('auditd (laurel corpus)', () => {
  it('a perl reverse shell run through execve is a story (T1095)', () => {
    const a = analyzePaths([path.join(laurel, 'record-perl-reverse-shell.txt')], { evidenceRoot: laurel });
    expect(a.stories[0]?.techniques.map((t) => t.id)).toContain('T1095');
  });
});
