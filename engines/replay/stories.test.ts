// Story reduction on the synthetic intrusion (the attack is one causal story, benign flows make none) and on the Zeek traces.
import { describe, expect, it } from 'vitest';
import { analyzeBytes } from './analyze.js';
import { analyzeCaptureBytes } from './capture/index.js';
import { pcapCorpusAvailable } from './capture/capture.fixture.js';
import { demo, loadIndicators } from './index.js';
import { DEMO_HOSTS, intrusionPcap } from './intrusion.js';
import { analysisSchema } from './schemas.js';
import { isStory, linkAlerts, numberAlerts } from './stories.js';
import type { AlertDraft } from './detect/index.js';
import { corpusAnalysis } from './replay.fixture.js';

const indicators = loadIndicators();
const NOW = new Date('2025-03-01T12:00:00Z');
const ID = '11111111-2222-4333-8444-555555555555';

describe('the synthetic intrusion', () => {
  const withBenign = demo(600, { indicators, now: NOW, id: ID });
  const quiet = demo(0, { indicators, now: NOW, id: ID });

  it('writes a real pcap that parses back to what it generated', () => {
    const capture = analyzeCaptureBytes(withBenign.pcap);
    expect(capture.info.format).toBe('pcap');
    expect(capture.packets.total).toBe(withBenign.summary.packets);
    expect(capture.warnings).toEqual([]);
    expect(capture.connections.length).toBe(withBenign.summary.attack_flows + withBenign.summary.benign_flows);
  });

  it('the attack is one critical story: attacker first, all four stages in causal order, its techniques', () => {
    const { analysis } = withBenign;
    expect(analysisSchema.parse(analysis)).toBeTruthy();
    expect(analysis.stories).toHaveLength(1);
    const story = analysis.stories[0];
    expect(story?.attacker).toBe(DEMO_HOSTS.attacker);
    expect(story?.stages).toEqual(['recon', 'access', 'movement', 'action']);
    expect(story?.causal).toBe(true);
    expect(story?.severity).toBe('critical');
    expect(new Set(story?.alerts.map((a) => a.rule))).toEqual(
      new Set(['port_scan', 'ssh_guessing', 'lateral_movement', 'beaconing', 'dns_tunnelling', 'known_bad_indicator', 'large_outbound_transfer']),
    );
    expect(story?.techniques.map((t) => t.id)).toEqual(expect.arrayContaining(['T1046', 'T1110.001', 'T1078', 'T1021.002', 'T1021.001', 'T1071', 'T1071.004', 'T1041']));
    expect(story?.victims).toEqual(expect.arrayContaining([DEMO_HOSTS.victim, ...DEMO_HOSTS.pivots]));
    expect(story?.graph.nodes.find((n) => n.id === DEMO_HOSTS.victim)?.role).toBe('pivot');
    // The timeline replays the alerts in time order, stage never going back.
    const steps = story?.timeline ?? [];
    expect(steps.map((s) => s.step)).toEqual(steps.map((_, i) => i + 1));
    for (let i = 1; i < steps.length; i++) expect(steps[i]?.ts).toBeGreaterThanOrEqual(steps[i - 1]?.ts ?? 0);
  });

  it('benign flows produce no story, and every alert in the story cites attack connections only', () => {
    const { analysis } = withBenign;
    const attackHosts = new Set(withBenign.summary.attack_hosts);
    const story = analysis.stories[0];
    for (const host of story?.hosts ?? []) expect(attackHosts.has(host), host).toBe(true);
    for (const c of story?.connections ?? []) expect(attackHosts.has(c.orig_h) && attackHosts.has(c.resp_h), c.uid).toBe(true);
    // Benign intranet logins over HTTP Basic are alerts (low, cleartext) but no story.
    const benignAlerts = analysis.alerts.filter((a) => !attackHosts.has(a.src));
    expect(benignAlerts.length).toBeGreaterThan(0);
    expect(new Set(benignAlerts.map((a) => `${a.rule}/${a.severity}`))).toEqual(new Set(['cleartext_credentials/low']));
    // The story holds every attack flow and nothing else.
    expect(story?.stats.flows).toBe(withBenign.summary.attack_flows);
    expect(analysis.stats).toMatchObject({ flows: withBenign.summary.attack_flows + 600, stories: 1, flows_in_stories: withBenign.summary.attack_flows });
  });

  it('the same story without background, and the same ids for the same seed and analysis id', () => {
    expect(quiet.analysis.stories.map((s) => s.title)).toEqual(withBenign.analysis.stories.map((s) => s.title));
    expect(quiet.analysis.alerts.every((a) => withBenign.summary.attack_hosts.includes(a.src))).toBe(true);
    const again = demo(0, { indicators, now: NOW, id: ID });
    expect(again.pcap).toEqual(quiet.pcap);
    expect(again.analysis.stories[0]?.id).toBe(quiet.analysis.stories[0]?.id);
    expect(analyzeBytes(intrusionPcap({ benign: 0, seed: 8 }).bytes, { indicators }).capture.sha256).not.toBe(quiet.analysis.capture.sha256);
  });

  it('reduction statistics add up', () => {
    const s = withBenign.analysis.stats;
    expect(s.packets).toBe(withBenign.summary.packets);
    expect(s.alerts).toBe(withBenign.analysis.alerts.length);
    expect(s.ratios.packets_per_story).toBe(s.packets);
    expect(s.ratios.story_flow_fraction).toBeCloseTo(s.flows_in_stories / s.flows, 3);
    expect(withBenign.analysis.rules['port_scan']).toBe(1);
  });
});

