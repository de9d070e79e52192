// Tests for the forensic command line and its ingest job: summary, custody store, refusal with exit 2, verify, failures mid-ingest.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../test/corpora.js';
import { VitrineError } from '../core/errors.js';
import { InProcessRunner } from '../core/jobs/in-process.js';
import type { JobProgress } from '../core/jobs/protocol.js';
import { main } from './cli.js';
import { exportCustody } from './custody.js';
import { loadLedger } from './custody-store.js';
import { VERSION } from './index.js';
import { REPORT_FORMATS } from './report/index.js';
import { INGEST_JOB, jobs } from './jobs.js';
import { modulesLoadedByHelp } from '../core/cli-load.fixture.js';

const examples = path.join(REPO_ROOT, 'resources', 'forensic', 'examples');
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function workspace(): { root: string; out: string } {
  const base = mkdtempSync(path.join(tmpdir(), 'forensic-cli-'));
  dirs.push(base);
  const root = path.join(base, 'evidence');
  const out = path.join(base, 'out');
  for (const d of [root, out]) mkdirSync(d);
  writeFileSync(path.join(root, 'dataset.json'), readFileSync(path.join(examples, 'dataset.json')));
  writeFileSync(path.join(root, 'preproc.tsv'), readFileSync(path.join(examples, 'preproc.tsv')));
  writeFileSync(path.join(root, 'auth.log'), 'Mar  3 10:00:01 web01 sshd[811]: Accepted publickey for alice from 192.0.2.10 port 51022 ssh2\n');
  return { root, out };
}

const clock = (): Date => new Date('2024-05-01T12:00:00.000Z');

interface Summary {
  case: string;
  artifacts: { path: string; kind?: string; events?: number; sha256?: string; warningCount?: number; error?: { code: string; message: string } }[];
  totals: { artifacts: number; events: number; warnings: number; failed: number };
  custody: { records: number; head: string; verified: boolean; store?: string };
}

