// The `attrib` command line: --version, ach (text, --json, --stix, overrides, errors), demo, extract/attribute/cluster on TRAM reports, load-attack.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { validateStixObject } from '../core/stix.js';
import { modulesLoadedByHelp } from '../core/cli-load.fixture.js';
import { main } from './cli.js';
import { defaultResourcesDir } from './index.js';
import { corporaDir } from './kb/build.js';
import { assessmentSchema } from './schemas.js';
import { serveOnBusyPort } from '../core/cli.fixture.js';

const NOW = () => new Date('2026-05-01T12:00:00.000Z');
const CTI = path.join(corporaDir(), 'cti');
const TRAM = path.join(CTI, 'tram', 'reports');
const haveTram = existsSync(path.join(TRAM, 'StopRansomware-Royal.mjson'));
const work = mkdtempSync(path.join(tmpdir(), 'attrib-cli-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('attrib command line', () => {
  it('--version prints the version', async () => {
    const r = await main(['--version']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^attrib \d+\.\d+\.\d+\n$/);
  });

  it('ach BUNDLED_NAME prints the matrix, the scores and the conclusion', async () => {
    const r = await main(['ach', 'ransomware-hospital'], NOW);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Hypotheses (least inconsistent first)');
    expect(r.stdout).toContain('Sensitivity');
    expect(r.stdout).toContain('Conclusion');
  });

  it('ach --json with overrides records them; --stix validates', async () => {
    const r = await main(['ach', 'supply-chain-build', '--override', 'E8:H2=N', '--override', 'E4:H3=I', '--json'], NOW);
    expect(r.code).toBe(0);
    const a = assessmentSchema.parse(JSON.parse(r.stdout));
    expect(a.overrides.map((o) => `${o.evidence}:${o.hypothesis}=${o.rating}`)).toEqual(['E8:H2=N', 'E4:H3=I']);
    expect(a.overrides[0]!.at).toBe('2026-05-01T12:00:00.000Z');
    expect(a.overrides[0]!.by.length).toBeGreaterThan(0);
    const s = await main(['ach', 'supply-chain-build', '--stix'], NOW);
    expect(validateStixObject(JSON.parse(s.stdout))).toEqual([]);
  });

  it('ach SCENARIO.json reads a file; bad input exits 2 without echoing it', async () => {
    const file = path.resolve('resources/attrib-scenarios/ceremony-wiper.json');
    expect((await main(['ach', file, '--json'], NOW)).code).toBe(0);
    const bad = await main(['ach', 'ceremony-wiper', '--override', 'E1:H1=SECRETRATING'], NOW);
    expect(bad.code).toBe(2);
    expect(bad.stderr).not.toContain('SECRETRATING');
    expect((await main(['ach', 'no-such-scenario'], NOW)).code).toBe(2);
    expect((await main(['ach', path.join(work, 'missing.json')], NOW)).code).toBe(2);
    expect((await main(['ach', 'ceremony-wiper', '--json', '--stix'], NOW)).code).toBe(2);
  });

  it('demo runs every bundled scenario', async () => {
    const r = await main(['demo'], NOW);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('ceremony-wiper');
    expect(r.stdout).toContain('STIX bundle of');
  });

  it('unknown commands and options exit 2', async () => {
    expect((await main(['frobnicate'])).code).toBe(2);
    expect((await main(['ach', '--nope'])).code).toBe(2);
  });

  it('a report over 500,000 characters is invalid input: extract and attribute exit 2, as HTTP answers 413', async () => {
    const long = path.join(work, 'long.txt');
    writeFileSync(long, 'x'.repeat(500_001));
    const extract = await main(['extract', long]);
    expect(extract.code).toBe(2);
    expect(extract.stderr).toContain('longer than 500000 characters');
    const attribute = await main(['attribute', long, '--attack', path.join(defaultResourcesDir(), 'attrib', 'attack-kb.json.gz')]);
    expect(attribute.code).toBe(2);
    expect(attribute.stderr).toContain('longer than 500000 characters');
  });
});

