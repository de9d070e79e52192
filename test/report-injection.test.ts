// The report-injection sweep: hostile evidence text pushed through every human-facing output (Markdown reports, the PR
// comment, study reports, rule tables, the HTML, PDF and Mermaid exports, command-line text) must come out as text:
// no markup, link, image, HTML, heading, table cell, code-span break, mention or reference in Markdown (parsed with
// marked, a GFM parser installed as mermaid's dependency), no control character, ANSI/OSC sequence, bidi override or
// lone surrogate on a terminal.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { marked, type Token, type Tokens } from 'marked';
import { afterAll, describe, expect, it } from 'vitest';
import { main as attribMain } from '../engines/attrib/cli.js';
import { attributionText } from '../engines/attrib/cli-commands.js';
import type { Attribution } from '../engines/core/contracts/attrib.js';
import type { ScanVerdict } from '../engines/core/contracts/pkgscan.js';
import type { LookupResult } from '../engines/core/contracts/pkgscan-vulns.js';
import { mdText } from '../engines/core/markdown.js';
import { openMemoryStore } from '../engines/core/store.js';
import { terminalResult } from '../engines/core/cli.js';
import { main as forensicMain } from '../engines/forensic/cli.js';
import { escapeHtml, pdfText, renderHtmlDocument, renderMarkdownDocument } from '../engines/forensic/report/index.js';
import type { ReportDocument } from '../engines/forensic/report/document.js';
import { reportMarkdown } from '../engines/flowdet/report/report.js';
import { barChart, lineChart } from '../engines/flowdet/report/svg.js';
import type { StudyReport } from '../engines/flowdet/studies/run.js';
import { seedsMarkdown, type SeedReport } from '../engines/flowdet/studies/seeds.js';
import { stealMarkdown, type StealReport } from '../engines/flowdet/studies/steal.js';
import { main as pkgscanMain, verdictText } from '../engines/pkgscan/cli.js';
import { renderRuleTables } from '../engines/pkgscan/analyzers/source/ruledocs.js';
import { diffText } from '../engines/pkgscan/diffs/text.js';
import { lookupText } from '../engines/pkgscan/vulns/cli.js';
import { compileRules } from '../engines/pkgscan/analyzers/source/rules.js';
import { pkgscanService } from '../engines/pkgscan/service.js';
import { prComment, type Decision } from '../engines/provgate/policy.js';
import { mermaidText } from '../engines/replay/export/mermaid.js';

/** The hostile set: Markdown and HTML markup, code and table breaks, GFM autolinks, GitHub mentions and references, terminal escapes. */
export const HOSTILE: readonly string[] = [
  '[x](http://e)',
  '![i](http://e/p.png)',
  '<img src=x onerror=1>',
  '<script>alert(1)</script>',
  '`',
  '```',
  '|',
  '\n# h',
  '\r\n',
  '&lt;',
  'http://e.example/x',
  'www.e.example',
  '@user',
  '@org/team',
  'a@b.example',
  '#123',
  'GH-7',
  '*em* _em_ ~~del~~ $x^2$',
  '\u001b[31m',
  '\u001b]8;;http://e\u0007',
  'a\rb\bc',
  '\u202e',
  '\u0000',
  '\u009b2J',
  '\ud800',
  '- item',
  '1. item',
  '    indented',
  '---',
];
/** All of them in one value, as one evidence string would carry them. */
const ALL = HOSTILE.join(' ');
const BENIGN = 'plain';

// ---- the assertions -------------------------------------------------------------------------------------------

