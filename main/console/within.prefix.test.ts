// The Console's containment check against a sibling folder that shares the root's name as a prefix ("home" and
// "home-evil"): a working directory or a path argument there is outside the roots and is refused.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkArguments } from './arguments.js';
import { resolveCwd } from './executables.js';

const base = mkdtempSync(path.join(tmpdir(), 'vitrine-within-'));
const home = path.join(base, 'home');
const evil = path.join(base, 'home-evil');
const evidence = path.join(base, 'ev');
const evidenceSibling = path.join(base, 'ev2');
for (const d of [home, path.join(home, 'sub'), evil, evidence, evidenceSibling]) mkdirSync(d, { recursive: true });
symlinkSync(evil, path.join(home, 'link-out'));
afterAll(() => rmSync(base, { recursive: true, force: true }));
const roots = { dataDir: home, evidenceRoot: evidence };

describe('resolveCwd', () => {
  it('accepts the data folder itself and a folder inside it', () => {
    expect(resolveCwd(roots, undefined)).toBe(home);
    expect(resolveCwd(roots, 'sub')).toBe(path.join(home, 'sub'));
    expect(resolveCwd(roots, evidence)).toBe(evidence);
  });
  it('refuses a sibling whose name starts with the root name (home-evil, ev2)', () => {
    expect(() => resolveCwd(roots, evil)).toThrow('the working directory must be inside the data folder or the evidence root');
    expect(() => resolveCwd(roots, '../home-evil')).toThrow('the working directory must be inside the data folder or the evidence root');
    expect(() => resolveCwd(roots, evidenceSibling)).toThrow('the working directory must be inside the data folder or the evidence root');
  });
  it('refuses a link inside the data folder that leads to the sibling', () => {
    expect(() => resolveCwd(roots, 'link-out')).toThrow('the working directory must be inside the data folder or the evidence root');
  });
});

describe('checkArguments', () => {
  it('accepts paths inside the roots', () => {
    expect(() => checkArguments('forensic', ['analyze', '--out', path.join(home, 'sub', 'r.json')], home, roots)).not.toThrow();
    expect(() => checkArguments('forensic', ['analyze', path.join(evidence, 'a.evtx')], home, roots)).not.toThrow();
  });
  it('refuses a path argument in the sibling with the same prefix', () => {
    expect(() => checkArguments('forensic', ['analyze', '--out', path.join(evil, 'r.json')], home, roots)).toThrow('an output path must be inside the data folder or the evidence root');
    expect(() => checkArguments('forensic', ['analyze', `--out=${path.join(evil, 'r.json')}`], home, roots)).toThrow('must be inside the data folder or the evidence root');
    expect(() => checkArguments('forensic', ['analyze', path.join(evidenceSibling, 'a.evtx')], home, roots)).toThrow('a path argument must be inside the data folder or the evidence root');
    expect(() => checkArguments('forensic', ['analyze', '../home-evil/x'], home, roots)).toThrow('must be inside the data folder or the evidence root');
  });
});
