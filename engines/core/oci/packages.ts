// Installed-package readers over image files: dpkg status and status.d, apk installed, Python dist-info/egg-info, node_modules package.json, os-release (the sources that use them: sources.ts).
import type { OsRelease, PackageRecord } from './types.js';

const dec = new TextDecoder('utf-8', { fatal: false });

export function text(bytes: Uint8Array): string {
  return dec.decode(bytes);
}

/** RFC 822-like stanzas separated by blank lines; continuation lines (leading space or tab) folded into their field. */
export function stanzas(body: string): Map<string, string>[] {
  const out: Map<string, string>[] = [];
  let cur = new Map<string, string>();
  let last: string | undefined;
  for (const line of body.split(/\r?\n/)) {
    if (line.trim() === '') {
      if (cur.size > 0) out.push(cur);
      cur = new Map();
      last = undefined;
      continue;
    }
    if ((line.startsWith(' ') || line.startsWith('\t')) && last !== undefined) {
      cur.set(last, `${cur.get(last) ?? ''}\n${line.trim()}`);
      continue;
    }
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    last = line.slice(0, colon).trim();
    // the first spelling of a field wins (headers never repeat in dpkg; PKG-INFO repeats only list fields we do not read)
    if (!cur.has(last)) cur.set(last, line.slice(colon + 1).trim());
  }
  if (cur.size > 0) out.push(cur);
  return out;
}

/** dpkg `status` (or one `status.d` file): installed packages only; `status.d` stanzas often carry no Status and count as installed. */
export function readDpkgStatus(bytes: Uint8Array, requireStatus = true): PackageRecord[] {
  const out: PackageRecord[] = [];
  for (const s of stanzas(text(bytes))) {
    const name = s.get('Package');
    const version = s.get('Version');
    if (name === undefined || version === undefined || name === '' || version === '') continue;
    const status = s.get('Status');
    // `want flag state`: only `install ok installed` (or `hold ok installed`) is on disk; config-files, half-installed and the like are not
    if (status !== undefined ? status.trim().split(/\s+/)[2] !== 'installed' : requireStatus) continue;
    let source: string | null = null;
    let sourceVersion: string | null = null;
    const src = s.get('Source');
    if (src !== undefined && src !== '') {
      const m = /^(\S+)(?:\s+\(([^)]+)\))?$/.exec(src.trim());
      if (m) {
        source = m[1] ?? null;
        sourceVersion = m[2] ?? null;
      }
    }
    out.push({ type: 'deb', name, version, arch: s.get('Architecture') ?? null, source, sourceVersion, license: null });
  }
  return out;
}

/** apk `lib/apk/db/installed`: one record per package, single-letter keys (P name, V version, A arch, o origin, L license). */
export function readApkInstalled(bytes: Uint8Array): PackageRecord[] {
  const out: PackageRecord[] = [];
  for (const block of text(bytes).split(/\r?\n\r?\n/)) {
    const f = new Map<string, string>();
    for (const line of block.split(/\r?\n/)) {
      if (line.length < 2 || line[1] !== ':') continue;
      const k = line[0] as string;
      if (!f.has(k)) f.set(k, line.slice(2));
    }
    const name = f.get('P');
    const version = f.get('V');
    if (name === undefined || version === undefined || name === '' || version === '') continue;
    const origin = f.get('o') ?? null;
    out.push({ type: 'apk', name, version, arch: f.get('A') ?? null, source: origin, sourceVersion: origin !== null ? version : null, license: f.get('L') ?? null });
  }
  return out;
}

/** Python `METADATA` / `PKG-INFO`: Name and Version headers (the body after the first blank line is ignored). */
export function readPythonMetadata(bytes: Uint8Array): PackageRecord | undefined {
  const head = text(bytes.subarray(0, Math.min(bytes.length, 256 * 1024))).split(/\r?\n\r?\n/)[0] ?? '';
  const s = stanzas(head)[0];
  const name = s?.get('Name');
  const version = s?.get('Version');
  if (name === undefined || version === undefined || name === '' || version === '') return undefined;
  return { type: 'pypi', name, version, arch: null, source: null, sourceVersion: null, license: s?.get('License-Expression') ?? s?.get('License')?.split('\n')[0] ?? null };
}

/** A node_modules package.json: name and version, or undefined for a manifest without both. */
export function readNodePackage(bytes: Uint8Array): PackageRecord | undefined {
  let doc: unknown;
  try {
    doc = JSON.parse(text(bytes));
  } catch {
    return undefined;
  }
  if (typeof doc !== 'object' || doc === null) return undefined;
  const d = doc as Record<string, unknown>;
  const name = d['name'];
  const version = d['version'];
  if (typeof name !== 'string' || typeof version !== 'string' || name === '' || version === '') return undefined;
  const license = typeof d['license'] === 'string' ? d['license'] : null;
  return { type: 'npm', name, version, arch: null, source: null, sourceVersion: null, license };
}

/** `/etc/os-release`: ID, VERSION_ID, PRETTY_NAME, and the OSV ecosystem of its packages. */
export function readOsRelease(bytes: Uint8Array): OsRelease | undefined {
  const v = new Map<string, string>();
  for (const line of text(bytes).split(/\r?\n/)) {
    const m = /^([A-Z_]+)=(.*)$/.exec(line.trim());
    if (m) v.set(m[1] as string, (m[2] as string).replace(/^(["'])(.*)\1$/, '$2'));
  }
  const id = v.get('ID');
  if (id === undefined || id === '') return undefined;
  const versionId = v.get('VERSION_ID') ?? null;
  return { id, versionId, prettyName: v.get('PRETTY_NAME') ?? null, osvEcosystem: osvEcosystemOf(id, versionId, v.get('VERSION') ?? '') };
}

/** OSV's ecosystem names for the distributions it covers: `Debian:12`, `Alpine:v3.19`, `Ubuntu:22.04:LTS`, `Rocky Linux:9`... */
export function osvEcosystemOf(id: string, versionId: string | null, version = ''): string | null {
  const major = versionId?.split('.')[0];
  switch (id.toLowerCase()) {
    case 'debian':
      return versionId !== null && /^\d+$/.test(major ?? '') ? `Debian:${major}` : 'Debian';
    case 'alpine': {
      const m = /^(\d+)\.(\d+)/.exec(versionId ?? '');
      return m ? `Alpine:v${m[1]}.${m[2]}` : 'Alpine';
    }
    case 'ubuntu':
      return versionId !== null ? `Ubuntu:${versionId}${/LTS/.test(version) ? ':LTS' : ''}` : 'Ubuntu';
    case 'rocky':
      return major !== undefined ? `Rocky Linux:${major}` : 'Rocky Linux';
    case 'almalinux':
      return major !== undefined ? `AlmaLinux:${major}` : 'AlmaLinux';
    case 'rhel':
      return 'Red Hat';
    case 'wolfi':
      return 'Wolfi';
    case 'chainguard':
      return 'Chainguard';
    case 'opensuse-leap':
      return versionId !== null ? `openSUSE:Leap ${versionId}` : 'openSUSE';
    default:
      return null;
  }
}
