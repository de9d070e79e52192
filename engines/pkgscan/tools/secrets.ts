// The built-in `secrets` analyzer (no tool needed): high-confidence credential formats published inside a package, reported redacted.
import type { ScanFinding, Severity } from '../../core/contracts/pkgscan.js';
import type { Analyzer, AnalyzerOutput } from '../analyzers/types.js';
import type { PackageRelease } from '../package/types.js';
import { boundMatch, DEFAULT_MAX_FINDINGS, lineAt } from './common.js';

export const SECRETS_ANALYZER = 'secrets';

/** Files past this size are not searched (bundles and data files; the tools scan them when installed). */
const MAX_FILE_BYTES = 8 * 1024 * 1024;

interface SecretPattern {
  readonly code: string;
  readonly title: string;
  readonly severity: Severity;
  readonly re: RegExp;
  /** Extra check on the matched token (placeholders, documentation examples). */
  readonly accept?: (token: string, text: string, end: number) => boolean;
}

/** Random-looking: enough distinct characters, not a documented example, not a run of one character. */
function looksRandom(body: string): boolean {
  if (/example|sample|dummy|placeholder|xxxxxx|000000|123456/i.test(body)) return false;
  return new Set(body).size >= Math.min(10, Math.floor(body.length / 2));
}

export const SECRET_PATTERNS: readonly SecretPattern[] = [
  { code: 'secret_aws_access_key', title: 'AWS access key id', severity: 'high', re: /\b(AKIA[0-9A-Z]{16})\b/g, accept: (t) => looksRandom(t.slice(4)) },
  { code: 'secret_github_token', title: 'GitHub token', severity: 'high', re: /\b(gh[pousr]_[A-Za-z0-9]{36})\b/g, accept: (t) => looksRandom(t.slice(4)) },
  { code: 'secret_github_token', title: 'GitHub fine-grained personal access token', severity: 'high', re: /\b(github_pat_[A-Za-z0-9]{22}_[A-Za-z0-9]{59})\b/g, accept: (t) => looksRandom(t.slice(11)) },
  { code: 'secret_npm_token', title: 'npm access token', severity: 'high', re: /\b(npm_[A-Za-z0-9]{36})\b/g, accept: (t) => looksRandom(t.slice(4)) },
  { code: 'secret_slack_token', title: 'Slack token', severity: 'high', re: /\b(xox[baprs]-[0-9]{6,}-[0-9A-Za-z-]{8,})\b/g, accept: (t) => looksRandom(t.slice(5)) },
  {
    code: 'secret_private_key',
    title: 'Private key (PEM)',
    severity: 'medium',
    re: /-----BEGIN ((?:RSA|EC|DSA|OPENSSH|ENCRYPTED|PGP) )?PRIVATE KEY( BLOCK)?-----/g,
    // A key body must follow: the header alone appears in parsers and documentation.
    accept: (_t, text, end) => /^[\s\\rn"'+,]*(?:[A-Za-z0-9-]+: [^\n]*\n)*[\s\\rn"'+,]*[A-Za-z0-9+/=]{60,}/.test(text.slice(end, end + 400)),
  },
];

/** `ghp_abcd…` with the length: enough to recognise a token, never enough to use it. */
export function redact(token: string): string {
  if (token.startsWith('-----BEGIN')) return token;
  const keep = Math.min(8, Math.floor(token.length / 4));
  return `${token.slice(0, keep)}… (${token.length} characters, redacted)`;
}

/** Secrets in one file's bytes. */
export function findSecrets(path: string, data: Uint8Array): ScanFinding[] {
  if (data.length > MAX_FILE_BYTES) return [];
  const text = Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('latin1');
  const out: ScanFinding[] = [];
  const seen = new Set<string>();
  for (const p of SECRET_PATTERNS) {
    p.re.lastIndex = 0;
    for (const m of text.matchAll(p.re)) {
      const token = m[0];
      const end = (m.index ?? 0) + token.length;
      if (p.accept && !p.accept(token, text, end)) continue;
      const key = `${p.code}\0${token}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push({
        code: p.code,
        severity: p.severity,
        category: 'tool',
        title: `${p.title} published in the package`,
        file: path,
        line: lineAt(data, m.index ?? 0),
        match: boundMatch(redact(token)),
        technique: 'T1552.001',
        analyzer: SECRETS_ANALYZER,
      });
    }
  }
  return out;
}

/** Always available: our own patterns for token formats that are almost never anything but a credential. */
export function secretsAnalyzer(options: { readonly maxFindings?: number } = {}): Analyzer {
  const max = options.maxFindings ?? DEFAULT_MAX_FINDINGS;
  return {
    name: SECRETS_ANALYZER,
    version: '1.0.0',
    analyze(release: PackageRelease): AnalyzerOutput {
      const findings: ScanFinding[] = [];
      let skipped = 0;
      for (const f of release.files) {
        if (f.data === undefined) continue;
        if (f.data.length > MAX_FILE_BYTES) {
          skipped++;
          continue;
        }
        findings.push(...findSecrets(f.path, f.data));
      }
      const note: string[] = [];
      if (skipped > 0) note.push(`${skipped} files over ${MAX_FILE_BYTES / 1024 / 1024} MiB not searched`);
      if (findings.length > max) note.push(`${findings.length - max} further findings not kept`);
      return { findings: findings.slice(0, max), status: 'ok', ...(note.length > 0 ? { message: note.join('; ') } : {}) };
    },
  };
}
