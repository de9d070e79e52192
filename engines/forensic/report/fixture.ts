// A realistic AnalysisView (a ransomware case on one host, plus a log-clearing intruder) for report, CLI and HTTP tests: no dependence on the analysis engine.
import { sha256Hex } from '../../core/canonical.js';
import type { AnalysisView, CausalEdge, ExportedEvent, GraphNode, Story } from '../../core/contracts/forensic.js';
import type { CustodyView } from '../../core/contracts/forensic.js';
import { CustodyLedger } from '../custody.js';

function event(n: number, time: string, host: string, action: string, summary: string, attributes: Record<string, unknown> = {}, kind = 'evtx'): ExportedEvent {
  const integrityHash = sha256Hex(`fixture-event-${n}`);
  return {
    eventId: integrityHash.slice(0, 16),
    integrityHash,
    time: { time, precision: '100ns', source: 'System/TimeCreated' },
    host,
    actor: { type: 'user', name: 'CORP\\alice' },
    action,
    object: { type: 'process', name: String(attributes['image'] ?? action) },
    summary,
    kind,
    loader: `${kind}/1`,
    reliability: 'B',
    attributes,
  };
}

/** Events of the fixture, in time order; the last one carries markup and quotes to prove escaping. */
export const FIXTURE_EVENTS: readonly ExportedEvent[] = [
  event(1, '2024-03-04T09:12:00.000Z', 'WS01', 'logon', 'User CORP\\alice logged on (type 3) from 10.0.0.9', { logonType: 3, source: '10.0.0.9' }),
  event(2, '2024-03-04T09:12:30.000Z', 'WS01', 'process-create', 'powershell.exe started by explorer.exe', { image: 'C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe', pid: 4242, commandLine: 'powershell -enc SQBFAFgA' }),
  event(3, '2024-03-04T09:13:05.000Z', 'WS01', 'file-write', 'powershell.exe wrote C:\\Users\\alice\\AppData\\Local\\Temp\\locker.exe', { image: 'locker.exe', path: 'C:\\Users\\alice\\AppData\\Local\\Temp\\locker.exe' }),
  event(4, '2024-03-04T09:13:40.000Z', 'WS01', 'process-create', 'locker.exe started by powershell.exe', { image: 'C:\\Users\\alice\\AppData\\Local\\Temp\\locker.exe', pid: 5151 }),
  event(5, '2024-03-04T09:14:00.000Z', 'WS01', 'process-create', 'vssadmin.exe delete shadows /all /quiet', { image: 'C:\\Windows\\System32\\vssadmin.exe', pid: 5200, commandLine: 'vssadmin.exe delete shadows /all /quiet' }),
  event(6, '2024-03-04T09:20:00.000Z', 'WS01', 'log-cleared', 'The Security log was cleared by CORP\\alice', { eventId: 1102 }),
  event(7, '2024-03-04T09:21:00.000Z', 'WS01', 'file-write', 'Ransom note <script>alert("x")</script> & "README" written', { image: 'locker.exe', path: 'C:\\Users\\alice\\Desktop\\README<1>.txt' }),
];

const E = FIXTURE_EVENTS.map((e) => e.eventId);
const id = (i: number): string => E[i - 1] as string;

const NODES: readonly GraphNode[] = [
  { id: 'host:WS01', kind: 'host', label: 'WS01', host: 'WS01', attributes: {}, eventIds: [id(1)], sources: [] },
  { id: 'user:CORP\\alice', kind: 'user', label: 'CORP\\alice', host: 'WS01', attributes: { sid: 'S-1-5-21-1-1001' }, eventIds: [id(1)], sources: [] },
  {
    id: 'process:WS01:4242',
    kind: 'process',
    label: 'powershell.exe',
    host: 'WS01',
    attributes: { pid: 4242, commandLine: 'powershell -enc SQBFAFgA' },
    eventIds: [id(2)],
    sources: [
      { source: 'evtx:sysmon-1', eventIds: [id(2)] },
      { source: 'evtx:security-4688', eventIds: [id(2)] },
    ],
  },
  { id: 'file:WS01:locker.exe', kind: 'file', label: 'locker.exe', host: 'WS01', attributes: { path: 'C:\\Users\\alice\\AppData\\Local\\Temp\\locker.exe' }, eventIds: [id(3)], sources: [] },
  { id: 'process:WS01:5151', kind: 'process', label: 'locker.exe', host: 'WS01', attributes: { pid: 5151 }, eventIds: [id(4)], sources: [] },
  { id: 'process:WS01:5200', kind: 'process', label: 'vssadmin.exe', host: 'WS01', attributes: { pid: 5200 }, eventIds: [id(5)], sources: [] },
  { id: 'file:WS01:README<1>.txt', kind: 'file', label: 'README<1>.txt', host: 'WS01', attributes: {}, eventIds: [id(7)], sources: [] },
];