describe('forensic command line', () => {
  it('prints its version and help', async () => {
    expect(await main(['--version'])).toEqual({ code: 0, stdout: `forensic ${VERSION}\n`, stderr: '' });
    const help = await main(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('forensic analyze PATH');
    // The usage line offers every format analyze takes, and each one it offers is taken.
    const offered = /\[--format ([a-z|]+)\]/.exec(help.stdout)?.[1]?.split('|') ?? [];
    expect(offered).toEqual([...REPORT_FORMATS, 'summary']);
    // Exit codes as the command behaves: a missing artefact is a failed artefact (1, the others still analysed);
    // a missing ledger, rules folder, placeholders file or evidence root is 2.
    expect(help.stdout).toMatch(/1 an artefact failed \(missing, unreadable or not a format;/);
    expect(help.stdout).toMatch(/2 invalid arguments, a missing ledger file, rules folder,\s+placeholders file or evidence root/);
    expect((await main([])).code).toBe(2);
    expect((await main(['--bogus'])).code).toBe(2);
  });

  it('analyze: loads, hashes, records custody in a new store and prints the summary', async () => {
    const { root, out } = workspace();
    const ledger = path.join(out, 'case.sqlite');
    const r = await main(['analyze', 'dataset.json', 'preproc.tsv', 'auth.log', '--ledger', ledger, '--case', 'CASE-7', '--year', '2024', '--utc-offset-hours', '1', '--format', 'summary'], { cwd: root, env: {}, now: clock });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const s = JSON.parse(r.stdout) as Summary;
    expect(s.case).toBe('CASE-7');
    expect(s.artifacts.map((a) => [a.path, a.kind, a.events])).toEqual([
      ['dataset.json', 'dataset-json', 4],
      ['preproc.tsv', 'preproc', 3],
      ['auth.log', 'authlog', 1],
    ]);
    expect(s.totals).toEqual({ artifacts: 3, events: 8, warnings: 0, failed: 0 });
    // case.open, then per artefact: acquire, one record per event, ingested.
    expect(s.custody).toMatchObject({ records: 1 + 3 * 2 + 8, verified: true, store: ledger });
    const stored = loadLedger(ledger);
    expect(stored.head).toBe(s.custody.head);
    const records = stored.records();
    expect(records.map((x) => x.action).slice(0, 3)).toEqual(['case.open', 'artifact.acquire', 'ingest']);
    expect(records[0]).toMatchObject({ artifact: 'CASE-7', time: '2024-05-01T12:00:00.000Z', actor: `forensic ${VERSION}` });
    expect(records[1]).toMatchObject({ artifact: 'dataset.json', digest: s.artifacts[0]?.sha256 });
    const verify = await main(['verify', ledger, '--expect-head', s.custody.head, '--expect-count', String(s.custody.records)], { cwd: root });
    expect(verify.code).toBe(0);
    expect(JSON.parse(verify.stdout)).toMatchObject({ source: 'store', ok: true, count: s.custody.records, missingTriggers: [] });
  });

  it("refuses a store holding another case's ledger with exit 2, before writing anything", async () => {
    const { root, out } = workspace();
    const ledger = path.join(out, 'case.sqlite');
    expect((await main(['analyze', 'auth.log', '--ledger', ledger, '--year', '2024'], { cwd: root, env: {} })).code).toBe(0);
    const before = readFileSync(ledger);
    const again = await main(['analyze', 'dataset.json', '--ledger', ledger], { cwd: root, env: {} });
    expect(again.code).toBe(2);
    expect(again.stdout).toBe('');
    expect(again.stderr).toContain("already holds another case's ledger");
    expect(again.stderr).not.toContain(ledger);
    expect(readFileSync(ledger).equals(before)).toBe(true);
    const notAStore = path.join(out, 'notes.txt');
    writeFileSync(notAStore, 'my notes');
    expect((await main(['analyze', 'auth.log', '--ledger', notAStore], { cwd: root, env: {} })).code).toBe(2);
    expect(readFileSync(notAStore, 'utf8')).toBe('my notes');
    expect((await main(['analyze', 'auth.log', '--ledger', path.join(root, 'auth.log')], { cwd: root, env: {} })).code).toBe(2);
  });

  it('keeps going past an artefact that fails, and the store still verifies', async () => {
    const { root, out } = workspace();
    writeFileSync(path.join(root, 'broken.json'), '{"format": "vitrine.forensic.dataset", "version": 1, "events": [');
    const ledger = path.join(out, 'case.sqlite');
    const r = await main(['analyze', 'auth.log', 'broken.json', '../outside.log', 'preproc.tsv', '--ledger', ledger, '--year', '2024', '--format', 'summary'], { cwd: root, env: {} });
    expect(r.code).toBe(1);
    const s = JSON.parse(r.stdout) as Summary;
    expect(s.totals).toMatchObject({ artifacts: 4, failed: 2, events: 4 });
    expect(s.artifacts[1]).toEqual({ path: 'broken.json', error: { code: 'parse_error', message: 'the dataset document is not valid JSON (it may be cut short)' } });
    expect(s.artifacts[2]?.error?.code).toBe('forbidden');
    const stored = loadLedger(ledger);
    expect(stored.verify()).toBe(true);
    expect(stored.records().filter((x) => x.action === 'artifact.rejected').map((x) => x.artifact)).toEqual(['broken.json', '../outside.log']);
    expect(stored.count).toBe(s.custody.records);
  });

  it('takes the evidence root from FORENSIC_EVIDENCE_ROOT', async () => {
    const { root, out } = workspace();
    const r = await main(['analyze', path.join(root, 'preproc.tsv'), '--format', 'summary'], { cwd: out, env: { FORENSIC_EVIDENCE_ROOT: root } });
    expect(r.code).toBe(0);
    expect((JSON.parse(r.stdout) as Summary).artifacts[0]?.path).toBe('preproc.tsv');
    const outside = await main(['analyze', path.join(root, 'preproc.tsv'), '--format', 'summary'], { cwd: out, env: {} });
    expect(outside.code).toBe(1);
    expect((JSON.parse(outside.stdout) as Summary).artifacts[0]?.error?.code).toBe('forbidden');
  });

  it('takes a negative UTC offset as the next argument (the Americas), as with =, and reads the log in it', async () => {
    const { root } = workspace();
    const firstTime = async (args: string[]): Promise<string | undefined> => {
      const r = await main(['analyze', 'auth.log', '--year', '2024', ...args, '--format', 'summary'], { cwd: root, env: {} });
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
      return (JSON.parse(r.stdout) as { artifacts: { firstTime?: string }[] }).artifacts[0]?.firstTime;
    };
    expect(await firstTime(['--utc-offset-hours', '-5'])).toBe('2024-03-03T15:00:01Z');
    expect(await firstTime(['--utc-offset-hours=-5'])).toBe('2024-03-03T15:00:01Z');
    expect(await firstTime(['--utc-offset-hours', '-3.5'])).toBe('2024-03-03T13:30:01Z');
    // Anything else that starts with a dash is still an option.
    expect((await main(['analyze', 'auth.log', '--utc-offset-hours', '--top', '1'], { cwd: root, env: {} })).code).toBe(2);
  });

  it('refuses an option the command does not read (demo --ledger wrote no ledger without a word), naming it', async () => {
    const { root } = workspace();
    for (const [args, option] of [
      [['demo', '--ledger', path.join(root, 'demo.sqlite')], '--ledger'],
      [['scenarios', '--top', '3'], '--top'],
      [['verify', 'x.sqlite', '--top', '3'], '--top'],
      [['serve', '--format', 'json'], '--format'],
      [['demo', '--rules', root], '--rules'],
      [['analyze', 'auth.log', '--scenario', 'ransomware'], '--scenario'],
    ] as const) {
      const r = await main([...args], { cwd: root, env: {} });
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toContain(`${option} is not an option of ${args[0]}`);
    }
    expect(existsSync(path.join(root, 'demo.sqlite'))).toBe(false);
    // What each command documents still runs.
    expect((await main(['demo', '--scenario', 'ransomware', '--top', '1', '--format', 'json', '--include-noisy'], { cwd: root, env: {} })).code).toBe(0);
  });

  it('refuses bad options with exit 2', async () => {
    const { root } = workspace();
    for (const args of [['analyze'], ['analyze', 'x', '--kind', 'pcap'], ['analyze', 'x', '--year', '99'], ['analyze', 'x', '--utc-offset-hours', '1.3'], ['analyze', 'x', '--format', 'pdf'], ['analyze', 'x', '--top', '0'], ['analyze', 'x', '--top', '9999'], ['verify'], ['verify', 'x', '--expect-head', 'abc'], ['serve', 'x'], ['serve', '--host', '0.0.0.0'], ['serve', '--port', 'http'], ['scenarios', 'x'], ['demo', '--scenario', 'nope'], ['demo', 'x'], ['nope']]) {
      const r = await main(args, { cwd: root, env: {} });
      expect(r.code, args.join(' ')).toBe(2);
    }
    expect((await main(['verify', 'missing.sqlite'], { cwd: root })).code).toBe(2);
  });

  it('verify: a tampered store or export fails with exit 1 and the first broken record', async () => {
    const { root, out } = workspace();
    const ledger = path.join(out, 'case.sqlite');
    const s = JSON.parse((await main(['analyze', 'dataset.json', '--ledger', ledger, '--format', 'summary'], { cwd: root, env: {}, now: clock })).stdout) as Summary;
    const exported = path.join(out, 'custody.json');
    writeFileSync(exported, JSON.stringify(exportCustody(loadLedger(ledger))));
    expect((await main(['verify', exported], { cwd: out })).code).toBe(0);
    const doc = JSON.parse(readFileSync(exported, 'utf8')) as { records: { digest: string }[] };
    const d = doc.records[3] as { digest: string };
    d.digest = `${d.digest.slice(0, 5)}${d.digest[5] === 'a' ? 'b' : 'a'}${d.digest.slice(6)}`;
    writeFileSync(exported, JSON.stringify(doc));
    const bad = await main(['verify', exported], { cwd: out });
    expect(bad.code).toBe(1);
    expect(JSON.parse(bad.stdout)).toMatchObject({ source: 'export', ok: false, firstBroken: 4 });
    expect((await main(['verify', ledger, '--expect-count', String(s.custody.records + 1)], { cwd: out })).code).toBe(1);
    const db = new BetterSqlite3(ledger);
    db.exec('DROP TRIGGER custody_no_update');
    db.close();
    const triggers = await main(['verify', ledger], { cwd: out });
    expect(triggers.code).toBe(1);
    expect(JSON.parse(triggers.stdout)).toMatchObject({ ok: false, missingTriggers: ['custody_no_update'] });
  });

  it('analyze: a folder of logs is its files, each detected; one that cannot be read is reported, the others analysed', async () => {
    const { root } = workspace();
    const dir = path.join(root, 'acquired');
    mkdirSync(dir);
    writeFileSync(path.join(dir, 'dataset.json'), readFileSync(path.join(examples, 'dataset.json')));
    writeFileSync(path.join(dir, 'auth.log'), readFileSync(path.join(root, 'auth.log')));
    writeFileSync(path.join(dir, 'notes.bin'), Buffer.from([0, 1, 2, 3]));
    const r = await main(['analyze', 'acquired', '--year', '2024', '--format', 'summary'], { cwd: root, env: {}, now: clock });
    expect(r.code).toBe(1);
    const s = JSON.parse(r.stdout) as Summary;
    expect(s.artifacts.map((a) => [a.path, a.kind ?? a.error?.code])).toEqual([
      ['acquired/auth.log', 'authlog'],
      ['acquired/dataset.json', 'dataset-json'],
      ['acquired/notes.bin', 'validation_failed'],
    ]);
    expect(s.totals).toMatchObject({ artifacts: 3, failed: 1 });
    const md = await main(['analyze', 'acquired', '--year', '2024'], { cwd: root, env: {}, now: clock });
    expect(md.stdout).toContain('Artefacts not analysed');
  });

  it('verify: a JSON export cut short (records dropped from its end) fails against its own head and count', async () => {
    const { root, out } = workspace();
    const ledger = path.join(out, 'case.sqlite');
    await main(['analyze', 'dataset.json', '--ledger', ledger, '--format', 'summary'], { cwd: root, env: {}, now: clock });
    const exported = path.join(out, 'custody.json');
    const whole = exportCustody(loadLedger(ledger));
    const cut = { ...whole, records: whole.records.slice(0, whole.records.length - 2) };
    writeFileSync(exported, JSON.stringify(cut));
    const bad = await main(['verify', exported], { cwd: out });
    expect(bad.code).toBe(1);
    expect(JSON.parse(bad.stdout)).toMatchObject({ source: 'export', ok: false, count: whole.count - 2, firstBroken: whole.count - 1 });
    // The same cut in a CustodyView (GET /api/cases/{id}/custody) with its verification block.
    writeFileSync(exported, JSON.stringify({ records: cut.records, verification: { ok: true, count: whole.count, head: whole.head, missingTriggers: [] } }));
    expect((await main(['verify', exported], { cwd: out })).code).toBe(1);
    // A head that is not a hash is refused rather than ignored; the whole export still verifies.
    writeFileSync(exported, JSON.stringify({ ...whole, head: 'nope' }));
    expect(JSON.parse((await main(['verify', exported], { cwd: out })).stdout)).toMatchObject({ ok: false });
    writeFileSync(exported, JSON.stringify(whole));
    expect((await main(['verify', exported], { cwd: out })).code).toBe(0);
  });

  it('verify: a byte-truncated store is a tamper verdict (exit 1), not "not a ledger store" (exit 2)', async () => {
    const { root, out } = workspace();
    const ledger = path.join(out, 'case.sqlite');
    await main(['analyze', 'dataset.json', '--ledger', ledger, '--format', 'summary'], { cwd: root, env: {}, now: clock });
    const whole = readFileSync(ledger);
    writeFileSync(ledger, whole.subarray(0, Math.floor(whole.length / 2)));
    const r = await main(['verify', ledger], { cwd: out });
    expect(r.code, r.stderr).toBe(1);
    expect(JSON.parse(r.stdout)).toMatchObject({ source: 'store', ok: false });
    expect(r.stderr).toContain('does not verify');
  });
});

describe('forensic.ingest job', () => {
  it('validates its payload, reports progress up to 1 and returns the summary and events', async () => {
    const { root } = workspace();
    const seen: JobProgress[] = [];
    const runner = new InProcessRunner(jobs);
    const result = (await runner.run(INGEST_JOB, { path: 'preproc.tsv', evidenceRoot: root }, { onProgress: (p) => seen.push(p) })) as { artifact: { events: number }; events: unknown[] };
    expect(result.artifact.events).toBe(3);
    expect(result.events).toHaveLength(3);
    expect(seen[0]?.fraction).toBe(0);
    expect(seen.at(-1)?.fraction).toBe(1);
    expect(seen.every((p, i) => i === 0 || p.fraction >= (seen[i - 1] as JobProgress).fraction)).toBe(true);
    const summaryOnly = (await runner.run(INGEST_JOB, { path: 'preproc.tsv', evidenceRoot: root, events: false })) as { events: unknown[] };
    expect(summaryOnly.events).toEqual([]);
    for (const bad of [{ path: 'x' }, { path: 'x', evidenceRoot: 'relative/root' }, { path: 'x', evidenceRoot: root, kind: 'pcap' }, { path: 'x', evidenceRoot: root, utcOffsetHours: 1.3 }, { path: 'x', evidenceRoot: root, extra: 1 }]) {
      let err: unknown;
      try {
        await runner.run(INGEST_JOB, bad);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(VitrineError);
      expect((err as VitrineError).code).toBe('bad_request');
    }
  });
});

describe('forensic command line: reports, scenarios, demo', () => {
  it('analyze writes the court-style Markdown report by default, with the custody anchors on standard error', async () => {
    const { root } = workspace();
    const r = await main(['analyze', 'dataset.json', 'preproc.tsv', '--case', 'CASE-9'], { cwd: root, env: {}, now: clock });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('# Forensic case report: CASE-9');
    expect(r.stdout).toContain('## Evidence inventory');
    expect(r.stdout).toContain('## Chain of custody');
    expect(r.stdout).toContain('every record commits to the one before');
    // The shipped rules that wait for placeholder values (%known_cdcs%) are inactive, not broken: standard error
    // starts with the custody anchors; the report lists them apart.
    expect(r.stderr).toMatch(/^forensic: custody head [0-9a-f]{64} \(\d+ records, verified\)[^\n]*\n$/);
    expect(r.stdout).toContain('Rules not run: placeholders without values');
    expect(r.stdout).toContain('%known_cdcs%');
    expect(r.stdout).not.toContain('Rules that could not run');
  });

  it('--format json is to_dict; html, cypher; --out writes the file; --pdf renders the PDF', async () => {
    const { root, out } = workspace();
    const j = await main(['analyze', 'dataset.json', '--format', 'json', '--top', '3'], { cwd: root, env: {} });
    const view = JSON.parse(j.stdout) as { stories: unknown[]; evidence: { sha256: string }[]; counts: { events: number } };
    expect(view.counts.events).toBe(4);
    expect(view.stories.length).toBeLessThanOrEqual(3);
    expect(view.evidence[0]?.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect((await main(['analyze', 'dataset.json', '--format', 'cypher'], { cwd: root, env: {} })).stdout).toContain('MERGE (n:');
    const html = path.join(out, 'report.html');
    const pdf = path.join(out, 'report.pdf');
    const r = await main(['analyze', 'dataset.json', '--format', 'html', '--out', html, '--pdf', pdf], { cwd: root, env: {} });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(readFileSync(html, 'utf8')).toMatch(/^<!doctype html>/);
    expect(readFileSync(pdf).subarray(0, 5).toString('latin1')).toBe('%PDF-');
  });

  it('never writes a report over evidence, and refuses a foreign ledger before any report is written', async () => {
    const { root, out } = workspace();
    const before = readFileSync(path.join(root, 'dataset.json'));
    expect((await main(['analyze', 'dataset.json', '--out', 'dataset.json'], { cwd: root, env: {} })).code).toBe(2);
    expect((await main(['analyze', 'dataset.json', '--pdf', path.join(root, 'dataset.json')], { cwd: root, env: {} })).code).toBe(2);
    expect(readFileSync(path.join(root, 'dataset.json')).equals(before)).toBe(true);
    const ledger = path.join(out, 'case.sqlite');
    expect((await main(['analyze', 'auth.log', '--ledger', ledger, '--year', '2024'], { cwd: root, env: {} })).code).toBe(0);
    const report = path.join(out, 'r.md');
    const pdf = path.join(out, 'r.pdf');
    const again = await main(['analyze', 'dataset.json', '--ledger', ledger, '--out', report, '--pdf', pdf], { cwd: root, env: {} });
    expect(again.code).toBe(2);
    expect(existsSync(report) || existsSync(pdf)).toBe(false);
  });

  it('Sigma: --rules adds a folder of rules, --min-level filters, --no-sigma turns it off; bad values exit 2', async () => {
    const { root, out } = workspace();
    const rules = path.join(out, 'rules');
    mkdirSync(rules);
    writeFileSync(
      path.join(rules, 'mine.yml'),
      'title: Alice logs in by key\nid: 11111111-2222-4333-8444-555555555555\nstatus: test\nlevel: medium\nauthor: Case Team\nlogsource:\n    product: linux\n    service: sshd\ndetection:\n    keywords:\n        - \'Accepted publickey for alice\'\n    condition: keywords\n',
    );
    const view = async (args: string[]): Promise<{ detections: { ruleId: string; author: string }[] }> =>
      JSON.parse((await main(['analyze', 'auth.log', '--format', 'json', ...args], { cwd: root, env: {} })).stdout) as { detections: { ruleId: string; author: string }[] };
    expect((await view(['--rules', rules])).detections).toContainEqual(expect.objectContaining({ ruleId: '11111111-2222-4333-8444-555555555555', author: 'Case Team' }));
    expect((await view(['--rules', rules, '--min-level', 'high'])).detections.some((d) => d.ruleId.startsWith('11111111'))).toBe(false);
    expect((await view(['--no-sigma'])).detections).toEqual([]);
    expect((await main(['analyze', 'auth.log', '--min-level', 'severe'], { cwd: root, env: {} })).code).toBe(2);
    expect((await main(['analyze', 'auth.log', '--no-sigma', '--rules', rules], { cwd: root, env: {} })).code).toBe(2);
    expect((await main(['analyze', 'auth.log', '--rules', path.join(out, 'absent')], { cwd: root, env: {} })).code).toBe(2);
  }, 60_000);

  it('rules that cannot run are listed on stderr, in the JSON and Markdown reports; --strict exits 2 before analysing', async () => {
    const { root, out } = workspace();
    const rules = path.join(out, 'rules-mixed');
    mkdirSync(rules);
    const good = 'title: Alice logs in by key\nid: 11111111-2222-4333-8444-555555555556\nstatus: test\nlevel: medium\nlogsource:\n    product: linux\n    service: sshd\ndetection:\n    keywords:\n        - \'Accepted publickey for alice\'\n    condition: keywords\n';
    writeFileSync(path.join(rules, 'good.yml'), good);
    writeFileSync(path.join(rules, 'no-detection.yml'), 'title: No detection block\nid: 22222222-2222-4333-8444-555555555555\nlogsource:\n    product: linux\n    service: sshd\n');
    writeFileSync(path.join(rules, 'broken.yml'), 'title: [unclosed\n  detection: {\n');
    writeFileSync(path.join(rules, 'unknown-id.yml'), 'title: Unknown identifier\nid: 33333333-2222-4333-8444-555555555555\nlogsource:\n    product: linux\n    service: sshd\ndetection:\n    sel:\n        - x\n    condition: sel and other\n');
    const r = await main(['analyze', 'auth.log', '--format', 'json', '--rules', rules], { cwd: root, env: {} });
    expect(r.code).toBe(0);
    for (const f of ['no-detection.yml', 'broken.yml', 'unknown-id.yml']) expect(r.stderr).toContain(`rule user/${f}`);
    expect(r.stderr).not.toContain('good.yml');
    const view = JSON.parse(r.stdout) as { ruleProblems: { source: string; reason: string }[]; detections: { ruleId: string }[] };
    expect(view.ruleProblems.map((p) => p.source).filter((s) => s.startsWith('user/')).sort()).toEqual(['user/broken.yml', 'user/no-detection.yml', 'user/unknown-id.yml']);
    expect(view.ruleProblems.find((p) => p.source === 'user/unknown-id.yml')?.reason).toContain('identifier');
    expect(view.detections.some((d) => d.ruleId === '11111111-2222-4333-8444-555555555556')).toBe(true);
    const md = await main(['analyze', 'auth.log', '--rules', rules], { cwd: root, env: {} });
    expect(md.stdout).toContain('Rules that could not run');
    expect(md.stdout).toContain('user/broken.yml');
    const strict = await main(['analyze', 'auth.log', '--rules', rules, '--strict'], { cwd: root, env: {} });
    expect(strict.code).toBe(2);
    expect(strict.stdout).toBe('');
    expect(strict.stderr).toContain('user/no-detection.yml');
  }, 120_000);

  it('rules waiting for placeholder values are listed apart, not counted by --strict, and run once --placeholders gives values', async () => {
    const { root, out } = workspace();
    const rules = path.join(out, 'rules-placeholder');
    mkdirSync(rules);
    writeFileSync(
      path.join(rules, 'ph.yml'),
      "title: Alice from a known host\nid: 55555555-2222-4333-8444-555555555555\nstatus: test\nlevel: medium\nlogsource:\n    product: linux\n    service: sshd\ndetection:\n    sel:\n        - 'Accepted publickey for alice'\n    hosts:\n        '|expand':\n            - '%admin_hosts%'\n    condition: sel and not hosts\n",
    );
    // The shipped sets also hold rules that wait for placeholder values (%known_cdcs%): --strict runs anyway.
    const strict = await main(['analyze', 'auth.log', '--format', 'json', '--rules', rules, '--strict'], { cwd: root, env: {} });
    expect(strict.code).toBe(0);
    // The analyst's own rule is named on standard error as inactive; the shipped ones are not (the report lists both).
    expect(strict.stderr).toContain('forensic: rule user/ph.yml (55555555-2222-4333-8444-555555555555) inactive: needs placeholder %admin_hosts% (values with --placeholders)\n');
    expect(strict.stderr).not.toContain('known_cdcs');
    expect(strict.stderr).not.toContain('cannot run');
    expect(strict.stderr.split('\n').filter((l) => l.startsWith('forensic: rule '))).toHaveLength(1);
    const view = JSON.parse(strict.stdout) as { ruleProblems: { source: string; placeholder?: string }[]; detections: { ruleId: string }[] };
    expect(view.ruleProblems.find((p) => p.source === 'user/ph.yml')?.placeholder).toBe('admin_hosts');
    expect(view.ruleProblems.filter((p) => p.placeholder === 'known_cdcs').map((p) => p.source.split('/')[0])).toEqual(['rules-emerging-threats', 'rules-emerging-threats']);
    const md = await main(['analyze', 'auth.log', '--rules', rules], { cwd: root, env: {} });
    expect(md.stdout).toContain('Rules not run: placeholders without values');
    expect(md.stdout).not.toContain('Rules that could not run');
    // A broken rule beside it still makes --strict refuse.
    writeFileSync(path.join(rules, 'broken.yml'), 'title: [unclosed\n');
    const refused = await main(['analyze', 'auth.log', '--rules', rules, '--strict'], { cwd: root, env: {} });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/^forensic: rule user\/broken\.yml cannot run: [^\n]+\nforensic: 1 rule\(s\) cannot run and were left out[^\n]*\nforensic: rule user\/ph\.yml [^\n]+ inactive: needs placeholder %admin_hosts%[^\n]*\nforensic: --strict: 1 rule\(s\) cannot run; nothing analysed\n$/);
    rmSync(path.join(rules, 'broken.yml'));
    // With values the rule runs (and a bad placeholder file is refused).
    const values = path.join(out, 'placeholders.json');
    writeFileSync(values, JSON.stringify({ admin_hosts: ['*bastion*'], known_cdcs: ['DC01$'] }));
    const filled = await main(['analyze', 'auth.log', '--format', 'json', '--rules', rules, '--placeholders', values, '--strict'], { cwd: root, env: {} });
    expect(filled.code).toBe(0);
    expect(filled.stderr).not.toContain('inactive');
    expect((JSON.parse(filled.stdout) as { ruleProblems: unknown[] }).ruleProblems).toEqual([]);
    writeFileSync(values, JSON.stringify({ admin_hosts: 'not a list' }));
    expect((await main(['analyze', 'auth.log', '--rules', rules, '--placeholders', values], { cwd: root, env: {} })).code).toBe(2);
  }, 120_000);

  it('--format navigator writes the case\'s ATT&CK Navigator layer with the detections\' techniques', async () => {
    const { root, out } = workspace();
    const rules = path.join(out, 'rules-nav');
    mkdirSync(rules);
    writeFileSync(
      path.join(rules, 'nav.yml'),
      'title: Any sshd line\nid: 44444444-2222-4333-8444-555555555555\nstatus: test\nlevel: low\ntags:\n    - attack.credential-access\n    - attack.t1110.001\nlogsource:\n    product: linux\n    service: sshd\ndetection:\n    keywords:\n        - \'sshd\'\n        - \'Accepted\'\n        - \'Failed\'\n    condition: keywords\n',
    );
    const r = await main(['analyze', 'auth.log', '--format', 'navigator', '--rules', rules], { cwd: root, env: {} });
    expect(r.code).toBe(0);
    const layer = JSON.parse(r.stdout) as { versions: { layer: string }; techniques: { techniqueID: string; tactic?: string; comment: string }[] };
    expect(layer.versions.layer).toBe('4.5');
    expect(layer.techniques).toContainEqual(expect.objectContaining({ techniqueID: 'T1110.001', tactic: 'credential-access' }));
    const json = JSON.parse((await main(['analyze', 'auth.log', '--format', 'json', '--rules', rules], { cwd: root, env: {} })).stdout) as { techniques: { id: string; name: string; rules: number }[] };
    expect(json.techniques).toContainEqual(expect.objectContaining({ id: 'T1110.001', name: 'Password Guessing' }));
  }, 120_000);

  it('scenarios lists the built-in scenarios; demo runs one end to end and prints its report', async () => {
    const list = await main(['scenarios']);
    expect(list.code).toBe(0);
    for (const name of ['ransomware', 'lateral-movement', 'ssh-bruteforce', 'insider-exfiltration', 'log-clearing']) expect(list.stdout).toContain(name);
    const demo = await main(['demo', '--top', '2'], { now: clock });
    expect(demo.code).toBe(0);
    expect(demo.stdout).toContain('## S1: ');
    expect(demo.stdout).not.toContain('## S3: ');
    expect(demo.stdout).toContain('**Origin:** scenario:ransomware');
    const cypher = await main(['demo', '--scenario', 'log-clearing', '--format', 'cypher']);
    expect(cypher.code).toBe(0);
    expect(cypher.stdout).toContain('MERGE (n:Story');
  });
});

describe('forensic --help loads only the command line', { timeout: 180_000 }, () => {
  it('answers --help without loading the service, its jobs, its HTTP app or the server', () => {
    const { code, modules } = modulesLoadedByHelp('engines/forensic/cli.ts');
    expect(code).toBe(0);
    expect(modules).toContain('engines/forensic/cli.ts');
    for (const heavy of ['engines/forensic/index.ts', 'engines/forensic/service.ts', 'engines/forensic/jobs.ts', 'engines/forensic/http.ts', 'engines/core/http/server.ts']) expect(modules).not.toContain(heavy);
    // Of the service's own modules, only the command line and its constants.
    expect(modules.filter((m) => m.startsWith('engines/forensic/'))).toEqual(['engines/forensic/cli-meta.ts', 'engines/forensic/cli.ts']);
  });
});
