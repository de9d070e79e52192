// Archive digests for SBOM components: npm Subresource Integrity values and Cargo hex checksums as CycloneDX hashes.
import type { SbomComponent } from './types.js';

type Hash = NonNullable<SbomComponent['hashes']>[number];

const SRI: Readonly<Record<string, Hash['alg']>> = { sha1: 'SHA-1', sha256: 'SHA-256', sha384: 'SHA-384', sha512: 'SHA-512' };
const HEX_LENGTH: Readonly<Record<number, Hash['alg']>> = { 40: 'SHA-1', 64: 'SHA-256', 96: 'SHA-384', 128: 'SHA-512' };

/** `sha512-<base64>` (npm integrity, several separated by spaces) or a bare hex digest -> hex hashes; anything else is skipped. */
export function hashesFromIntegrity(values: readonly string[]): Hash[] {
  const out: Hash[] = [];
  for (const v of values)
    for (const part of v.trim().split(/\s+/)) {
      const sri = /^(sha1|sha256|sha384|sha512)-([A-Za-z0-9+/=]+)$/.exec(part);
      if (sri) {
        const hex = Buffer.from(sri[2] as string, 'base64').toString('hex');
        const alg = SRI[sri[1] as string];
        if (alg !== undefined && HEX_LENGTH[hex.length] === alg) out.push({ alg, content: hex });
        continue;
      }
      const bare = /^(?:sha256:)?([0-9a-f]{40}|[0-9a-f]{64}|[0-9a-f]{96}|[0-9a-f]{128})$/.exec(part);
      const alg = bare ? HEX_LENGTH[(bare[1] as string).length] : undefined;
      if (bare && alg !== undefined) out.push({ alg, content: bare[1] as string });
    }
  const seen = new Set<string>();
  return out.filter((h) => !seen.has(h.alg + h.content) && seen.add(h.alg + h.content) !== undefined);
}
