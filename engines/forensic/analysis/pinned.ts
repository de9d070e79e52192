// Pinned outputs of the analysis on corpus files: counts and digests of every event, node, edge, story and detection, so a
// change made for speed that alters any output fails its test (pinned.test.ts; the figures live in testdata/pinned-outputs.json).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sha256Hex } from '../../core/canonical.js';
import { ingestArtifact } from '../ingest.js';
import { analyzePaths } from './analyze.js';

const here = path.dirname(fileURLToPath(import.meta.url));
export const CORPORA = path.resolve(here, '..', '..', '..', '..', 'shared', 'corpora');
export const PINNED_FILE = path.join(here, '..', 'testdata', 'pinned-outputs.json');

/** What is pinned of one case. */
export interface PinnedOutputs {
  readonly events: number;
  readonly noisy: number;
  readonly nodes: number;
  readonly edges: number;
  readonly stories: number;
  readonly detections: number | null;
  /** SHA-256 of every event's integrity hash (ingest order, artefact by artefact). */
  readonly integrityDigest: string;
  /** SHA-256 of the analysis's event ids and time texts in its order. */
  readonly eventsDigest: string;
  readonly nodesDigest: string;
  readonly edgesDigest: string;
  readonly storiesDigest: string;
  readonly detectionsDigest: string;
}

/** The cases: corpus artefacts (relative to the corpora folder) or the generated text set. */
export const PINNED_CASES: Readonly<Record<string, readonly string[]>> = {
  'evtx-sysmon': ['evtx/evtx-crate/sysmon.evtx'],
  'evtx-security': ['evtx/evtx-crate/security.evtx'],
  'evtx-attack-samples': ['evtx/attack-samples'],
  'text-loghub': ['logs/loghub/Linux/Linux_2k.log', 'logs/loghub/OpenSSH/OpenSSH_2k.log'],
  'text-generated': [],
};

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** The bench's text formats at a small size: auth.log lines and dataset JSON lines (brute forces, sudo, process trees, encoded PowerShell). */
function generateText(dir: string, n: number): string[] {
  const start = Date.UTC(2024, 0, 1);
  const auth: string[] = [];
  const half = Math.floor(n / 2);
  for (let i = 0; i < half; i++) {
    const d = new Date(start + i * 1000);
    const ts = `${MONTHS[d.getUTCMonth()] as string} ${String(d.getUTCDate()).padStart(2, ' ')} ${d.toISOString().slice(11, 19)}`;
    const k = i % 500;
    let msg: string;
    if (k < 12) msg = `sshd[${i}]: Failed password for root from 203.0.113.${i % 200} port ${40000 + k} ssh2`;
    else if (k === 12) msg = `sshd[${i}]: Accepted password for root from 203.0.113.${i % 200} port 41000 ssh2`;
    else if (k === 13) msg = 'sudo:   root : TTY=pts/0 ; PWD=/root ; USER=root ; COMMAND=/usr/sbin/useradd -m backup2';
    else if (i % 7 === 0) msg = 'sudo:   alice : TTY=pts/1 ; PWD=/home/alice ; USER=root ; COMMAND=/usr/bin/systemctl status nginx';
    else if (i % 3 === 0) msg = `CRON[${i}]: (root) CMD (cd / && run-parts --report /etc/cron.hourly)`;
    else if (i % 3 === 1) msg = `sshd[${i}]: Accepted publickey for alice from 10.0.${i % 4}.${i % 250} port ${30000 + (i % 20000)} ssh2`;
    else msg = `sshd[${i}]: pam_unix(sshd:session): session opened for user alice by (uid=0)`;
    auth.push(`${ts} srv${i % 5} ${msg}`);
  }
  writeFileSync(path.join(dir, 'auth.log'), `${auth.join('\n')}\n`);
  const ds = [JSON.stringify({ format: 'vitrine.forensic.dataset', version: 1, source: 'pinned' })];
  for (let i = 0; i < n - half; i++) {
    const pid = 1000 + i;
    const k = i % 1000;
    const image = k === 5 ? 'C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe' : k === 6 ? 'C:\\Windows\\System32\\vssadmin.exe' : i % 2 === 0 ? 'C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe' : 'C:\\Windows\\System32\\svchost.exe';
    const cmd = k === 5 ? 'powershell.exe -w hidden -enc SQBFAFgA' : k === 6 ? 'vssadmin delete shadows /all /quiet' : image;
    const time = new Date(start + i * 1000 + (i % 3) * 7).toISOString();
    const event =
      i % 4 === 3
        ? { time, host: `WS${i % 10}`, action: 'network.connect', actor: { type: 'process', name: image }, object: { type: 'network', name: `142.250.${i % 250}.${i % 200}:443` }, attributes: { eventId: 3, provider: 'Microsoft-Windows-Sysmon', data: { ProcessId: String(pid) } } }
        : { time, host: `WS${i % 10}`, action: 'process.create', actor: { type: 'process', name: 'C:\\Windows\\explorer.exe' }, object: { type: 'process', name: image }, attributes: { eventId: 1, provider: 'Microsoft-Windows-Sysmon', commandLine: cmd, pid: String(pid), ppid: String(i % 10 === 0 ? 500 : pid - 1) } };
    ds.push(JSON.stringify(event));
  }
  writeFileSync(path.join(dir, 'events.jsonl'), `${ds.join('\n')}\n`);
  return ['auth.log', 'events.jsonl'];
}

