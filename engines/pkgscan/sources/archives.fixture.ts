// Test helpers of the package sources: release archives built in memory (npm tgz, sdist, wheel).
import { gzipSync } from 'node:zlib';
import { packTar } from 'modern-tar';
import * as fflate from 'fflate';

/** A gzip-compressed tar of the given files. The same files give the same bytes (fixed mtime), so a test that
 * stores one release twice sees one digest even when the clock ticks between the two builds. */
export async function tgz(files: Readonly<Record<string, string | Uint8Array>>): Promise<Uint8Array> {
  const entries = Object.entries(files).map(([name, body]) => {
    const data = typeof body === 'string' ? new TextEncoder().encode(body) : body;
    return { header: { name, size: data.byteLength, type: 'file' as const, mode: 0o644, mtime: new Date(0) }, body: data };
  });
  return new Uint8Array(gzipSync(await packTar(entries)));
}

/** An npm tarball (`package/package.json` + index.js). */
export function npmTarball(name: string, version: string, extra: Readonly<Record<string, unknown>> = {}): Promise<Uint8Array> {
  return tgz({ 'package/package.json': JSON.stringify({ name, version, main: 'index.js', ...extra }), 'package/index.js': 'module.exports = 1;\n' });
}

/** A PyPI sdist (`name-version/PKG-INFO`). */
export function sdist(name: string, version: string): Promise<Uint8Array> {
  const top = `${name.replace(/-/g, '_')}-${version}`;
  return tgz({ [`${top}/PKG-INFO`]: `Metadata-Version: 2.1\nName: ${name}\nVersion: ${version}\n`, [`${top}/setup.py`]: 'from setuptools import setup\nsetup()\n' });
}

/** A wheel (`name-version.dist-info/METADATA`). */
export function wheel(name: string, version: string): Uint8Array {
  const dist = `${name.replace(/-/g, '_')}-${version}.dist-info`;
  return fflate.zipSync({
    [`${dist}/METADATA`]: new TextEncoder().encode(`Metadata-Version: 2.1\nName: ${name}\nVersion: ${version}\n`),
    [`${dist}/WHEEL`]: new TextEncoder().encode('Wheel-Version: 1.0\nRoot-Is-Purelib: true\nTag: py3-none-any\n'),
    [`${name.replace(/-/g, '_')}/__init__.py`]: new TextEncoder().encode(''),
  });
}
