// Credential formats in image files and config values: a ruleset in the class of Trivy's built-in secret rules (same rule ids), keyword-prefiltered, byte-capped, never echoing a secret.
import type { Severity } from '../../core/contracts/pkgscan.js';
import { PRIVATE_KEY, privateKeyMatches } from './private-key.js';

export interface SecretRule {
  /** Trivy's built-in rule id where Trivy has the rule. */
  readonly id: string;
  readonly title: string;
  readonly severity: Severity;
  /** Lower-case strings one of which must occur in the text before the regex runs (Trivy's keywords). */
  readonly keywords: readonly string[];
  /** Global regex; the `secret` group (or the whole match) is the credential. */
  readonly regex: RegExp;
  /**
   * For a rule whose matches begin with `prefix`, and whose later starts in one run of `run` characters fail whenever
   * the first start of that run fails (each reads the same run to the same end, from a later place): only the first
   * start of each run is tried. The regex alone would read the run again from every start (`sk-` repeated: quadratic).
   */
  readonly firstOfRun?: { readonly prefix: string; readonly run: RegExp };
  /** A reader of the rule's own that finds the regex's matches in one pass, where the regex alone backtracks. */
  readonly reader?: (text: string) => RegExpMatchArray[];
}

const B = '(?:^|[^0-9A-Za-z])';