const digest = (parts: Iterable<string>): string => {
  const all: string[] = [];
  for (const p of parts) all.push(p);
  return sha256Hex(all.join('\n'));
};

/** Runs one case (the whole analysis with the default rules) and returns what is pinned of it. */
export function pinnedOutputs(name: string): PinnedOutputs {
  const files = PINNED_CASES[name];
  if (files === undefined) throw new Error(`no pinned case ${name}`);
  let root = CORPORA;
  let paths = files.map((f) => path.join(CORPORA, f));
  let tmp: string | null = null;
  if (files.length === 0) {
    tmp = mkdtempSync(path.join(tmpdir(), 'vitrine-pinned-'));
    root = tmp;
    paths = generateText(tmp, 6000).map((f) => path.join(tmp as string, f));
  }
  try {
    const hashes: string[] = [];
    for (const p of paths) {
      const options = { evidenceRoot: root, year: 2024, collectEvents: false, onEvent: (e: { integrityHash: string }) => hashes.push(e.integrityHash) };
      // A folder is its files, as analyzePaths reads it.
      if (p.endsWith('attack-samples')) {
        for (const f of ['DE_104_system_log_cleared.evtx', 'DE_1102_security_log_cleared.evtx', 'LM_Remote_Service02_7045.evtx', 'LM_WMI_4624_4688_TargetHost.evtx', 'LM_sysmon_psexec_smb_meterpreter.evtx', 'Powershell_4104_MiniDumpWriteDump_Lsass.evtx', 'exec_persist_rundll32_mshta_scheduledtask_sysmon_1_3_11.evtx', 'kerberos_pwd_spray_4771.evtx', 'sysmon_10_lsass_mimikatz_sekurlsa_logonpasswords.evtx', 'temp_scheduled_task_4698_4699.evtx'])
          ingestArtifact(path.join(p, f), options);
      } else ingestArtifact(p, options);
    }
    const a = analyzePaths(paths, { evidenceRoot: root, year: 2024 });
    const detections = a.detections;
    return {
      events: a.counts.events,
      noisy: a.counts.noisy,
      nodes: a.counts.nodes,
      edges: a.counts.edges,
      stories: a.counts.stories,
      detections: detections === null ? null : detections.count,
      integrityDigest: digest(hashes),
      eventsDigest: digest(a.events.map((e) => `${e.eventId} ${e.time.time ?? '-'} ${e.time.precision} ${e.time.source} ${e.host ?? '-'} ${e.action}`)),
      nodesDigest: digest(a.nodes.map((n) => JSON.stringify(n))),
      edgesDigest: digest(a.edges.map((e) => JSON.stringify(e))),
      storiesDigest: digest(a.stories.map((s) => JSON.stringify(s))),
      detectionsDigest: digest(detections === null ? [] : [...detections.summary().map((s) => JSON.stringify(s)), ...[...detections.eventIds()].sort()]),
    };
  } finally {
    if (tmp !== null) rmSync(tmp, { recursive: true, force: true });
  }
}
