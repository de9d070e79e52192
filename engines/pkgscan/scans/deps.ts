// What package scans are wired to in a running service: the platform's job runner, the configured sources, the advisory store.
import type { Platform } from '../platform.js';
import { sourcesFromConfig } from '../sources/resolve.js';
import type { ScanDeps } from './scan.js';
import { assessRelease } from '../vulns/advisories.js';

export function scanDeps(p: Platform): ScanDeps {
  return {
    jobs: p.jobs,
    // mirror downloads are identified in the service's workers, never parsed in the serving process
    sources: () => sourcesFromConfig(p.store, p.dataDir, process.env, { jobs: p.jobs }),
    vulnerabilities: (ecosystem, name, version) => assessRelease(p, ecosystem, name, version),
    internalNamespaces: p.config.internalNamespaces,
  };
}