/** The structure of a parsed Markdown document: every token but text and escapes, with table and list sizes. */
function shape(tokens: readonly Token[]): string {
  const out: string[] = [];
  for (const t of tokens) {
    const inner = 'tokens' in t && Array.isArray(t.tokens) ? shape(t.tokens) : '';
    if (t.type === 'text' || t.type === 'escape' || t.type === 'space') {
      if (inner !== '') out.push(inner);
      continue;
    }
    if (t.type === 'table') {
      const table = t as Tokens.Table;
      out.push(`table[${table.header.length}](${table.header.map((c) => shape(c.tokens)).join('|')};${table.rows.map((r) => `${r.length}:${r.map((c) => shape(c.tokens)).join('|')}`).join(';')})`);
    } else if (t.type === 'list') {
      const list = t as Tokens.List;
      out.push(`list${list.ordered ? 'o' : 'u'}[${list.items.length}](${list.items.map((i) => shape(i.tokens)).join(';')})`);
    } else out.push(`${t.type}${t.type === 'heading' ? (t as Tokens.Heading).depth : ''}(${inner})`);
  }
  return out.join(',');
}

/** The text a reader sees outside code spans and code blocks. */
function visibleText(tokens: readonly Token[]): string {
  let out = '';
  for (const t of tokens) {
    if (t.type === 'codespan' || t.type === 'code') continue;
    if (t.type === 'table') {
      const table = t as Tokens.Table;
      for (const c of [...table.header, ...table.rows.flat()]) out += ` ${visibleText(c.tokens)}`;
    } else if (t.type === 'list') for (const i of (t as Tokens.List).items) out += ` ${visibleText(i.tokens)}`;
    else if ('tokens' in t && Array.isArray(t.tokens)) out += visibleText(t.tokens);
    else if (t.type === 'text' || t.type === 'escape') out += decodeEntities((t as Tokens.Text).text);
  }
  return out;
}

