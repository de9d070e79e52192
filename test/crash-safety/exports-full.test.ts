// Exports, reports and models written by the command lines when the disk is full: a clear message and the tool's failure
// exit code (never "internal error", never a usage error), and the file under the final name is the earlier one or the
// whole new one.
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main as attribMain } from '../../engines/attrib/cli.js';
import type { CliResult } from '../../engines/core/cli.js';
import { main as forensicMain } from '../../engines/forensic/cli.js';
import { main as provgateMain } from '../../engines/provgate/cli.js';
import { main as replayMain } from '../../engines/replay/cli.js';
import { smallDisk, tempDir } from './workstation.fixture.js';

const reports = tempDir('exports-reports');
writeFileSync(path.join(reports.dir, 'a.txt'), 'The actor used spearphishing attachments (T1566.001) and PowerShell (T1059.001) to run Cobalt Strike.');
writeFileSync(path.join(reports.dir, 'b.txt'), 'Mimikatz dumped LSASS memory (T1003.001); the actor moved laterally over SMB admin shares (T1021.002).');

interface Export {
  readonly tool: string;
  /** The tool's exit code for a failure (provgate's 1 means a blocking verdict, so its failures exit 2). */
  readonly failure: number;
  run(out: string): Promise<CliResult>;
}

const exportsUnderTest: readonly Export[] = [
  { tool: 'forensic demo --out', failure: 1, run: (out) => forensicMain(['demo', '--scenario', 'ransomware', '--top', '1', '--format', 'json', '--out', out], { env: {}, cwd: reports.dir }) },
  { tool: 'replay demo --out', failure: 1, run: (out) => replayMain(['demo', '--benign', '20', '--seed', '1', '--out', out]) },
  { tool: 'provgate synth', failure: 2, run: (out) => provgateMain(['synth', 'clean', out]) },
  { tool: 'provgate merge -o', failure: 2, run: (out) => provgateMain(['merge', path.join(reports.dir, 'clean.json'), '-o', out]) },
  { tool: 'attrib cluster --cypher', failure: 1, run: (out) => attribMain(['cluster', reports.dir, '--cypher', out]) },
];

const disk = smallDisk(1024);
// The envelopes provgate merge reads (beside the reports, which attrib cluster reads as text only).
await provgateMain(['synth', 'clean', path.join(reports.dir, 'clean.json')]);

const evidence = tempDir('exports-evidence');
writeFileSync(
  path.join(evidence.dir, 'auth.log'),
  Array.from({ length: 200 }, (_, i) => `Mar  3 10:${String(Math.floor(i / 60)).padStart(2, '0')}:${String(i % 60).padStart(2, '0')} web01 sshd[4242]: Failed password for root from 203.0.113.9 port ${40000 + i} ssh2\n`).join(''),
);

afterAll(() => {
  disk?.remove();
  reports.remove();
  evidence.remove();
});

describe('forensic analyze --ledger on a full disk', () => {
  const analyze = (ledger: string): Promise<CliResult> =>
    forensicMain(['analyze', 'auth.log', '--kind', 'authlog', '--year', '2024', '--no-sigma', '--format', 'summary', '--ledger', ledger], { cwd: evidence.dir, env: {} });

  it.runIf(disk !== undefined)('says there is no space left (exit 1; it said "the file is not a ledger store", exit 2), then writes a ledger that verifies once there is room', async () => {
    const d = disk!;
    const ledger = path.join(d.dir, 'case.sqlite');
    d.fill();
    try {
      const r = await analyze(ledger);
      expect(r.stderr).toMatch(/no space left/);
      expect(r.code).toBe(1);
    } finally {
      d.free();
    }
    const again = await analyze(ledger);
    expect(again.code).toBe(0);
    const verified = await forensicMain(['verify', ledger], { cwd: evidence.dir, env: {} });
    expect(verified.code).toBe(0);
    rmSync(ledger);
  }, 60_000);
});

describe.each(exportsUnderTest)('$tool on a full disk', ({ run, failure }) => {
  it('says there is no space left and exits with its failure code (/dev/full)', async () => {
    const r = await run('/dev/full');
    expect(r.stderr).toMatch(/no space left/);
    expect(r.code).toBe(failure);
  }, 60_000);

  it.runIf(disk !== undefined)('keeps the earlier file whole and leaves no temporary file; writes it once there is room', async () => {
    const d = disk!;
    const out = path.join(d.dir, 'export.out');
    writeFileSync(out, 'the earlier export\n');
    d.fill();
    try {
      const r = await run(out);
      expect(r.code).toBe(failure);
      expect(r.stderr).toMatch(/no space left/);
      expect(readFileSync(out, 'utf8')).toBe('the earlier export\n');
      expect(readdirSync(d.dir).sort()).toEqual(['export.out', 'filler']);
    } finally {
      d.free();
    }
    const again = await run(out);
    expect(again.code).toBe(0);
    expect(readFileSync(out, 'utf8')).not.toBe('the earlier export\n');
    expect(readdirSync(d.dir)).toEqual(['export.out']);
  }, 60_000);
});

describe('provgate keygen on a full disk', () => {
  it.runIf(disk !== undefined)('says there is no space left (exit 2, its failure code; it said "the key files cannot be written" as invalid input), leaves no key file, and makes the pair once there is room', async () => {
    const d = disk!;
    const prefix = path.join(d.dir, 'gate');
    const keyFiles = (): string[] => readdirSync(d.dir).filter((f) => f.startsWith('gate')).sort();
    d.fill();
    try {
      const r = await provgateMain(['keygen', prefix]);
      expect(r.stderr).toMatch(/no space left/);
      expect(r.code).toBe(2);
      expect(keyFiles()).toEqual([]);
    } finally {
      d.free();
    }
    const again = await provgateMain(['keygen', prefix]);
    expect(again.code).toBe(0);
    expect(keyFiles()).toEqual(['gate.key', 'gate.pub']);
    rmSync(`${prefix}.key`);
    rmSync(`${prefix}.pub`);
  }, 60_000);
});

describe('provgate output into a folder that does not exist', () => {
  it('says the output file cannot be written (a usage error), not that an input is missing, and writes nothing', async () => {
    const out = path.join(reports.dir, 'no-such-folder', 'out.json');
    for (const argv of [['synth', 'clean', out], ['merge', path.join(reports.dir, 'clean.json'), '-o', out]]) {
      const r = await provgateMain(argv);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/the output file cannot be written/);
      expect(r.stderr).not.toMatch(/an input/);
      expect(r.stderr).not.toContain(reports.dir);
    }
    expect(existsSync(path.dirname(out))).toBe(false);
  });
});
