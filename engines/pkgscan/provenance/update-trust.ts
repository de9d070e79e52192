// Writes the shipped trust material (resources/pkgscan/trust/) from the TUF seeds @sigstore/tuf carries: `npx tsx engines/pkgscan/provenance/update-trust.ts [seeds.json]`.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const TUF_REPO = 'https://tuf-repo-cdn.sigstore.dev';

const seedsSchema = z.record(z.string(), z.object({ 'root.json': z.string(), targets: z.record(z.string(), z.string()) }));
const tufKeysSchema = z.object({
  keys: z.array(
    z.object({
      keyId: z.string(),
      keyUsage: z.string(),
      publicKey: z.object({ rawBytes: z.string(), keyDetails: z.string(), validFor: z.object({ start: z.string(), end: z.string().optional() }).optional() }),
    }),
  ),
});

/** The npm `/-/npm/v1/keys` document form of the registry keys the TUF target lists (one entry per key id, `expires` from its signatures usage). */
export function npmKeysDocument(tufKeysJson: string): { keys: { expires: string | null; keyid: string; keytype: string; scheme: string; key: string }[] } {
  const parsed = tufKeysSchema.parse(JSON.parse(tufKeysJson));
  const out: { expires: string | null; keyid: string; keytype: string; scheme: string; key: string }[] = [];
  for (const k of parsed.keys) {
    if (k.keyUsage !== 'npm:signatures' || out.some((o) => o.keyid === k.keyId)) continue;
    out.push({ expires: k.publicKey.validFor?.end ?? null, keyid: k.keyId, keytype: 'ecdsa-sha2-nistp256', scheme: 'ecdsa-sha2-nistp256', key: k.publicKey.rawBytes });
  }
  return { keys: out };
}

function main(): void {
  const seedsFile = process.argv[2] ?? path.join(repoRoot, 'node_modules', '@sigstore', 'tuf', 'seeds.json');
  const seeds = seedsSchema.parse(JSON.parse(readFileSync(seedsFile, 'utf8')));
  const repo = seeds[TUF_REPO];
  if (!repo) throw new Error('the seeds hold no public-good Sigstore repository');
  const trustedRoot = repo.targets['trusted_root.json'];
  const npmKeys = repo.targets['registry.npmjs.org%2Fkeys.json'];
  if (!trustedRoot || !npmKeys) throw new Error('the seeds lack trusted_root.json or the npm registry keys');
  const root = z.object({ signed: z.object({ version: z.number(), expires: z.string() }) }).parse(JSON.parse(Buffer.from(repo['root.json'], 'base64').toString('utf8')));
  const outDir = path.join(repoRoot, 'resources', 'pkgscan', 'trust');
  const rootText = Buffer.from(trustedRoot, 'base64').toString('utf8');
  JSON.parse(rootText);
  writeFileSync(path.join(outDir, 'trusted_root.json'), rootText.endsWith('\n') ? rootText : `${rootText}\n`);
  const keysText = Buffer.from(npmKeys, 'base64').toString('utf8');
  writeFileSync(path.join(outDir, 'npm-keys.json'), `${JSON.stringify(npmKeysDocument(keysText), null, 2)}\n`);
  writeFileSync(path.join(outDir, 'npm-keys.tuf.json'), keysText.endsWith('\n') ? keysText : `${keysText}\n`);
  const pkg = z.object({ version: z.string() }).parse(JSON.parse(readFileSync(path.join(path.dirname(seedsFile), 'package.json'), 'utf8')));
  process.stdout.write(`wrote trust material from @sigstore/tuf ${pkg.version} seeds (TUF root v${root.signed.version}, expires ${root.signed.expires})\n`);
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