/** The rules; ids follow aquasecurity/trivy pkg/fanal/secret/builtin-rules.go. */
export const SECRET_RULES: readonly SecretRule[] = [
  { id: 'aws-access-key-id', title: 'AWS access key id', severity: 'critical', keywords: ['akia', 'agpa', 'aida', 'aroa', 'aipa', 'anpa', 'anva', 'asia', 'a3t'], regex: new RegExp(`${B}(?<secret>(?:A3T[A-Z0-9]|AKIA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|ASIA)[A-Z2-7]{16})(?![0-9A-Za-z])`, 'g') },
  { id: 'aws-secret-access-key', title: 'AWS secret access key', severity: 'critical', keywords: ['secret'], regex: /aws[_-]?secret[_-]?(?:access[_-]?)?key["']?\s{0,30}(?::|=>|=)\s{0,30}["']?(?<secret>[A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])/gi },
  { id: 'github-pat', title: 'GitHub personal access token', severity: 'critical', keywords: ['ghp_'], regex: /(?<secret>ghp_[0-9A-Za-z]{36})/g },
  { id: 'github-oauth', title: 'GitHub OAuth access token', severity: 'critical', keywords: ['gho_'], regex: /(?<secret>gho_[0-9A-Za-z]{36})/g },
  { id: 'github-app-token', title: 'GitHub app token', severity: 'critical', keywords: ['ghu_', 'ghs_'], regex: /(?<secret>(?:ghu|ghs)_[0-9A-Za-z]{36})/g },
  { id: 'github-refresh-token', title: 'GitHub refresh token', severity: 'critical', keywords: ['ghr_'], regex: /(?<secret>ghr_[0-9A-Za-z]{76})/g },
  { id: 'github-fine-grained-pat', title: 'GitHub fine-grained personal access token', severity: 'critical', keywords: ['github_pat_'], regex: /(?<secret>github_pat_[A-Za-z0-9]{22}_[A-Za-z0-9]{59})/g },
  { id: 'gitlab-pat', title: 'GitLab personal access token', severity: 'critical', keywords: ['glpat-'], regex: /(?<secret>glpat-[0-9A-Za-z_-]{20})/g },
  { id: 'private-key', title: 'Private key', severity: 'high', keywords: ['-----begin'], regex: PRIVATE_KEY, reader: privateKeyMatches },
  { id: 'slack-access-token', title: 'Slack token', severity: 'high', keywords: ['xoxb-', 'xoxa-', 'xoxp-', 'xoxr-', 'xoxs-'], regex: /(?<secret>xox[baprs]-[0-9A-Za-z-]{10,72})/g },
  { id: 'slack-web-hook', title: 'Slack webhook', severity: 'medium', keywords: ['hooks.slack.com'], regex: /(?<secret>https:\/\/hooks\.slack\.com\/services\/[A-Za-z0-9+/]{43,56})/g },
  { id: 'stripe-secret-token', title: 'Stripe secret key', severity: 'critical', keywords: ['sk_live_', 'sk_test_'], regex: /(?<secret>sk_(?:live|test)_[0-9A-Za-z]{10,99})/g },
  { id: 'pypi-upload-token', title: 'PyPI upload token', severity: 'high', keywords: ['pypi-ageichlwas5wb3jn'], regex: /(?<secret>pypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,1000})/g },
  { id: 'npm-access-token', title: 'npm access token', severity: 'critical', keywords: ['npm_'], regex: new RegExp(`${B}(?<secret>npm_[A-Za-z0-9]{36})(?![A-Za-z0-9])`, 'g') },
  { id: 'gcp-service-account', title: 'Google Cloud service account key', severity: 'critical', keywords: ['service_account'], regex: /"type"\s*:\s*"(?<secret>service_account)"[\s\S]{0,2000}?"private_key"/g },
  { id: 'gcp-api-key', title: 'Google API key', severity: 'high', keywords: ['aiza'], regex: /(?<secret>AIza[0-9A-Za-z_-]{35})/g },
  { id: 'sendgrid-api-token', title: 'SendGrid API key', severity: 'medium', keywords: ['sg.'], regex: /(?<secret>SG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43})/g },
  { id: 'twilio-api-key', title: 'Twilio API key', severity: 'medium', keywords: ['sk'], regex: new RegExp(`${B}(?<secret>SK[0-9a-f]{32})(?![0-9A-Za-z])`, 'g') },
  { id: 'hugging-face-access-token', title: 'Hugging Face access token', severity: 'critical', keywords: ['hf_'], regex: new RegExp(`${B}(?<secret>hf_[A-Za-z]{34})(?![A-Za-z0-9])`, 'g') },
  { id: 'openai-api-key', title: 'OpenAI API key', severity: 'critical', keywords: ['t3blbkfj'], regex: /(?<secret>sk-[A-Za-z0-9_-]{20,}T3BlbkFJ[A-Za-z0-9_-]{20,})/g, firstOfRun: { prefix: 'sk-', run: /[A-Za-z0-9_-]/ } },
  { id: 'anthropic-api-key', title: 'Anthropic API key', severity: 'critical', keywords: ['sk-ant-'], regex: /(?<secret>sk-ant-(?:api03|admin01)-[A-Za-z0-9_-]{93}AA)/g },
  { id: 'alibaba-access-key-id', title: 'Alibaba Cloud access key id', severity: 'high', keywords: ['ltai'], regex: new RegExp(`${B}(?<secret>LTAI[A-Za-z0-9]{20})(?![A-Za-z0-9])`, 'g') },
  { id: 'digitalocean-pat', title: 'DigitalOcean token', severity: 'critical', keywords: ['dop_v1_', 'doo_v1_', 'dor_v1_'], regex: /(?<secret>do[opr]_v1_[a-f0-9]{64})/g },
  { id: 'age-secret-key', title: 'age secret key', severity: 'medium', keywords: ['age-secret-key-1'], regex: /(?<secret>AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58})/g },
  { id: 'dockerconfig-secret', title: 'Docker registry credentials', severity: 'high', keywords: ['"auth"'], regex: /"auths"\s*:\s*\{[\s\S]{0,500}?"auth"\s*:\s*"(?<secret>[A-Za-z0-9+/=]{8,})"/g },
  { id: 'jwt-token', title: 'JSON Web Token', severity: 'medium', keywords: ['eyj'], regex: /(?<secret>eyJ[A-Za-z0-9_-]{17,}\.eyJ[A-Za-z0-9_-]{17,}\.[A-Za-z0-9_-]{10,})/g, firstOfRun: { prefix: 'eyJ', run: /[A-Za-z0-9_-]/ } },
];

/** Values that are documentation, not credentials (AWS's own examples and placeholder runs). */
const PLACEHOLDER = /EXAMPLE|example|XXXXXXXX|xxxxxxxx|0000000000000000|<[a-z_-]+>/;

/** Paths whose text is documentation or test data (Trivy's built-in allow rules cover the same ground). */
const ALLOWED_PATH = /(?:^|\/)(?:usr\/share\/(?:doc|man|info|locale|i18n|zoneinfo)\/|usr\/include\/)|\.(?:md|rst|mo|po|pyc|map)$/;

export interface SecretHit {
  readonly rule: SecretRule;
  /** A masked prefix: a few leading characters then `****`; for private keys the BEGIN line, which is no secret. */
  readonly masked: string;
  readonly line: number;
}

export function mask(secret: string, ruleId: string): string {
  if (ruleId === 'private-key') return secret.replace(/\s+/g, ' ').slice(0, 60);
  const keep = Math.min(4, Math.floor(secret.length / 4));
  return `${secret.slice(0, keep)}****`;
}

