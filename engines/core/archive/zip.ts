// Zip archives read in memory for readArchive: the one zip reader (zipfile.ts) over the bytes, its members and refusals collected with the archive limits.
import { StopReading, type Collector } from './collect.js';
import { memorySource, ZipArchive } from './zipfile.js';

export { hasZipEnd } from './zipfile.js';

/** Reads a zip archive into `out`. */
export function readZip(buf: Uint8Array, out: Collector): void {
  const zip = ZipArchive.open(memorySource(buf), { maxRatio: out.limits.maxRatio });
  for (const p of zip.problems) out.issue(p.code, p.message);
  for (const a of zip.ambiguities) out.ambiguity(a.code, a.message, a.path);
  try {
    for (const m of zip.members()) {
      out.checkCount();
      const member = { path: m.name, kind: m.kind, size: m.size, mode: m.mode, device: m.kind === 'other' };
      if (m.kind === 'symlink') {
        out.add({ ...member, linkTarget: zip.linkTarget(m) });
        continue;
      }
      if (m.kind !== 'file') {
        out.add(member);
        continue;
      }
      // The layout refusals come first; the ratio is weighed after the limits, as for every other format.
      if (m.refusal !== undefined && m.refusal.code !== 'ratio_too_high') {
        out.issue(m.refusal.code, m.refusal.message, m.name);
        out.add(member);
        continue;
      }
      if (!out.admit(m.name, m.size)) {
        out.add(member);
        continue;
      }
      const read = zip.read(m);
      if ('refusal' in read) {
        out.issue(read.refusal.code, read.refusal.message, m.name);
        out.add(member);
        continue;
      }
      out.add(member, read.data);
    }
  } catch (error) {
    if (error instanceof StopReading) return;
    throw error;
  }
}
