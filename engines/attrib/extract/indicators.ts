// Indicator extraction with character spans: IPs (with CIDR), domains, URLs, e-mail, hashes, CVEs, file paths, registry keys, defanged forms refanged; known false positives of each pattern filtered out.
import { createRequire } from 'node:module';
import { isIPv4, isIPv6 } from 'node:net';
import type { AttribIndicatorType, IndicatorSpan } from '../../core/contracts/attrib.js';
import { trimEndChars } from '../../core/linear-text.js';
import { originalSpan, refang } from './refang.js';

const require = createRequire(import.meta.url);
/** IANA's list of top-level domains (npm `tlds`), lower case. */
const TLDS: ReadonlySet<string> = new Set((require('tlds') as string[]).map((t) => t.toLowerCase()));

/**
 * Top-level domains that are also common file extensions: `setup.py`, `invoice.one`, `notes.md`, `run.sh`, `archive.zip`.
 * A bare name ending in one is taken for a file, not a domain, unless it was written defanged.
 */
const FILE_LIKE_TLDS: ReadonlySet<string> = new Set(
  [
    'zip', 'mov', 'py', 'sh', 'pl', 'rs', 'md', 'ps', 'so', 'cc', 'ws', 'one', 'app', 'bin', 'cab', 'dat', 'run', 'exe', 'dll', 'doc', 'docx', 'xls', 'pdf',
    'js', 'vbs', 'bat', 'cmd', 'ps1', 'lnk', 'iso', 'img', 'hta', 'jar', 'apk', 'msi', 'sys', 'tmp', 'log', 'txt', 'ini', 'cfg', 'conf', 'json', 'xml',
    'html', 'htm', 'php', 'asp', 'aspx', 'jsp', 'png', 'jpg', 'gif', 'rar', 'gz', 'tar', 'tgz', 'csv', 'rtf', 'zipx', 'mp3', 'mp4', 'avi', 'wav', 'bak',
    'db', 'sql', 'dmg', 'pkg', 'deb', 'rpm', 'ko', 'go', 'rb', 'java', 'class', 'cs', 'vb', 'vba', 'ts', 'tv', 'me', 'top', 'sx', 'to', 'im', 'is', 'it',
    'in', 'as', 'at', 'be', 'do', 'no', 'on', 'or', 'us', 'so', 'an', 'id', 'my', 'new', 'net'
  ].filter((t) => TLDS.has(t) && !['net', 'to', 'me', 'top', 'tv', 'in', 'us', 'id', 'my', 'it', 'is', 'at', 'be', 'no', 'im'].includes(t)),
);

/** Words that, right before a dotted quad, make it a version number rather than an address. */
const VERSION_CONTEXT = /(?:\bv|\bversion|\bver\.?|\bbuild|\brelease|\brelease\s+v|\bupdate|\bpatch|\bfirmware|\bkb|\bsp|\bos|\bwindows(?:\s+\d+)?|\bios|\bchrome|\bfirefox|\bagent|\bclient|\bserver)\s*:?\s*$/i;