const EDGES: readonly CausalEdge[] = [
  { id: 'e1', from: 'user:CORP\\alice', to: 'process:WS01:4242', rule: 'logon-then-activity', relation: 'logged-on', confidence: 0.82, time: '2024-03-04T09:12:00.000Z', eventIds: [id(1), id(2)], techniques: ['T1078'], stage: 'initial-access' },
  { id: 'e2', from: 'process:WS01:4242', to: 'file:WS01:locker.exe', rule: 'file-write', relation: 'wrote', confidence: 0.9, time: '2024-03-04T09:13:05.000Z', eventIds: [id(3)], techniques: ['T1105'], stage: 'execution' },
  { id: 'e3', from: 'file:WS01:locker.exe', to: 'process:WS01:5151', rule: 'write-then-execute', relation: 'executed', confidence: 0.88, time: '2024-03-04T09:13:40.000Z', eventIds: [id(3), id(4)], techniques: ['T1204.002'], stage: 'execution' },
  { id: 'e4', from: 'process:WS01:5151', to: 'process:WS01:5200', rule: 'process-spawn', relation: 'spawned', confidence: 0.95, time: '2024-03-04T09:14:00.000Z', eventIds: [id(5)], techniques: ['T1490'], stage: 'impact' },
  { id: 'e5', from: 'process:WS01:5151', to: 'file:WS01:README<1>.txt', rule: 'file-write', relation: 'wrote', confidence: 0.9, time: '2024-03-04T09:21:00.000Z', eventIds: [id(7)], techniques: ['T1486'], stage: 'impact' },
];

const STORIES: readonly Story[] = [
  {
    id: 'S1',
    rank: 1,
    title: 'Ransomware on WS01: locker.exe deletes shadow copies & writes notes',
    summary: 'CORP\\alice logged on from 10.0.0.9, ran encoded PowerShell that dropped locker.exe; locker.exe deleted shadow copies and wrote ransom notes.',
    rootNodeId: 'user:CORP\\alice',
    hosts: ['WS01'],
    start: '2024-03-04T09:12:00.000Z',
    end: '2024-03-04T09:21:00.000Z',
    suspicion: 0.96,
    confidence: { reliability: 0.85, corroboration: 0.7, temporalFit: 0.92, edgeStrength: 0.89, penalty: 0.75, score: 0.63, grade: 'MEDIUM' },
    techniques: [
      { id: 'T1078', name: 'Valid Accounts', tactics: ['initial-access', 'persistence'] },
      { id: 'T1105', name: 'Ingress Tool Transfer', tactics: ['command-and-control'] },
      { id: 'T1204.002', name: 'Malicious File', tactics: ['execution'] },
      { id: 'T1490', name: 'Inhibit System Recovery', tactics: ['impact'] },
      { id: 'T1486', name: 'Data Encrypted for Impact', tactics: ['impact'] },
    ],
    stages: ['initial-access', 'execution', 'impact'],
    nodeIds: NODES.filter((n) => n.kind !== 'host').map((n) => n.id),
    edgeIds: EDGES.map((e) => e.id),
    eventIds: [id(1), id(2), id(3), id(4), id(5), id(7)],
    chains: [
      ['e1', 'e2', 'e3', 'e4'],
      ['e1', 'e2', 'e3', 'e5'],
    ],
  },
  {
    id: 'S2',
    rank: 2,
    title: 'Security log cleared on WS01',
    summary: 'The Security event log was cleared (1102) six minutes after the shadow copies were deleted.',
    rootNodeId: 'host:WS01',
    hosts: ['WS01'],
    start: '2024-03-04T09:20:00.000Z',
    end: '2024-03-04T09:20:00.000Z',
    suspicion: 0.7,
    confidence: { reliability: 0.85, corroboration: 0.3, temporalFit: 1, edgeStrength: 0.5, penalty: 0.75, score: 0.4, grade: 'LOW' },
    techniques: [{ id: 'T1685.005', name: 'Clear Windows Event Logs', tactics: ['defense-impairment'] }],
    stages: ['defense-evasion'],
    nodeIds: ['host:WS01'],
    edgeIds: [],
    eventIds: [id(6)],
    chains: [],
  },
];

/** The fixture view, as toDict would give it for the fixture case. */
export function fixtureView(): AnalysisView {
  return {
    version: '0.1.0',
    generatedAt: '2024-03-05T08:00:00.000Z',
    counts: { events: 1200, nodes: NODES.length, edges: EDGES.length, stories: STORIES.length, indicators: 2, noisy: 340 },
    evidence: [
      { path: 'ws01/Security.evtx', kind: 'evtx', sha256: sha256Hex('Security.evtx'), bytes: 1_052_672, events: 900, warnings: 0 },
      { path: 'ws01/Sysmon.evtx', kind: 'evtx', sha256: sha256Hex('Sysmon.evtx'), bytes: 2_101_248, events: 300, warnings: 2 },
    ],
    stories: STORIES,
    nodes: NODES,
    edges: EDGES,
    tampering: {
      tampered: true,
      penalty: 0.75,
      indicators: [
        { kind: 'log-cleared', severity: 'high', summary: 'Security log cleared (1102)', host: 'WS01', time: '2024-03-04T09:20:00.000Z', eventIds: [id(6)], techniques: ['T1685.005'] },
        { kind: 'shadow-copies-deleted', severity: 'high', summary: 'vssadmin delete shadows', host: 'WS01', time: '2024-03-04T09:14:00.000Z', eventIds: [id(5)], techniques: ['T1490'] },
      ],
    },
    events: FIXTURE_EVENTS,
    eventsTruncated: false,
  };
}

/** A verified custody view over the fixture's events (case open, two acquisitions, one ingest record per event). */
export function fixtureCustody(): CustodyView {
  const at = new Date('2024-03-05T07:59:00.000Z');
  const ledger = new CustodyLedger({ actor: 'forensic 0.1.0', now: () => at });
  ledger.append({ action: 'case.open', digest: sha256Hex('case'), artifact: 'fixture' });
  for (const e of fixtureView().evidence) ledger.append({ action: 'artifact.acquire', digest: e.sha256, artifact: e.path });
  for (const e of FIXTURE_EVENTS) ledger.append({ action: 'ingest', digest: e.integrityHash, eventId: e.eventId });
  const v = ledger.verification();
  return { records: ledger.records(), verification: { ...v, missingTriggers: [] } };
}