/** Character references as a browser reads them (`&#32;` is a space, not a reference to issue 32). */
function decodeEntities(s: string): string {
  return s.replace(/&(#\d+|amp|lt|gt|quot);/g, (_, e: string) => (e.startsWith('#') ? String.fromCodePoint(Number(e.slice(1))) : { amp: '&', lt: '<', gt: '>', quot: '"' }[e] ?? ''));
}

// eslint-disable-next-line no-control-regex -- the raw control characters are what the sweep looks for
const RAW_CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200b-\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** No raw control, bidi or zero-width character or lone surrogate (line feed and tab are layout). */
function expectTerminalSafe(text: string, what: string): void {
  const m = RAW_CONTROLS.exec(text);
  expect(m === null ? null : `U+${m[0].charCodeAt(0).toString(16).padStart(4, '0')} at ${m.index}`, `${what}: a raw control character`).toBeNull();
}

/**
 * Markdown `md` holds the hostile value as text only: parsed, its structure equals that of the same output with a
 * benign value (`benign`), it has no HTML, link or image, and the visible text has no URL, www name, mention or
 * reference left for GFM or GitHub to link.
 */
function expectInertMarkdown(md: string, benign: string, what: string): void {
  expectTerminalSafe(md, what);
  const tokens = marked.lexer(md, { gfm: true });
  expect(shape(tokens), `${what}: the document's structure`).toBe(shape(marked.lexer(benign, { gfm: true })));
  // The structure holds every link, image and HTML token: equal to the benign one's, evidence added none.
  expect(marked.parse(md, { gfm: true, async: false }), `${what}: an element from evidence`).not.toMatch(/<script|<img src="?x/i);
  // None, in the benign output (its own text too: a column header reads `precision at 1 %`, not `@1`) or from evidence.
  const seen = visibleText(tokens);
  const plain = visibleText(marked.lexer(benign, { gfm: true }));
  const count = (text: string, re: RegExp): number => text.match(re)?.length ?? 0;
  for (const [kind, re] of [['a URL', /[a-z]:\/\//gi], ['a www name', /(^|[^A-Za-z0-9])www\./gi], ['a mention or e-mail address', /@[A-Za-z0-9]/g], ['an issue reference', /(#|GH-)\d/gi]] as const) {
    expect(count(plain, re), `${what}: ${kind} in the output's own text`).toBe(0);
    expect(count(seen, re), `${what}: ${kind}`).toBe(0);
  }
}

// ---- the outputs ----------------------------------------------------------------------------------------------

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
function tempDir(): string {
  const d = mkdtempSync(path.join(tmpdir(), 'report-injection-'));
  dirs.push(d);
  return d;
}

function reportDocument(v: string): ReportDocument {
  return {
    title: v,
    blocks: [
      { t: 'h', level: 1, text: v },
      { t: 'h', level: 2, text: `Host ${v}`, anchor: v },
      { t: 'p', text: v },
      { t: 'p', text: v, muted: true },
      { t: 'kv', rows: [[v, v], ['user', v]] },
      { t: 'table', caption: v, head: ['a', v, 'c'], rows: [[v, v, v], ['x', v, 'y']], mono: [2] },
      { t: 'list', items: [v, `file ${v}`] },
    ],
  };
}

function decision(v: string): Decision {
  return {
    verdict: 'block',
    reasons: [{ rule: 'malicious_dependency', verdict: 'block', message: `package ${v} is malicious`, path: [`commit:${v}`, `dependency:${v}`], pathIds: [], evidence: [v, v] }],
  };
}

function studyReport(v: string): StudyReport {
  const m = { n: 10, accuracy: 0.9, precision: 0.9, recall: 0.9, f1: 0.9, fpr: 0.1, roc_auc: 0.95 };
  return {
    dataset: { name: v, schema: 'cicids2017', format: 'csv', rows: 10, malicious: 5, split: 'stratified_70_30', train: 7, test: 3, missing_columns: [], cleaning: { nonFinite: 0, negative: 0, blank: 0, unreadable: 0 }, skipped_lines: 0, categories: {} },
    settings: { quick: true, seed: 1 },
    seconds: 1,
    served_model: { hardened: false, members: ['gbdt'], trained_on: v, training_rows: 7, derived_features: 0, split: 'test', test: m },
    detectors: [],
    attacks: [],
    validity: { checked: 0, invalid: 0, dropped: 0, max_linf_excess: 0, physical_valid_share: 1 },
  } as unknown as StudyReport;
}

function stealReport(v: string): StealReport {
  const interval = { estimate: 0.5, lower: 0.4, upper: 0.6 };
  return {
    format: 'vitrine-flowdet-steal', version: 1, dataset: v, victim: 'gbdt', surrogate: 'mlp', pool: 10, evaluation: 10,
    results: [{ budget: 8, queries: 8, agreement: 0.5, agreement_interval: interval, transfer: [{ eps: 1, detected: 2, evaded: 1, success_rate: 0.5, interval }] }],
    validity: { checked: 0, invalid: 0, dropped: 0, physical_valid: 0, max_linf_excess: 0 },
  } as unknown as StealReport;
}

function seedReport(v: string): SeedReport {
  return { format: 'vitrine-flowdet-seeds', version: 1, dataset: v, seeds: [1, 2], adv: false, metrics: [], rates: [] } as unknown as SeedReport;
}

function ruleTables(v: string): string {
  const rules = JSON.stringify({ version: 1, class: 'alpha', rules: [{ id: 'one_rule', title: `Rule ${v}`.slice(0, 200), category: 'obfuscation', severity: 'medium', technique: 'T1027', languages: ['python'], role: 'indicator', patterns: [{ regex: 'a' }] }] });
  return renderRuleTables(compileRules({ 'a.yml': rules }));
}

/** Every Markdown output, as a function of one evidence value. */
const MARKDOWN_OUTPUTS: readonly (readonly [string, (v: string) => string])[] = [
  ['forensic report (renderMarkdownDocument, what toMarkdown and report.md lay out)', (v) => renderMarkdownDocument(reportDocument(v))],
  ['provgate PR comment (prComment, what `provgate gate --comment` and the gate route write)', (v) => prComment(decision(v))],
  ['flowdet study report.md (reportMarkdown)', (v) => reportMarkdown(studyReport(v))],
  ['flowdet steal.md (stealMarkdown)', (v) => stealMarkdown(stealReport(v))],
  ['flowdet seeds.md (seedsMarkdown)', (v) => seedsMarkdown(seedReport(v))],
  ['pkgscan rule tables (renderRuleTables, a rules file\'s title)', (v) => ruleTables(v)],
];

describe('Markdown outputs: evidence text stays text', () => {
  for (const [what, render] of MARKDOWN_OUTPUTS) {
    it(what, () => {
      const benign = render(BENIGN);
      for (const v of [...HOSTILE, ALL]) expectInertMarkdown(render(v), benign, `${what} with ${JSON.stringify(v)}`);
    });
  }

  it('a 1 MB value is escaped whole and stays on its lines (marked itself is too slow to parse it)', () => {
    const big = `${ALL} `.repeat(Math.ceil(1_000_000 / (ALL.length + 1)));
    const md = renderMarkdownDocument(reportDocument(big));
    expectTerminalSafe(md, '1 MB report');
    expect(md.split('\n').length).toBe(renderMarkdownDocument(reportDocument(BENIGN)).split('\n').length);
    // The value alone: no markup character but behind a backslash, and as read, no URL, www name, mention or reference.
    const cell = mdText(big);
    expect(cell.replace(/\\[\s\S]/g, '')).not.toMatch(/[<>[\]`|*_~$^!#]/);
    expect(cell.replace(/\\([\s\S])/g, '$1')).not.toMatch(/:\/\/|(^|[^A-Za-z0-9])www\.|@[A-Za-z0-9]|(#|GH-)\d/i);
  });
});

describe('HTML, SVG, PDF and Mermaid exports', () => {
  it('the HTML report escapes every value (no element or attribute from evidence)', () => {
    const benign = renderHtmlDocument(reportDocument(BENIGN));
    const tags = (html: string): string[] => [...html.matchAll(/<([a-z][a-z0-9]*)\b/gi)].map((m) => m[1]!.toLowerCase());
    for (const v of [...HOSTILE, ALL]) {
      const html = renderHtmlDocument(reportDocument(v));
      expect(tags(html), JSON.stringify(v)).toEqual(tags(benign));
      expect(html).not.toMatch(/<script|<img/i);
      expectTerminalSafe(html.replace(/\n/g, ' '), `HTML with ${JSON.stringify(v)}`);
    }
    expect(escapeHtml('"\'<>&\u202e\u0001')).toBe('&quot;&#39;&lt;&gt;&amp;\\u202e\\u0001');
  });

  it('the flowdet SVG figures escape series and bar labels (well-formed XML, no element from evidence)', () => {
    const figures = (v: string): string[] => [lineChart(v, v, v, [{ name: v, x: [0, 1], y: [0, 1] }]), barChart(v, [v, 'b'], [0.2, 0.5], v)];
    const tags = (svg: string): string[] => [...svg.matchAll(/<([a-z][a-z0-9]*)\b/gi)].map((m) => m[1]!);
    const benign = figures(BENIGN).map(tags);
    for (const v of [...HOSTILE, ALL]) {
      const svg = figures(v);
      expect(svg.map(tags), JSON.stringify(v)).toEqual(benign);
      for (const f of svg) expectTerminalSafe(f.replace(/\n/g, ' '), `SVG with ${JSON.stringify(v)}`);
    }
  });

  it('the PDF text is printable WinAnsi only', () => {
    for (const v of [...HOSTILE, ALL]) expect(pdfText(v)).toMatch(/^[\x20-\x7e\u00a0-\u00ff]*$/);
  });

  it('Mermaid labels are letters, digits, a few marks and entities', () => {
    for (const v of [...HOSTILE, ALL]) expect(mermaidText(v)).toMatch(/^[A-Za-z0-9 .,_()/'#;-]*$/);
  });
});

// ---- command lines --------------------------------------------------------------------------------------------

describe('command-line text: no raw control character, escape sequence or injected line', () => {
  it('every CLI result goes through terminalResult: JSON keeps its meaning', () => {
    const value = { name: '\u202eexe.txt\u009b\u2028', n: 1 };
    const r = terminalResult({ code: 0, stdout: `${JSON.stringify(value)}\n`, stderr: '\u001b[31mred\r\n' });
    expectTerminalSafe(r.stdout, 'stdout');
    expectTerminalSafe(r.stderr, 'stderr');
    expect(JSON.parse(r.stdout)).toEqual(value);
    expect(r.stderr).toBe('\\u001b[31mred\\u000d\n');
  });

  it('attrib ach SCENARIO.json: titles, questions and evidence from the file', async () => {
    const dir = tempDir();
    const run = async (v: string): Promise<string> => {
      const scenario = {
        title: `Scenario ${v}`,
        question: v,
        hypotheses: [{ id: 'H1', title: v }, { id: 'H2', title: `other ${v}` }],
        evidence: [{ id: 'E1', summary: v, ratings: { H1: 'C', H2: 'I' } }, { id: 'E2', summary: `second ${v}`, ratings: { H1: 'N', H2: 'C' } }],
      };
      const file = path.join(dir, 'scenario.json');
      writeFileSync(file, JSON.stringify(scenario));
      const r = await attribMain(['ach', file], () => new Date('2024-05-01T00:00:00Z'));
      expect(r.code, r.stderr).toBe(0);
      return r.stdout;
    };
    const lines = (await run(BENIGN)).split('\n').length;
    for (const v of [...HOSTILE, ALL]) {
      const out = await run(v);
      expectTerminalSafe(out, JSON.stringify(v));
      expect(out.split('\n').length, JSON.stringify(v)).toBe(lines);
    }
  });

  it('attrib attribution text: group names, software and reasons', () => {
    const text = (v: string): string =>
      attributionText({
        techniques: [], unmatched_techniques: [], software: [v], groups_considered: 1, calibrated: false, method: 'm', warnings: [v],
        shortlist: [{ rank: 1, id: 'G0001', name: v, score: 1, similarity: 1, probability: 1, reasons: [{ kind: 'technique', contribution: 1, detail: v }] }],
      } as unknown as Attribution);
    const lines = text(BENIGN).split('\n').length;
    for (const v of [...HOSTILE, ALL]) {
      const out = terminalResult({ code: 0, stdout: text(v), stderr: '' }).stdout;
      expectTerminalSafe(out, JSON.stringify(v));
      expect(out.split('\n').length, JSON.stringify(v)).toBe(lines);
    }
  });

  it('pkgscan scan text (verdictText): file paths, subjects and messages from a package', () => {
    const text = (v: string): string =>
      verdictText({
        assessment: { verdict: 'suspicious', confidence: 0.5, summary: v }, decision: 'block', ecosystem: 'npm', name: 'p', version: '1.0.0', environment: 'prod',
        risk_score: 0.5, severity: 'high', incomplete: false, gaps: [{ kind: 'k', effect: 'warn', message: v, what_to_do: v }], id: 'id', package: { sha256: 'x', source: 'store' },
        vulnerabilities: { status: 'ok', items: [] }, provenance: { status: 'ok' },
        policy_reasons: [{ effect: 'block', rule: 'r', message: v, count: 2, subjects: [v, v] }], waived_reasons: [{ rule: 'r', message: v, waived_by: v }],
        findings: [{ severity: 'high', code: 'c', file: v, line: 1, title: v }], analyzer_runs: [{ name: 'a', status: 'failed', message: v }],
      } as unknown as ScanVerdict);
    const lines = text(BENIGN).split('\n').length;
    for (const v of [...HOSTILE, ALL]) {
      const out = terminalResult({ code: 0, stdout: text(v), stderr: '' }).stdout;
      expectTerminalSafe(out, JSON.stringify(v));
      expect(out.split('\n').length, JSON.stringify(v)).toBe(lines);
    }
  });

  it('pkgscan diff and advisory look-up text (diffText, lookupText): paths, maintainers, summaries from packages and feeds', () => {
    const diff = (v: string): string =>
      diffText({
        escalated: true, ecosystem: 'npm', name: 'p', from_version: '1', to_version: '2', risk: { from: 0, to: 1 }, incomplete: false, id: 'd', analyzer_version: 'a',
        escalation_reasons: [], thresholds: { environment: 'prod', warn_risk: 0.5, block_risk: 0.8 },
        findings: { new: [{ severity: 'high', code: 'c', file: v, line: null, title: v }], gone: [], unchanged: 0 },
        capabilities: { gained: [], lost: [] },
        files: { added: [], removed: [], changed: [], unchanged: 0, truncated: false, install_time: { added: [v], changed: [v] }, new_executables: [v], new_binaries: [v] },
        maintainers: { added: [v], removed: [v] }, publisher: { changed: true, from: v, to: v },
      } as unknown as Parameters<typeof diffText>[0]);
    const lookup = (v: string): string =>
      lookupText({
        status: 'ok', ecosystem: 'npm', name: 'p', version: '1', missing_sources: [], stale_sources: [], notes: [v],
        items: [{ id: 'GHSA-1', severity: 'high', score: null, malicious: false, kev: null, epss: null, summary: v, aliases: [v], fixed_versions: [v] }],
      } as unknown as LookupResult);
    for (const render of [diff, lookup]) {
      const lines = render(BENIGN).split('\n').length;
      for (const v of [...HOSTILE, ALL]) {
        const out = terminalResult({ code: 0, stdout: render(v), stderr: '' }).stdout;
        expectTerminalSafe(out, JSON.stringify(v));
        expect(out.split('\n').length, JSON.stringify(v)).toBe(lines);
      }
    }
  });

  it('forensic analyze: a user rule file named and titled with hostile text, on stderr and in the Markdown report', async () => {
    const base = tempDir();
    const root = path.join(base, 'evidence');
    const rules = path.join(base, 'rules');
    mkdirSync(root);
    mkdirSync(rules);
    writeFileSync(path.join(root, 'auth.log'), 'Mar  3 10:00:01 web01 sshd[811]: Accepted publickey for [x](http://e)@user#123<img/src=x> from 192.0.2.10 port 51022 ssh2\n');
    const name = 'evil\u001b]8;;http:\\\\e\u0007\u202eqwe.yml';
    writeFileSync(path.join(rules, name), `title: ${JSON.stringify(`[x](http://e) \u001b[31m @user #123`)}\nid: ${JSON.stringify('\u001b[2J<script>')}\nlogsource:\n    product: linux\n`);
    const r = await forensicMain(['analyze', 'auth.log', '--rules', rules], { cwd: root, env: {} });
    expect(r.code, r.stderr).toBe(0);
    expectTerminalSafe(r.stderr, 'stderr');
    expectTerminalSafe(r.stdout, 'the Markdown report');
    expect(r.stderr).toContain('evil\\u001b]8;;http:\\\\e\\u0007\\u202eqwe.yml');
    const problemLines = r.stderr.split('\n').filter((l) => l.includes('evil'));
    expect(problemLines).toHaveLength(1);
    const html = marked.parse(r.stdout, { gfm: true, async: false });
    expect(html).not.toMatch(/<a\b|<img|<script/i);
    const seen = visibleText(marked.lexer(r.stdout));
    expect(seen).not.toMatch(/@[A-Za-z0-9]|#\d|[a-z]:\/\//i);
  }, 120_000);

  it('pkgscan import: a refused file whose name carries escapes and a line feed stays one line', async () => {
    const home = tempDir();
    const before = process.env['VITRINE_HOME'];
    process.env['VITRINE_HOME'] = home;
    try {
      const file = path.join(home, 'junk\u001b[31m\n\u202eevil\r.tgz');
      writeFileSync(file, 'not an archive');
      const db = openMemoryStore([pkgscanService]);
      const r = await pkgscanMain(['import', file], { stdin: Readable.from(['']), db });
      expect(r.code).toBe(1);
      expectTerminalSafe(r.stdout, 'stdout');
      expect(r.stdout.trimEnd().split('\n')).toHaveLength(1);
      expect(r.stdout).toMatch(/^refused\t.*junk\\u001b\[31m\\u000a\\u202eevil\\u000d\.tgz\t/);
      db.close();
    } finally {
      if (before === undefined) delete process.env['VITRINE_HOME'];
      else process.env['VITRINE_HOME'] = before;
    }
  });
});
