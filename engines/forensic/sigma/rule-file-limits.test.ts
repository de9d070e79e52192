// A rule file's bytes, whatever they are, give a rule set in bounded time: flow collections nested past the YAML
// parser's own stack limit are refused before it walks them (the forensic-sigma-rules fuzz target's entry).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEEP_FLOW_LEVEL, flowDepthOver, MAX_DEEP_FLOW_OPENINGS, MAX_FLOW_DEPTH, yamlDocuments } from './bundle.js';
import { loadSigmaRules, sigmaRuleSetFromTexts } from './index.js';

const rule = (extra: string): string =>
  `title: Deep\nid: 00000000-0000-4000-8000-0000000000de\nstatus: test\nlevel: high\nlogsource:\n    product: windows\n    category: process_creation\ndetection:\n${extra}    sel:\n        Image: x\n    condition: sel\n`;
const nested = (n: number, open: string, close: string): string => `${open.repeat(n)}1${close.repeat(n)}`;

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('flow collection depth', () => {
  it('flowDepthOver counts open brackets and braces against closed ones', () => {
    expect(flowDepthOver(nested(MAX_FLOW_DEPTH, '[', ']'), MAX_FLOW_DEPTH)).toBe(false);
    expect(flowDepthOver(nested(MAX_FLOW_DEPTH + 1, '[', ']'), MAX_FLOW_DEPTH)).toBe(true);
    expect(flowDepthOver(nested(MAX_FLOW_DEPTH + 1, '{a: ', '}'), MAX_FLOW_DEPTH)).toBe(true);
    expect(flowDepthOver('[]'.repeat(100_000), MAX_FLOW_DEPTH)).toBe(false);
  });

  it('a rule nesting flow collections past the limit is not YAML; a shallow one still parses', () => {
    expect(yamlDocuments(rule(`    deep: ${nested(MAX_FLOW_DEPTH + 1, '[', ']')}\n`))).toBeNull();
    expect(yamlDocuments(rule(`    deep: ${nested(20, '{a: ', '}')}\n`))).not.toBeNull();
  });

  it('flowDepthOver also counts the collections opened below DEEP_FLOW_LEVEL, in all', () => {
    const deepLine = (n: number): string => `${'['.repeat(DEEP_FLOW_LEVEL)}${nested(n, '[', ']')}${']'.repeat(DEEP_FLOW_LEVEL)}\n`;
    expect(flowDepthOver(deepLine(MAX_DEEP_FLOW_OPENINGS), MAX_FLOW_DEPTH)).toBe(true); // one line past MAX_FLOW_DEPTH
    expect(flowDepthOver(deepLine(200).repeat(Math.floor(MAX_DEEP_FLOW_OPENINGS / 200)), MAX_FLOW_DEPTH)).toBe(false);
    expect(flowDepthOver(deepLine(200).repeat(Math.floor(MAX_DEEP_FLOW_OPENINGS / 200) + 1), MAX_FLOW_DEPTH)).toBe(true);
    expect(flowDepthOver(`${'['.repeat(DEEP_FLOW_LEVEL)}1${']'.repeat(DEEP_FLOW_LEVEL)}\n`.repeat(100_000), MAX_FLOW_DEPTH)).toBe(false);
  });

  it('a rule of a thousand values each nested 230 brackets deep (467 KB, seconds of YAML parsing; YAML fuzzer) is not YAML', () => {
    const values = Array.from({ length: 1000 }, () => `        - CommandLine|contains: ${nested(230, '[', ']')}\n`).join('');
    expect(yamlDocuments(rule(`    deep:\n${values}`))).toBeNull();
    expect(yamlDocuments(rule(`    deep:\n${values.slice(0, values.length / 100)}`))).not.toBeNull();
  });

  it('a 400 KB rule file of nested flow maps is listed as skipped (not YAML), by file and by text', () => {
    const text = rule(`    deep: ${nested(100_000, '{a: ', '}')}\n`);
    const dir = mkdtempSync(path.join(tmpdir(), 'sigma-deep-'));
    dirs.push(dir);
    writeFileSync(path.join(dir, 'deep.yml'), text);
    const fromFile = loadSigmaRules({ sources: [{ name: 'user', path: dir }] });
    expect(fromFile.rules).toEqual([]);
    expect(fromFile.skipped.map((s) => s.reason)).toEqual(['not YAML']);
    expect(sigmaRuleSetFromTexts([{ source: 'u/deep.yml', text }]).skipped.map((s) => s.reason)).toEqual(['not YAML']);
  });
});

describe('log sources named after Object.prototype members', () => {
  it('are log sources the loaders do not produce: the rule is listed as inapplicable with its reason, the others load', () => {
    const source = (product: string, field: string, value: string): string =>
      `title: Odd ${value}\nstatus: test\nlevel: high\nlogsource:\n    product: ${product}\n    ${field}: ${value}\ndetection:\n    sel:\n        Image: x\n    condition: sel\n`;
    const texts = [
      ...['constructor', 'toString', '__proto__'].flatMap((w) => [source('windows', 'category', w), source('windows', 'service', w), source('linux', 'service', w)]),
      rule(''),
    ].map((text, i) => ({ source: `u/r${i}.yml`, text }));
    const set = sigmaRuleSetFromTexts(texts);
    expect(set.rules.map((r) => r.title)).toEqual(['Deep']);
    expect(set.skipped).toEqual([]);
    expect(set.inapplicable).toHaveLength(texts.length - 1);
    for (const s of set.inapplicable) expect(s.reason).toMatch(/has no known event log channel|is not produced by/);
  });
});
