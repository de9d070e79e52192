// Pure helpers of the Store tab: which ecosystem an archive name implies, which files are worth sending.
export type Ecosystem = 'npm' | 'pypi';

/** npm packs `.tgz`; PyPI ships wheels (`.whl`) and sdists (`.tar.gz`, `.zip`, old `.tar.bz2`). Null when the name says nothing. */
export function ecosystemOf(filename: string): Ecosystem | null {
  const n = filename.toLowerCase();
  if (n.endsWith('.tgz')) return 'npm';
  if (n.endsWith('.whl') || n.endsWith('.tar.gz') || n.endsWith('.zip') || n.endsWith('.tar.bz2')) return 'pypi';
  return null;
}

/** Why a file is not sent (null when it may be): not an archive name, empty, or over the limit. */
export function refusal(file: { name: string; size: number }, maxBytes: number): string | null {
  if (ecosystemOf(file.name) === null) return 'not a package archive (.tgz, .whl, .tar.gz, .zip)';
  if (file.size === 0) return 'empty file';
  if (file.size > maxBytes) return `larger than the ${Math.round(maxBytes / 1048576)} MiB upload limit`;
  return null;
}

/** The file name as the import route accepts it (letters, digits and `._+!~-`, starting with a letter or digit): anything else becomes `_`. */
export function safeFilename(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? name;
  const cleaned = base.replace(/[^A-Za-z0-9._+!~-]/g, '_').replace(/^[^A-Za-z0-9]+/, '').slice(0, 255);
  return cleaned || 'archive';
}