const URL_RE = /\b(?:https?|ftp|sftp|ftps|tcp|udp|smb|wss?|file):\/\/[^\s<>"'`{}|\\^\u00a0\u200b\u2018\u2019\u201c\u201d]+/gi;
const EMAIL_RE = /(?<![\w.+-])[A-Za-z0-9][A-Za-z0-9._%+-]{0,63}@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}(?![\w-]|\.[A-Za-z0-9])/g;
const IPV4_RE = /(?<![\w.])(?:\d{1,3}\.){3}\d{1,3}(?:\/\d{1,2})?(?![\w]|\.\d|\/\d)/g;
const IPV6_RE = /(?<![\w:.])(?:[0-9A-Fa-f]{0,4}:){2,7}(?:[0-9A-Fa-f]{1,4}|(?:\d{1,3}\.){3}\d{1,3})?(?:\/\d{1,3})?(?![\w:]|\.\w)|(?<![\w:.])::(?![\w:.])/g;
const DOMAIN_RE = /(?<![\w@.\\/-])(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}(?![\w-]|\.[A-Za-z0-9]|\\|\/\w)/g;
const HASH_RE = /(?<![\w$-])(?:[0-9a-fA-F]{128}|[0-9a-fA-F]{64}|[0-9a-fA-F]{40}|[0-9a-fA-F]{32})(?![\w$-])/g;
const CVE_RE = /\bCVE-\d{4}-\d{4,7}\b/gi;
// A drive, a UNC share, or an environment variable, then backslash-separated parts; `Program Files` and friends may hold a space.
const WINPATH_RE =
  /(?<![\w\\])(?:[A-Za-z]:\\|\\\\[\w.$-]+\\|%[A-Za-z_][\w()]*%\\)(?:(?:Program Files(?: \(x86\))?|Documents and Settings|Common Files|Application Data|Local Settings|Start Menu|Windows NT|Internet Explorer|Windows Defender|[^\\/:*?"<>|\s,;()\u2018\u2019\u201c\u201d]+)\\)*[^\\/:*?"<>|\s,;()\u2018\u2019\u201c\u201d]*/g;
const POSIX_ROOTS = 'etc|tmp|var|usr|home|bin|sbin|opt|dev|proc|root|lib|lib64|Library|Users|System|private|Applications|mnt|srv|boot|run|sys';
const POSIXPATH_RE = new RegExp(`(?<![\\w.:/~\\\\-])(?:~|/(?:${POSIX_ROOTS}))(?:/[\\w.@%+=-]+)+/?|(?<![\\w.:/~\\\\-])/(?:${POSIX_ROOTS})/`, 'g');
const REGISTRY_RE =
  /\b(?:HKEY_LOCAL_MACHINE|HKEY_CURRENT_USER|HKEY_CLASSES_ROOT|HKEY_USERS|HKEY_CURRENT_CONFIG|HKLM|HKCU|HKCR|HKU|HKCC)(?::)?(?:\\(?:[^\\\s"'<>|,;()]+(?: [^\\\s"'<>|,;()]+)*)(?=\\))*(?:\\[^\\\s"'<>|,;()]*)?/g;

/** Punctuation that ends a sentence rather than an indicator, stripped from an indicator's end. */
const TRAILING_CHARS = '.,;:!?\'")]}>\u2019\u201d';

interface Candidate {
  readonly type: AttribIndicatorType;
  readonly value: string;
  /** Refanged-text span. */
  readonly start: number;
  readonly end: number;
  readonly priority: number;
}

/** A host name that looks like a registrable domain: labels, a real top-level domain. */
export function isPlausibleDomain(host: string): boolean {
  if (host.length > 253) return false;
  const labels = host.toLowerCase().split('.');
  if (labels.length < 2) return false;
  const tld = labels[labels.length - 1]!;
  if (!TLDS.has(tld)) return false;
  return labels.every((l) => l.length > 0 && l.length <= 63 && /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/.test(l));
}

function validIpv4(s: string): boolean {
  const [addr, prefix] = s.split('/');
  if (!isIPv4(addr!)) return false;
  if (addr!.split('.').some((o) => o.length > 1 && o.startsWith('0'))) return false;
  return prefix === undefined || Number(prefix) <= 32;
}

/**
 * Strips trailing punctuation from a URL, keeping a closing bracket that has its opening one inside. One pass from the
 * end with the brackets counted once (matching the punctuation and counting again per dropped character was quadratic in a
 * run of punctuation: 40,000 dots took a second).
 */
export function trimUrl(url: string): string {
  const counts = { '(': count(url, '('), ')': count(url, ')'), '[': count(url, '['), ']': count(url, ']') };
  let end = url.length;
  while (end > 0) {
    const last = url.charAt(end - 1);
    if (!TRAILING_CHARS.includes(last)) break;
    if ((last === ')' && counts['('] >= counts[')']) || (last === ']' && counts['['] >= counts[']'])) break;
    if (last === ')' || last === ']') counts[last]--;
    end--;
  }
  return end === url.length ? url : url.slice(0, end);
}

function count(s: string, ch: string): number {
  let n = 0;
  for (const c of s) if (c === ch) n++;
  return n;
}

/** The URL's host is a plausible domain or an IP; the rest has no obvious garbage. */
function validUrl(url: string): boolean {
  const m = /^[a-z]+:\/\/(?:[^@/?#]*@)?(\[[0-9a-f:.]+\]|[^/?#:]+)(?::(\d{1,5}))?(?:[/?#]|$)/i.exec(url);
  if (!m) return false;
  const host = m[1]!;
  if (m[2] !== undefined && Number(m[2]) > 65535) return false;
  if (host.startsWith('[')) return isIPv6(host.slice(1, -1));
  if (/^[\d.]+$/.test(host)) return validIpv4(host);
  if (host.toLowerCase() === 'localhost') return true;
  return isPlausibleDomain(host);
}

function collect(re: RegExp, text: string, each: (m: RegExpExecArray) => Candidate | undefined, out: Candidate[]): void {
  re.lastIndex = 0;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    if (m[0].length === 0) {
      re.lastIndex++;
      continue;
    }
    const c = each(m);
    if (c) out.push(c);
  }
}

/** Every indicator in `text`, spans into `text` (defanged notations included in the span), sorted by position. */
export function extractIndicators(text: string): IndicatorSpan[] {
  const r = refang(text);
  const t = r.text;
  const cands: Candidate[] = [];
  collect(URL_RE, t, (m) => {
    const url = trimUrl(m[0]);
    if (!validUrl(url)) return undefined;
    const scheme = url.slice(0, url.indexOf(':')).toLowerCase();
    return { type: 'url', value: scheme + url.slice(scheme.length), start: m.index, end: m.index + url.length, priority: 0 };
  }, cands);
  collect(EMAIL_RE, t, (m) => {
    const host = m[0].slice(m[0].indexOf('@') + 1);
    if (!isPlausibleDomain(host)) return undefined;
    return { type: 'email', value: m[0].toLowerCase(), start: m.index, end: m.index + m[0].length, priority: 1 };
  }, cands);
  collect(REGISTRY_RE, t, (m) => {
    const v = trimEndChars(m[0], TRAILING_CHARS);
    if (!v.includes('\\')) return undefined;
    return { type: 'registry_key', value: v, start: m.index, end: m.index + v.length, priority: 2 };
  }, cands);
  collect(WINPATH_RE, t, (m) => {
    const v = trimEndChars(m[0], TRAILING_CHARS);
    if (v.length < 4) return undefined;
    return { type: 'file_path', value: v, start: m.index, end: m.index + v.length, priority: 3 };
  }, cands);
  collect(POSIXPATH_RE, t, (m) => {
    const v = m[0].length > 2 ? trimEndChars(m[0], TRAILING_CHARS) : m[0];
    if (v === '~' || v.split('/').filter((p) => p !== '').length < 2) return undefined;
    return { type: 'file_path', value: v, start: m.index, end: m.index + v.length, priority: 3 };
  }, cands);
  collect(CVE_RE, t, (m) => ({ type: 'cve', value: m[0].toUpperCase(), start: m.index, end: m.index + m[0].length, priority: 4 }), cands);
  collect(HASH_RE, t, (m) => {
    const v = m[0];
    // A real digest has both digits and letters; a run of one kind is a number or a filler.
    if (!/[0-9]/.test(v) || !/[a-f]/i.test(v)) return undefined;
    const type: AttribIndicatorType = v.length === 32 ? 'md5' : v.length === 40 ? 'sha1' : v.length === 64 ? 'sha256' : 'sha512';
    return { type, value: v.toLowerCase(), start: m.index, end: m.index + v.length, priority: 4 };
  }, cands);
  collect(IPV4_RE, t, (m) => {
    if (!validIpv4(m[0])) return undefined;
    if (VERSION_CONTEXT.test(t.slice(Math.max(0, m.index - 24), m.index))) return undefined;
    return { type: 'ipv4', value: m[0], start: m.index, end: m.index + m[0].length, priority: 5 };
  }, cands);
  collect(IPV6_RE, t, (m) => {
    const [addr, prefix] = m[0].split('/');
    if (!isIPv6(addr!) || (prefix !== undefined && Number(prefix) > 128)) return undefined;
    // `::` alone and two-group forms such as `a::b` are too often something else.
    const groups = addr!.split(':').filter((g) => g !== '');
    if (groups.length < 2 || (groups.length < 3 && groups[0]!.length < 3)) return undefined;
    return { type: 'ipv6', value: m[0].toLowerCase(), start: m.index, end: m.index + m[0].length, priority: 5 };
  }, cands);
  collect(DOMAIN_RE, t, (m) => {
    const v = m[0];
    if (!isPlausibleDomain(v)) return undefined;
    const labels = v.split('.');
    const tld = labels[labels.length - 1]!.toLowerCase();
    const span = originalSpan(r, m.index, m.index + v.length);
    if (!span.defanged) {
      if (FILE_LIKE_TLDS.has(tld)) return undefined;
      // Code identifiers (System.Management.Automation, Invoke-Obfuscation.Net): a label with an inner capital.
      if (labels.some((l) => /[a-z][A-Z]/.test(l))) return undefined;
      // Two sentences run together (`the payload.In this case`): a capitalised last label after lower-case text.
      if (/^[A-Z][a-z]/.test(labels[labels.length - 1]!) && v !== v.toUpperCase()) return undefined;
    }
    return { type: 'domain', value: v.toLowerCase(), start: m.index, end: m.index + v.length, priority: 6 };
  }, cands);

  // Keep the higher-priority candidate where two overlap (a domain inside a URL, an IP inside a URL, a hash inside a path).
  cands.sort((a, b) => a.priority - b.priority || a.start - b.start || b.end - a.end);
  const kept: Candidate[] = [];
  const taken = new Uint8Array(t.length);
  for (const c of cands) {
    let free = true;
    for (let i = c.start; i < c.end && free; i++) if (taken[i] === 1) free = false;
    if (!free) continue;
    kept.push(c);
    taken.fill(1, c.start, c.end);
  }
  kept.sort((a, b) => a.start - b.start || a.end - b.end);
  return kept.map((c) => {
    const span = originalSpan(r, c.start, c.end);
    return { type: c.type, value: c.value, start: span.start, end: span.end, defanged: span.defanged };
  });
}
