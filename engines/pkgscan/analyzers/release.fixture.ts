// Test helper only: builds a PackageRelease from in-memory files for the rule tests (corpus archives go through package/open.ts's openRelease).
import { createHash } from 'node:crypto';
import type { DeclaredMetadata, PackageRelease, ReleaseFile, ScanEcosystem } from '../package/types.js';

/** A release made of in-memory text files, for rule tests. */
export function releaseOf(ecosystem: ScanEcosystem, files: Record<string, string | Uint8Array>, meta: Partial<DeclaredMetadata> = {}): PackageRelease {
  const rf: ReleaseFile[] = Object.entries(files).map(([p, v]) => {
    const data = typeof v === 'string' ? new TextEncoder().encode(v) : v;
    return { path: p, archivePath: p, size: data.length, sha256: createHash('sha256').update(data).digest('hex'), data, executable: false };
  });
  const metadata: DeclaredMetadata = { name: 'sample', version: '1.0.0', description: 'A sample package for tests', maintainers: [], scripts: {}, dependencies: {}, entryPoints: [], ...meta };
  return { ecosystem, name: metadata.name, version: metadata.version, kind: ecosystem === 'npm' ? 'npm-tgz' : 'sdist-tar', filename: 'sample', sha256: '', size: 0, files: rf, metadata, archiveIssues: [], complete: true, identitySource: 'metadata' };
}