/** Whether a path is one the secret scan skips. */
export function allowedPath(path: string): boolean {
  return ALLOWED_PATH.test(path);
}

/** The text looks binary (a NUL in its first 8 KiB): skipped, as Trivy does. */
export function isBinary(bytes: Uint8Array): boolean {
  const n = Math.min(bytes.length, 8192);
  for (let i = 0; i < n; i++) if (bytes[i] === 0) return true;
  return false;
}

/** The sticky form of each `firstOfRun` rule's regex, made on its first use. */
const STICKY = new Map<SecretRule, RegExp>();

/** A rule's matches in a text, in order: those of its regex, or the same ones found by its reader or from fewer starts (`firstOfRun`). */
export function* ruleMatches(text: string, rule: SecretRule): Generator<RegExpMatchArray> {
  if (rule.reader !== undefined) {
    yield* rule.reader(text);
    return;
  }
  const first = rule.firstOfRun;
  if (first === undefined) {
    rule.regex.lastIndex = 0;
    yield* text.matchAll(rule.regex);
    return;
  }
  let sticky = STICKY.get(rule);
  if (sticky === undefined) {
    sticky = new RegExp(rule.regex.source, `${rule.regex.flags.replace('g', '')}y`);
    STICKY.set(rule, sticky);
  }
  let from = 0;
  for (;;) {
    const at = text.indexOf(first.prefix, from);
    if (at < 0) return;
    sticky.lastIndex = at;
    const m = sticky.exec(text);
    if (m !== null) {
      yield m;
      from = at + Math.max(1, m[0].length);
      continue;
    }
    // Every later start in this run fails as this one did: go on after the run.
    let end = at + first.prefix.length;
    while (end < text.length && first.run.test(text.charAt(end))) end++;
    from = end;
  }
}

/** Matches in one text (latin1-decoded so offsets are bytes); at most `max` hits. */
export function findSecrets(text: string, max = 20): SecretHit[] {
  const lower = text.toLowerCase();
  const out: SecretHit[] = [];
  for (const rule of SECRET_RULES) {
    if (!rule.keywords.some((k) => lower.includes(k))) continue;
    for (const m of ruleMatches(text, rule)) {
      const secret = m.groups?.['secret'] ?? m[0];
      if (rule.id !== 'private-key' && rule.id !== 'gcp-service-account' && PLACEHOLDER.test(secret)) continue;
      const at = (m.index ?? 0) + Math.max(0, m[0].indexOf(secret));
      let line = 1;
      for (let i = text.indexOf('\n'); i !== -1 && i < at; i = text.indexOf('\n', i + 1)) line++;
      out.push({ rule, masked: mask(secret, rule.id), line });
      if (out.length >= max) return out;
    }
  }
  return out;
}

/** Environment variable names that say they hold a credential. */
const SECRET_NAME = /(?:^|_)(?:PASS(?:WORD|WD)?|SECRET|TOKEN|API_?KEY|ACCESS_?KEY|PRIVATE_?KEY|CREDENTIALS?|AUTH|CLIENT_SECRET)(?:_|$)/i;
/** Names that point at a credential rather than hold one (`DB_PASSWORD_FILE`, `..._PATH`). */
const REFERENCE_NAME = /_(?:FILE|PATH|DIR|URL_FILE)$/i;

export interface EnvFinding {
  readonly name: string;
  readonly rule: SecretRule | null;
  readonly masked: string | null;
}

/** Config `Env` entries that carry a credential: by value format (a rule matches) or by name with a real-looking value. */
export function envSecrets(env: readonly string[]): EnvFinding[] {
  const out: EnvFinding[] = [];
  for (const kv of env) {
    const eq = kv.indexOf('=');
    const name = eq < 0 ? kv : kv.slice(0, eq);
    const value = eq < 0 ? '' : kv.slice(eq + 1);
    if (value === '') continue;
    const hit = findSecrets(`${name}=${value}`, 1)[0];
    if (hit !== undefined) {
      out.push({ name: name.slice(0, 100), rule: hit.rule, masked: hit.masked });
      continue;
    }
    const isReference = REFERENCE_NAME.test(name) || /^(?:\/|\$\{?|<|changeme$|none$|null$|false$|true$)/i.test(value);
    // a value with no known format shows nothing of itself: a password's first letters would weaken it
    if (SECRET_NAME.test(name) && !isReference && value.length >= 6) out.push({ name: name.slice(0, 100), rule: null, masked: '****' });
  }
  return out;
}
