import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { VitrineError } from '../../core/errors.js';
import { loadKb } from '../kb/kb.js';
import { attribute, attributeTechniques, loadCalibration } from './attribute.js';
import { evaluateOnCampaigns } from './measure.js';

const kb = loadKb();

describe('actor attribution', () => {
  it('ranks a group first from its own technique profile, with a shortlist of 8 by default', () => {
    for (const gid of ['G0007', 'G0016', 'G0032']) {
      const own = [...kb.groupTechniques.get(gid)!];
      const a = attributeTechniques(own, kb);
      expect(a.shortlist).toHaveLength(8);
      expect(a.shortlist[0]!.id).toBe(gid);
      expect(a.shortlist[0]!.similarity).toBeGreaterThan(0.8);
      expect(a.shortlist.map((c) => c.score)).toEqual([...a.shortlist.map((c) => c.score)].sort((x, y) => y - x));
      expect(a.shortlist.map((c) => c.rank)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
      expect(a.calibrated).toBe(false);
      expect(a.shortlist.reduce((s, c) => s + c.probability, 0)).toBeCloseTo(1, 3);
    }
  });

  it('weighs rare techniques more: one rare shared technique beats one common one', () => {
    const rare = [...kb.techniqueGroupCount.entries()].filter(([, n]) => n === 1).map(([t]) => t).sort()[0]!;
    const owner = [...kb.groupTechniques.entries()].find(([, s]) => s.has(rare))![0];
    const a = attributeTechniques([rare, 'T1059.001'], kb, { shortlist: 3 });
    expect(a.shortlist[0]!.id).toBe(owner);
    expect(a.shortlist[0]!.shared_techniques[0]).toBe(rare);
  });

  it('extracts techniques from text and applies a calibration map', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'attrib-cal-'));
    const file = path.join(dir, 'map.json');
    writeFileSync(file, JSON.stringify({ method: 'platt', a: 10, b: -5 }));
    const calibration = loadCalibration(file);
    const text = 'The group used spearphishing attachments (T1566.001), PowerShell (T1059.001), Mimikatz and scheduled tasks, with rundll32.';
    const a = attribute(text, kb, { shortlist: 3, calibration });
    expect(a.techniques).toEqual(expect.arrayContaining(['T1566.001', 'T1059.001', 'T1003.001', 'T1053.005', 'T1218.011']));
    expect(a.calibrated).toBe(true);
    for (const c of a.shortlist) expect(c.probability).toBeCloseTo(1 / (1 + Math.exp(-(10 * c.score - 5))), 2);
  });

  it('reports an empty shortlist with a warning when nothing is found, and refuses bad options', () => {
    const a = attribute('Nothing to see here.', kb);
    expect(a.shortlist).toEqual([]);
    expect(a.warnings).toContain('no known technique was found, so no actor can be ranked');
    expect(() => attributeTechniques(['T1059'], kb, { shortlist: 0 })).toThrow(VitrineError);
    const dir = mkdtempSync(path.join(tmpdir(), 'attrib-cal-bad-'));
    writeFileSync(path.join(dir, 'm.json'), '{"method":"isotonic","x":[2,1],"y":[0,1]}');
    expect(() => loadCalibration(path.join(dir, 'm.json'))).toThrow(VitrineError);
  });

  it('leave-one-campaign-out: campaigns attributed to a group find it in the shortlist far above chance', () => {
    const r = evaluateOnCampaigns(kb);
    // Measured 22 campaigns, top-1 0.273, top-8 0.727 (chance for top-8: 8 of 170 groups, 0.047); see docs/attrib-analysis.md.
    expect(r.campaigns).toBe(22);
    expect(r.top1).toBeGreaterThanOrEqual(0.2);
    expect(r.top_shortlist).toBeGreaterThanOrEqual(0.6);
  });
});