function draft(p: Partial<AlertDraft> & Pick<AlertDraft, 'src' | 'stage' | 'first_ts'>): AlertDraft {
  return { rule: 'r', title: 't', summary: 's', severity: 'medium', techniques: [], dst: [], compromised: [], last_ts: p.first_ts, uids: [], packets: [], counts: {}, facts: {}, ...p };
}

describe('linking', () => {
  it('links by acting host, by pivot through a compromised host, by a shared outside destination; not across a day', () => {
    const { alerts } = numberAlerts([
      draft({ src: '203.0.113.1', stage: 'recon', first_ts: 0, dst: ['10.0.0.1'] }),
      draft({ src: '203.0.113.1', stage: 'access', first_ts: 100, dst: ['10.0.0.1'], compromised: ['10.0.0.1'] }),
      draft({ src: '10.0.0.1', stage: 'movement', first_ts: 200, dst: ['10.0.0.2'], compromised: ['10.0.0.2'] }),
      draft({ src: '10.0.0.2', stage: 'action', first_ts: 300, dst: ['198.51.100.9'] }),
      draft({ src: '10.0.0.3', stage: 'action', first_ts: 400, dst: ['198.51.100.9'] }),
      draft({ src: '10.0.0.4', stage: 'recon', first_ts: 500, dst: ['10.0.0.1'] }),
      draft({ src: '203.0.113.1', stage: 'recon', first_ts: 200_000 }),
    ]);
    const groups = linkAlerts(alerts).map((g) => g.map((i) => alerts[i]?.alert.id).sort());
    expect(groups.sort()).toEqual([['A1', 'A2', 'A3', 'A4', 'A5'], ['A6'], ['A7']].sort());
  });

  it('a lone low alert is no story; a medium one or two stages are', () => {
    const low = numberAlerts([draft({ src: 'a', stage: 'access', first_ts: 0, severity: 'low' })]).alerts.map((a) => a.alert);
    expect(isStory(low)).toBe(false);
    const lows = numberAlerts([draft({ src: 'a', stage: 'recon', first_ts: 0, severity: 'low' }), draft({ src: 'a', stage: 'access', first_ts: 1, severity: 'low' })]).alerts.map((a) => a.alert);
    expect(isStory(lows)).toBe(true);
  });
});

describe.skipIf(!pcapCorpusAvailable())('reduction on the Zeek traces', () => {
  it.each([
    ['sshguess.pcap', 1, ['ssh_guessing']],
    ['ftp-bruteforce.pcap', 1, ['cleartext_credentials', 'ftp_bruteforce']],
    ['nmap-vsn.pcap', 1, ['host_scan']],
    ['cooper-grill-dvwa.pcapng', 1, ['sql_injection']],
    ['vnc-scanner.pcap', 0, ['vnc_auth_failure']],
    ['wikipedia.pcap', 0, []],
    ['ecdhe.pcap', 0, []],
    ['get.pcap', 0, []],
    ['pcapng-multi-interface.pcapng', 0, []],
  ])('%s: %i stories from alerts of %j', async (file, stories, rules) => {
    const a = await corpusAnalysis(file);
    expect(a.stories).toHaveLength(stories);
    expect([...new Set(a.alerts.map((x) => x.rule))].sort()).toEqual(rules);
    expect(a.stats.flows).toBe(a.capture.connections);
  });
});
