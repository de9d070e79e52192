// Host names that imitate a code host or a package registry (github-release-assets.com, objects.githubusercontent-cdn.com,
// github.com-releases.net, files-pythonhosted.org): where a hijacked installer fetches its "prebuilt binary" so that a
// reader of the URL sees GitHub or PyPI. An organisation's own mirror is a name under its own domain
// (pypi-mirror.corp.example, github.corp.example): only the registrable part of the name is read, and the real
// services' domains (and names under them) are never a look-alike.

/** The real domains of the services imitated, and the names under them. */
const REAL_DOMAINS: readonly string[] = [
  'github.com', 'githubusercontent.com', 'github.io', 'githubassets.com', 'github.dev', 'githubapp.com', 'github.blog', 'githubstatus.com',
  'githubcopilot.com', 'github.community', 'githubnext.com', 'ghcr.io', 'npmjs.com', 'npmjs.org', 'pythonhosted.org', 'pypi.org', 'pypi.io', 'python.org',
  'gitlab.com', 'gitlab.io', 'gitlab.net',
];
/** The brand words a look-alike registrable name carries, and the service each names. */
const BRANDS: readonly (readonly [string, string])[] = [
  ['githubusercontent', 'githubusercontent.com'], ['github', 'github.com'], ['npmjs', 'npmjs.com'], ['pythonhosted', 'pythonhosted.org'], ['pypi', 'pypi.org'], ['gitlab', 'gitlab.com'],
];
/** Second-level names under which countries sell names (`example.co.uk`): the registrable label is the one before. */
const SECOND_LEVEL = /^(?:co|com|net|org|gov|edu|ac)$/;

/** The service a host name imitates (`github.com`), or null when it is one of the services' own names or imitates none. */
export function imitatedCodeHost(host: string): string | null {
  const h = host.toLowerCase().replace(/\.$/, '');
  if (!/^[a-z0-9.-]{1,253}$/.test(h)) return null;
  if (REAL_DOMAINS.some((d) => h === d || h.endsWith(`.${d}`))) return null;
  // a real domain written at the start of a longer name: github.com-releases.net, github.com.cdn-assets.io
  for (const d of REAL_DOMAINS) if (h.startsWith(d) && /^[.-]/.test(h.slice(d.length))) return d;
  const labels = h.split('.');
  if (labels.length < 2) return null;
  const tld = labels.length - 1;
  const at = labels.length >= 3 && SECOND_LEVEL.test(labels[tld - 1] ?? '') && (labels[tld] ?? '').length === 2 ? tld - 2 : tld - 1;
  const registrable = labels[at] ?? '';
  for (const [brand, service] of BRANDS) if (registrable !== brand && registrable.includes(brand)) return service;
  return null;
}

/** `https://host[:port]/...` in text: the host of each URL. */
const URL_HOST = /\bhttps?:\/\/([a-z0-9][a-z0-9.-]{0,252})(?=[:/'"`\s?#)]|$)/gi;

/** Each URL of the text whose host imitates a code host or registry: where it starts, the URL's host and the service imitated. */
export function lookalikeHostsIn(text: string): { offset: number; host: string; imitates: string }[] {
  const out: { offset: number; host: string; imitates: string }[] = [];
  for (const m of text.matchAll(URL_HOST)) {
    const host = m[1] ?? '';
    const imitates = imitatedCodeHost(host);
    if (imitates !== null) out.push({ offset: m.index, host, imitates });
    if (out.length >= 20) break;
  }
  return out;
}
