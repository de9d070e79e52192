// Explanations in analyst terms: families that add up to the drivers, with the file's own evidence; tagged imports; the signature in the result.
import { describe, expect, it } from 'vitest';
import { analyze } from './analyze.js';
import { identity, signedPe } from './authenticode/sign.fixture.js';
import { familySamples } from './corpus.js';
import { loadModel } from './model.js';
import { buildPe } from './pe/writer.js';
import { defaultResourcesDir } from './resources.js';
import path from 'node:path';

const model = loadModel(path.join(defaultResourcesDir(), 'petriage', 'linear-demo.json'));

describe('explanation families', () => {
  const samples = familySamples(1, 2024);

  it('family contributions add up to the margin less the base value, largest first, with no hashed names', () => {
    expect.hasAssertions();
    for (const s of samples) {
      const r = analyze(s.bytes, model);
      const fams = r.explanation.families;
      expect(fams.length).toBeGreaterThan(0);
      const sum = fams.reduce((n, f) => n + f.contribution, 0);
      expect(sum).toBeCloseTo(r.drivers.margin - r.drivers.baseValue, 4);
      for (let i = 1; i < fams.length; i++) expect(Math.abs(fams[i]!.contribution)).toBeLessThanOrEqual(Math.abs(fams[i - 1]!.contribution) + 1e-12);
      for (const f of fams) {
        expect(f.name).not.toMatch(/#\d+/);
        for (const e of f.evidence) expect(e).not.toMatch(/#\d+/);
        expect(f.features).toBeGreaterThan(0);
      }
    }
  });

  it('imports of a fired capability form a family named after it, with dll!Function evidence', () => {
    const s = samples.find((x) => x.family === 'hollowpoint')!;
    const r = analyze(s.bytes, model);
    const injection = r.explanation.families.find((f) => f.id === 'imports:injection');
    expect(injection?.name).toMatch(/^Imports used for /);
    expect(injection?.evidence.some((e) => /^[^!]+\.dll!\w+$/i.test(e))).toBe(true);
    expect(r.importTags.some((t) => t.tags.includes('injection'))).toBe(true);
  });

  it('section entropy names the sections with their entropy; byte distribution gives the file entropy', () => {
    const r = analyze(samples[0]!.bytes, model);
    const sec = r.explanation.families.find((f) => f.id === 'section-entropy');
    if (sec) for (const e of sec.evidence) expect(e).toMatch(/bits\/byte$/);
    const bytes = r.explanation.families.find((f) => f.id === 'byte-distribution');
    expect(bytes?.evidence[0]).toMatch(/^whole-file entropy \d\.\d\d bits\/byte$/);
  });
});

describe('counts in the evidence', () => {
  it('a count of one reads in the singular (1 imported function, 1 section, 1 export, 1 printable string)', () => {
    const r = analyze(buildPe({ imports: [{ dll: 'KERNEL32.dll', symbols: ['ExitProcess'] }] }), model);
    const evidence = r.explanation.families.flatMap((f) => f.evidence);
    expect(evidence).toContain('1 imported function');
    for (const s of familySamples(1, 2024)) evidence.push(...analyze(s.bytes, model).explanation.families.flatMap((f) => f.evidence));
    for (const e of evidence) expect(e).not.toMatch(/^1 (sections|printable strings|imported functions|exports)$/);
  });
});

describe('the result\'s summary', () => {
  it('gives the overlay its entropy and the headers theirs', () => {
    let seed = 1;
    const noise = new Uint8Array(8192).map(() => {
      seed = (seed * 1103515245 + 12345) >>> 0;
      return seed >>> 24;
    });
    const r = analyze(buildPe({ imports: [{ dll: 'KERNEL32.dll', symbols: ['ExitProcess'] }], overlay: noise }), model);
    expect(r.pe.overlay?.size).toBe(8192);
    expect(r.pe.overlay?.entropy).toBeGreaterThan(7.9);
    expect(r.pe.headers_entropy).toBeGreaterThan(0);
    expect(r.pe.headers_entropy).toBeLessThan(4);
    expect(analyze(buildPe({ imports: [{ dll: 'KERNEL32.dll', symbols: ['ExitProcess'] }] }), model).pe.overlay).toBeNull();
  });
});

describe('Authenticode in the triage result', () => {
  it('a signed file gets the signature in the result and a note that says what it proves', () => {
    const root = identity('Vitrine Test Root', '01');
    const leaf = identity('Vitrine Code Signer', '02', root);
    const pe = signedPe({ imports: [{ dll: 'KERNEL32.dll', symbols: ['ExitProcess'] }] }, { signer: leaf, extraCerts: [root] });
    const r = analyze(pe, model);
    expect(r.authenticode?.signatures[0]?.status).toBe('intact');
    expect(r.notes.some((n) => n.includes('"Vitrine Code Signer" matches the file') && n.includes('not checked against a trust store'))).toBe(true);
    const tampered = Uint8Array.from(pe);
    tampered[0x400] = (tampered[0x400]! + 1) & 0xff;
    const t = analyze(tampered, model);
    expect(t.authenticode?.signatures[0]?.status).toBe('digest_mismatch');
    expect(t.notes.some((n) => n.includes('does not match the file'))).toBe(true);
  });

  it('an unsigned file has no Authenticode result and no signature note', () => {
    const r = analyze(buildPe({ imports: [{ dll: 'KERNEL32.dll', symbols: ['ExitProcess'] }] }), model);
    expect(r.authenticode).toBeNull();
    expect(r.notes.join(' ')).not.toMatch(/signature/);
  });
});
