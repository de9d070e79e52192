// The hostile inputs of the hardening round, as requests against a pkgscan server (tests and `npm run bench -- hardening`):
// each must finish or be refused while /health keeps answering.
import { gzipSync } from 'node:zlib';
import { buildTar } from '../../core/archive/build.fixture.js';

export interface StallInput {
  readonly name: string;
  /** Statuses that mean "finished" or "refused with a clear error" for this input. */
  readonly accept: readonly number[];
  readonly send: (api: string, token: string, projectId: string) => Promise<Response>;
}

const json = (api: string, token: string, path: string, body: unknown): Promise<Response> =>
  fetch(`${api}${path}`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
const raw = (api: string, token: string, path: string, body: Uint8Array): Promise<Response> =>
  fetch(`${api}${path}`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/octet-stream' }, body });

const scan = (files: Record<string, string>) => (api: string, token: string, projectId: string): Promise<Response> => json(api, token, `/projects/${projectId}/scans`, { files });

function laughs(levels: number, last: string): string {
  const lines = ['a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]'];
  for (let i = 1; i < levels; i++) lines.push(`${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(10).fill(`*${String.fromCharCode(96 + i)}`).join(', ')}]`);
  lines.push(last.replace('ALIAS', `*${String.fromCharCode(96 + levels)}`));
  return lines.join('\n');
}

/** An OSV array that expands about 100 MB from a few hundred KB of concatenated gzip members. */
function osvBomb(): Uint8Array {
  const rec = JSON.stringify({ id: 'GHSA-zzzz-zzzz-zzzz', modified: '2025-01-01T00:00:00Z', affected: [{ package: { ecosystem: 'npm', name: 'x' } }] });
  const chunk = gzipSync(Buffer.from(`${Array(10_000).fill(rec).join(',')},`));
  return Buffer.concat([gzipSync(Buffer.from('[')), ...Array<Buffer>(100).fill(chunk), gzipSync(Buffer.from(`${rec}]`))]);
}

/** A gzipped docker save whose layer is 64 MiB of zeros. */
function imageBomb(): Uint8Array {
  const layer = buildTar([{ name: 'zero.bin', data: new Uint8Array(64 * 1024 * 1024) }]);
  const save = buildTar([
    { name: 'manifest.json', data: JSON.stringify([{ Config: 'c.json', Layers: ['l.tar'] }]) },
    { name: 'c.json', data: JSON.stringify({ config: {}, rootfs: { diff_ids: [] } }) },
    { name: 'l.tar', data: layer },
  ]);
  return gzipSync(save);
}

export function stallInputs(): StallInput[] {
  const goMod = `module example.com/x\n\ngo 1.21\n\nrequire (\n${Array.from({ length: 15_000 }, (_, i) => `\tgithub.com/o${i}/r${i} v1.0.${i}\n`).join('')})\n`;
  const requirements = Array.from({ length: 55_000 }, (_, i) => `p${i}==1.0.${i % 100}\n`).join('');
  // built before anything is sent, so building them never holds the loop of a server in the same process
  const osv = osvBomb();
  const image = imageBomb();
  return [
    { name: 'go.mod with 15,000 requires', accept: [201], send: scan({ 'go.mod': goMod }) },
    { name: 'requirements.txt with 55,000 lines', accept: [201, 413], send: scan({ 'requirements.txt': requirements }) },
    { name: 'compose billion laughs', accept: [201], send: scan({ 'compose.yaml': laughs(9, 'services:\n  web:\n    image: x:1\n    command: ALIAS') }) },
    { name: 'pnpm-lock billion laughs', accept: [201], send: scan({ 'pnpm-lock.yaml': laughs(9, "lockfileVersion: '9.0'\npackages:\n  x@1.0.0:\n    resolution: ALIAS") }) },
    { name: 'OSV gzip bomb (100 MB array)', accept: [201, 413, 422], send: (api, token) => raw(api, token, '/vulnerabilities/import?filename=osv.json.gz', osv) },
    { name: 'gzipped docker save, 64 MiB layer', accept: [201, 413, 422], send: (api, token) => raw(api, token, '/containers/scans', image) },
  ];
}

/**
 * One health request; a kept-alive socket the server closed as this request left (its idle timeout, reached when the
 * client is slow under load) is the client's race, not the server's answer, so such a request is made again once.
 */
export async function healthOnce(url: string): Promise<number> {
  const once = async (): Promise<number> => {
    const r = await fetch(url);
    await r.arrayBuffer();
    return r.status;
  };
  try {
    return await once();
  } catch (err) {
    const code = (err as { cause?: { code?: string } }).cause?.code;
    if (code !== 'ECONNRESET' && code !== 'UND_ERR_SOCKET') throw err;
    return once();
  }
}