describe.skipIf(!haveTram)('attrib command line on TRAM reports', () => {
  it('extract FILE gives spans into the report text; --navigator a 4.5 layer; --stix a valid bundle', async () => {
    const file = path.join(TRAM, 'Qakbot-ISO-delivery.mjson');
    const text = (JSON.parse(readFileSync(file, 'utf8')) as { signal: string }).signal;
    const r = await main(['extract', file]);
    expect(r.code).toBe(0);
    const e = JSON.parse(r.stdout) as { length: number; indicators: { start: number; end: number; defanged: boolean; value: string }[] };
    expect(e.length).toBe(text.length);
    expect(e.indicators.length).toBeGreaterThan(0);
    for (const i of e.indicators) if (!i.defanged) expect(text.slice(i.start, i.end).toLowerCase()).toBe(i.value.toLowerCase());
    const layer = JSON.parse((await main(['extract', file, '--navigator'])).stdout) as { versions: { layer: string } };
    expect(layer.versions.layer).toBe('4.5');
    expect(validateStixObject(JSON.parse((await main(['extract', file, '--stix'])).stdout))).toEqual([]);
  });

  it('attribute FILE --attack KB --json gives a shortlist of 8 by default', async () => {
    const r = await main(['attribute', path.join(TRAM, 'StopRansomware-Royal.mjson'), '--attack', 'resources/attrib/attack-kb.json.gz', '--json']);
    expect(r.code).toBe(0);
    expect((JSON.parse(r.stdout) as { shortlist: unknown[] }).shortlist).toHaveLength(8);
    expect((await main(['attribute', path.join(TRAM, 'StopRansomware-Royal.mjson'), '--attack', 'resources/attrib/attack-kb.json.gz', '--shortlist', '3'])).stdout).toContain('Shortlist of 3');
  });

  it('attribute text output: the header says what the percentage is, and it is the share of the score', async () => {
    const r = await main(['attribute', path.join(TRAM, 'StopRansomware-Royal.mjson'), '--attack', 'resources/attrib/attack-kb.json.gz', '--shortlist', '4']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("share of the shortlist's total score");
    expect(r.stdout).not.toContain('share of the shortlist similarity');
    const rows = [...r.stdout.matchAll(/score ([\d.]+), similarity ([\d.]+), probability ([\d.]+)%/g)].map((m) => ({ score: Number(m[1]), similarity: Number(m[2]), p: Number(m[3]) }));
    expect(rows).toHaveLength(4);
    const total = rows.reduce((s, x) => s + x.score, 0);
    for (const row of rows) expect(row.p).toBeCloseTo((row.score / total) * 100, 0);
  });

  it('cluster DIR --cypher FILE writes the clusters', async () => {
    const cypher = path.join(work, 'clusters.cypher');
    const r = await main(['cluster', TRAM, '--threshold', '0.3', '--cypher', cypher]);
    expect(r.code).toBe(0);
    expect((JSON.parse(r.stdout) as { reports: number }).reports).toBe(3);
    expect(readFileSync(cypher, 'utf8')).toContain('MERGE');
    expect((await main(['cluster', TRAM, '--threshold', '2'])).code).toBe(2);
  });
});

describe('attrib attribute: period, known infrastructure and the reasons per group', () => {
  const report = [
    'The intruders sent spearphishing attachments (T1566.001) and ran PowerShell (T1059.001) to fetch a loader.',
    'They dumped LSASS memory (T1003.001), moved laterally over SMB admin shares (T1021.002) and beaconed to 203.0.113.77 and update-check.example.net.',
  ].join(' ');
  const file = path.join(work, 'attribute-report.txt');
  writeFileSync(file, report);

  it('prints every shortlisted group with one line per reason, the infrastructure reason naming the recorded indicators', async () => {
    const infra = path.join(work, 'known-infra.json');
    writeFileSync(infra, JSON.stringify([{ group: 'G0099', indicators: ['ipv4:203.0.113.77', 'update-check.example.net'] }]));
    const r = await main(['attribute', file, '--attack', 'resources/attrib/attack-kb.json.gz', '--shortlist', '5', '--period', '2019/2021', '--known-infrastructure', infra]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^ +\+\d\.\d{3} techniques +\d+ of the report's \d+ techniques/m);
    expect(r.stdout).toMatch(/^ +\+\d\.\d{3} time +documented activity \d{4} to \d{4}/m);
    // The group the analyst recorded the two indicators for is shortlisted with the infrastructure reason, and only it.
    const infraLines = r.stdout.split('\n').filter((l) => /^ +\+\d\.\d{3} infrastructure/.test(l));
    expect(infraLines).toEqual([expect.stringContaining("2 of the report's 2 indicators recorded as this group's infrastructure: 203.0.113.77, update-check.example.net")]);
    expect(r.stdout).toMatch(/\d\. G0099 /);
    const json = JSON.parse((await main(['attribute', file, '--attack', 'resources/attrib/attack-kb.json.gz', '--known-infrastructure', infra, '--json'])).stdout) as { shortlist: { id: string; shared_infrastructure?: string[] }[] };
    expect(json.shortlist.find((c) => c.id === 'G0099')?.shared_infrastructure).toEqual(['203.0.113.77', 'update-check.example.net']);
    expect(json.shortlist.filter((c) => c.id !== 'G0099').every((c) => (c.shared_infrastructure ?? []).length === 0)).toBe(true);
  });

  it('the period moves the time part: a group documented in the period gains, the same group far from it gains nothing', async () => {
    const at = async (period: string) =>
      (JSON.parse((await main(['attribute', file, '--attack', 'resources/attrib/attack-kb.json.gz', '--shortlist', '20', '--period', period, '--json'])).stdout) as {
        shortlist: { id: string; reasons: { kind: string; contribution: number }[] }[];
      }).shortlist;
    const recent = await at('2022-01/2023-06');
    const ancient = await at('1985');
    const timeOf = (list: typeof recent, id: string) => list.find((c) => c.id === id)?.reasons.find((x) => x.kind === 'time')?.contribution;
    const shared = recent.map((c) => c.id).filter((id) => ancient.some((c) => c.id === id));
    expect(shared.length).toBeGreaterThan(0);
    expect(shared.some((id) => (timeOf(recent, id) ?? 0) > 0)).toBe(true);
    for (const id of shared) expect(timeOf(ancient, id)).toBe(0);
  });

  it('refuses a malformed period or infrastructure file with exit 2, naming the field and never the value', async () => {
    const bad = await main(['attribute', file, '--attack', 'resources/attrib/attack-kb.json.gz', '--period', 'last-spring']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).not.toContain('last-spring');
    const infra = path.join(work, 'bad-infra.json');
    writeFileSync(infra, JSON.stringify([{ group: 'APT-secret-name', indicators: ['x'] }]));
    const r = await main(['attribute', file, '--attack', 'resources/attrib/attack-kb.json.gz', '--known-infrastructure', infra]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('group');
    expect(r.stderr).not.toContain('APT-secret-name');
  });
});

describe.skipIf(!existsSync(path.join(CTI, 'attack', 'ics-attack-18.1.json')))('attrib load-attack', () => {
  it('turns an ATT&CK bundle into a knowledge-base file that extract can use', async () => {
    const out = path.join(work, 'ics_kb.json');
    const r = await main(['load-attack', path.join(CTI, 'attack', 'ics-attack-18.1.json'), '--out', out]);
    expect(r.code).toBe(0);
    const summary = JSON.parse(r.stdout) as { metadata: { counts: { techniques: number } } };
    expect(summary.metadata.counts.techniques).toBeGreaterThan(50);
    expect(existsSync(out)).toBe(true);

    // A classifier trained on that KB's procedure texts (a fifth held out), then used by extract.
    const model = path.join(work, 'ics_model.json');
    const t = await main(['train-classifier', '--attack', out, '--threshold', '0.5', '--out', model]);
    expect(t.code).toBe(0);
    const report = JSON.parse(t.stdout) as { labels: number; held_out: number; evaluation: { threshold: number; micro_f1: number; top1: { micro_f1: number } } };
    expect(report.labels).toBeGreaterThan(5);
    expect(report.held_out).toBeGreaterThan(0);
    expect(report.evaluation.threshold).toBe(0.5);
    expect(report.evaluation.top1.micro_f1).toBeGreaterThan(0);
    expect((JSON.parse(readFileSync(model, 'utf8')) as { evaluation: unknown }).evaluation).toBeDefined();
    const text = path.join(work, 'ics-report.txt');
    writeFileSync(text, 'The adversary modified the controller logic and blocked the reporting messages to the operators.');
    const e = await main(['--kb', out, 'extract', text, '--classifier', model]);
    expect(e.code).toBe(0);
    expect((await main(['train-classifier', '--attack', out, '--threshold', '1.5'])).code).toBe(2);
    expect((await main(['train-classifier'])).code).toBe(2);
  });
});

describe('attrib load-attack refuses what is not ATT&CK and names the release', () => {
  const examples = ['apt1.json', 'poisonivy.json'];
  it.skipIf(!examples.every((n) => existsSync(path.join(CTI, 'stix21-examples', n)))).each(examples)('refuses the OASIS example %s with exit 2 and writes nothing', async (name) => {
    const file = path.join(CTI, 'stix21-examples', name);
    const out = path.join(work, `not-attack-${name}`);
    const r = await main(['load-attack', file, '--out', out]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/not an ATT&CK bundle/);
    expect(r.stderr).not.toContain(CTI);
    expect(existsSync(out)).toBe(false);
  });

  it.skipIf(!existsSync(path.join(CTI, 'attack', 'enterprise-attack.json')))('gives the enterprise bundle its release from the index.json beside it', async () => {
    const out = path.join(work, 'enterprise_kb.json');
    const r = await main(['load-attack', path.join(CTI, 'attack', 'enterprise-attack.json'), '--out', out]);
    expect(r.code).toBe(0);
    expect((JSON.parse(r.stdout) as { metadata: { attack_version: string | null } }).metadata.attack_version).toBe('18.1');
  });
});

describe('attrib serve on a busy port', () => {
  it('says the port is in use instead of "internal error"', async () => {
    const r = await serveOnBusyPort(main);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('attrib: the port is in use');
    expect(r.stderr).not.toContain('internal error');
  });
});

describe('attrib --help loads only the command line', { timeout: 180_000 }, () => {
  it('answers --help without loading the engines, the knowledge base, the HTTP app, the server or the store', () => {
    const { code, modules } = modulesLoadedByHelp('engines/attrib/cli.ts');
    expect(code).toBe(0);
    for (const heavy of ['engines/attrib/cli-commands.ts', 'engines/attrib/analysis.ts', 'engines/attrib/index.ts', 'engines/attrib/http.ts', 'engines/attrib/kb/kb.ts', 'engines/core/http/server.ts', 'engines/core/store.ts']) expect(modules).not.toContain(heavy);
    expect(modules.filter((m) => m.startsWith('engines/attrib/'))).toEqual(['engines/attrib/cli-meta.ts', 'engines/attrib/cli.ts', 'engines/attrib/limits.ts']);
  });
});
