// Attack chains (GuardDog's idea): a capability (reads credentials or the environment, host details, spawns, opens the network) and a threat (sends it out, runs what it fetched) met in one flow, shown as ordered steps with evidence.
import { SEVERITY_RANK as RANK } from '../vocabulary.js';
import type { ChainKind } from './source/rules.js';
import type { AttackChain, AttackChainStep, ScanFinding, Severity } from './types.js';

/** The flow name's opening for files that load one another (a collecting module and the module that sends what it returns). */
export const LINKED_FLOW = 'linked:';

/** The code of the finding each chain is also reported as. */
export const ATTACK_CHAIN_CODE = 'attack_chain';

export interface ChainInput {
  readonly finding: ScanFinding;
  readonly role: 'capability' | 'threat';
  readonly kind: ChainKind | null;
  /** Short words for the step ("reads ~/.npmrc or SSH keys"). */
  readonly step: string;
  /** Findings of one flow may chain: one file (`file:<path>`), files that load one another (`linked:<path>`), or everything that runs at install (`install`). */
  readonly flow: string;
  readonly installTime: boolean;
  /** Where in its file it matched (null when unknown: decoded data, hook commands). */
  readonly offset?: number | null;
  /** Runs only when the package's user runs it (a release command, a helper's function nothing calls on load), not on install or import. */
  readonly userRun?: boolean;
  /** Collected data secret in itself whatever its severity (the rule says so: many tools' keys in their files). */
  readonly secretData?: boolean;
}

/** Capabilities whose data is worth stealing: with a network capability at install time they are a beacon even without an exfiltration host. */
const COLLECTS: ReadonlySet<ChainKind> = new Set(['credentials', 'environment', 'host_info']);
/** ATT&CK's credentials from password stores (browsers, the keychain, password managers). */
const PASSWORD_STORES = /^T1555(?:\.|$)/;

/**
 * Collected data that is secret in itself: the environment whole or its secret variables picked out, sent from the
 * file that reads them, is a theft at any time, not only at install. One credential file read where requests are made
 * is a client using its user's token (a publish command reading ~/.npmrc); many tools' files read together (a harvest,
 * three tools' files read near one another,
 * or what a rule marks `secret_data`: the AI assistants' MCP configurations with every server's keys) are secret data,
 * and so are password stores of two kinds read in one file (a browser's stores and the keychain key that decrypts
 * them): a cookie library reads both for its user, and sends neither.
 */
function secretData(c: ChainInput, collected: readonly ChainInput[]): boolean {
  if (c.kind === 'environment') return RANK[c.finding.severity] >= RANK.medium;
  if (c.kind !== 'credentials') return false;
  if (RANK[c.finding.severity] >= RANK.high || c.secretData === true) return true;
  // three tools' credentials read near one another in one file (SSH keys, git's stored credentials, gh's hosts): what
  // a stealer gathers; a client reads its own tool's
  const tools = new Set(collected.filter((o) => o.kind === 'credentials' && o.finding.file === c.finding.file && near(o, c)).map((o) => toolOf(o.finding.match ?? '')));
  tools.delete(null);
  if (tools.size >= 3) return true;
  const store = (i: ChainInput): boolean => i.kind === 'credentials' && PASSWORD_STORES.test(i.finding.technique ?? '');
  return store(c) && collected.some((o) => store(o) && o.finding.code !== c.finding.code && o.finding.file === c.finding.file && near(o, c));
}
/** The tools whose credentials a match names, by the words of their files and variables (first match wins). */
const TOOLS: readonly (readonly [string, RegExp])[] = [
  ['npm', /npmrc|npm_token|_authtoken|\bnpm\b/i],
  ['pypi', /pypirc|pypi/i],
  ['gh', /\bgh\b[^\n]{0,8}hosts|github-copilot|gh_token|github_token/i],
  ['git', /git-credentials|gitconfig/i],
  ['ssh', /\.ssh\b|\bid_(?:rsa|ed25519|ecdsa|dsa)\b/i],
  ['aws', /\.aws\b|aws_/i],
  ['kube', /\.kube\b|kubeconfig|serviceaccount/i],
  ['docker', /\.docker\b/i],
  ['gcloud', /gcloud|application_default_credentials/i],
  ['azure', /\.azure\b/i],
  ['netrc', /\.netrc\b/i],
  ['database', /pgpass|my\.cnf/i],
  ['vault', /vault-token/i],
  ['keychain', /keychain/i],
  ['alibaba', /aliyun|alibabacloud|ossutil/i],
  ['tencent', /tccli/i],
  ['yandex', /yandex-cloud/i],
  ['naver', /\.ncloud\b/i],
  ['kaggle', /kaggle/i],
  ['huggingface', /huggingface/i],
  ['terraform', /credentials\.tfrc|terraformrc/i],
  ['cargo', /\.cargo\b|\.gem\b/i],
  ['vercel', /com\.vercel\.cli/i],
  ['netlify', /netlify/i],
  ['supabase', /\.supabase\b/i],
  ['firebase', /firebase-tools/i],
  ['fly', /\.fly\b/i],
  ['railway', /\.railway\b/i],
  ['render', /\.render\b/i],
  ['cloudflare', /wrangler|cloudflared/i],
  ['digitalocean', /doctl/i],
  ['pulumi', /\.pulumi\b/i],
  ['gitlab', /glab-cli/i],
];
function toolOf(match: string): string | null {
  return TOOLS.find(([, re]) => re.test(match))?.[0] ?? null;
}

/**
 * Where collected secret data meets a network call: in its own file, near it; or in another module of the same small
 * program (a collector module and a transport module called one after the other) when the data is many tools'
 * credential files or the environment's secret variables picked out: not a single credential file a client reads for
 * its user, a wallet SDK's own keypair file beside its RPC client, nor the environment copied whole for a child process.
 */
function sendsIt(c: ChainInput, n: ChainInput): boolean {
  if (n.finding.file === c.finding.file) return near(c, n);
  return c.flow === n.flow && c.flow.startsWith(LINKED_FLOW) && ((c.kind === 'environment' && c.secretData === true) || (c.kind === 'credentials' && RANK[c.finding.severity] >= RANK.high));
}
const MAX_STEPS = 6;
/** Threats that only matter with data to send: they chain with a collecting capability only. */
const NEEDS_DATA: ReadonlySet<ChainKind> = new Set(['exfil_endpoint', 'publish']);

/**
 * Characters between a capability and a threat of one JavaScript file for the data to plausibly flow from one to the
 * other: a stealer collects and sends within a few statements; a bundle's environment read and its unrelated HTTP
 * client sit in different modules far apart. Only JavaScript is bundled (many modules in one file), so other languages
 * (a Python module, a shell script) chain anywhere in the file, as one program. Install-time code in different files (a
 * hook and the script it runs) is not held to it.
 */
export const FLOW_WINDOW = 3000;

const BUNDLED = /\.(?:[cm]?js|jsx|ts|tsx)$/i;

/**
 * Across files that load one another, only a stealer's split is followed: collected data (credentials, the
 * environment, host details) in one module, a destination of its own (a webhook, a tunnel, an out-of-band host, DNS
 * names) in the other. A command-line tool reads its user's token in one module and publishes or runs programs in
 * another (npm's and Vercel's CLIs): those steps stay in their own files.
 */
function linkedPair(cap: ChainInput, threat: ChainInput): boolean {
  return cap.kind !== null && COLLECTS.has(cap.kind) && threat.kind === 'exfil_endpoint';
}

function near(cap: ChainInput, threat: ChainInput): boolean {
  if (cap.finding.file !== threat.finding.file) return (cap.installTime && threat.installTime) || (cap.flow === threat.flow && cap.flow.startsWith(LINKED_FLOW) && linkedPair(cap, threat));
  if (!BUNDLED.test(cap.finding.file ?? '')) return true;
  if (cap.offset === undefined || cap.offset === null || threat.offset === undefined || threat.offset === null) return true;
  return Math.abs(cap.offset - threat.offset) <= FLOW_WINDOW;
}

function pairs(cap: ChainInput, threat: ChainInput): boolean {
  if (!near(cap, threat)) return false;
  if (cap.kind === 'registry_packages') return threat.kind === 'publish';
  if (threat.kind !== null && NEEDS_DATA.has(threat.kind)) return cap.kind !== null && COLLECTS.has(cap.kind);
  return true;
}

/**
 * Publishing with a registry token is what a release command does for its user (npm's and Lerna's publish, a
 * workspace release tool): in code the user runs it chains only where the same flow also lists the registry's packages
 * of the token's owner to publish them (a worm's spread). On install or on import it chains as it stands.
 */
function publishSpreads(threat: ChainInput, items: readonly ChainInput[]): boolean {
  return threat.kind !== 'publish' || threat.userRun !== true || items.some((i) => i.kind === 'registry_packages');
}

function step(c: ChainInput): AttackChainStep {
  return { role: c.role, code: c.finding.code, description: c.step, file: c.finding.file, line: c.finding.line, match: c.finding.match };
}

/** First input per code, in file/line order. */
function distinct(items: readonly ChainInput[]): ChainInput[] {
  const seen = new Set<string>();
  return [...items]
    .sort((a, b) => (a.finding.file ?? '').localeCompare(b.finding.file ?? '') || (a.finding.line ?? 0) - (b.finding.line ?? 0))
    .filter((c) => (seen.has(c.finding.code) ? false : (seen.add(c.finding.code), true)));
}

function strongest(items: readonly ChainInput[]): ChainInput | undefined {
  return [...items].sort((a, b) => RANK[b.finding.severity] - RANK[a.finding.severity])[0];
}

/** Chains from the capabilities and threats found, at most one per flow. */
export function buildChains(inputs: readonly ChainInput[]): AttackChain[] {
  const flows = new Map<string, ChainInput[]>();
  for (const i of inputs) flows.set(i.flow, [...(flows.get(i.flow) ?? []), i]);
  const chains: AttackChain[] = [];
  for (const [, items] of flows) {
    const allCaps = items.filter((i) => i.role === 'capability');
    const threats = distinct(items.filter((i) => i.role === 'threat' && publishSpreads(i, items) && allCaps.some((c) => pairs(c, i))));
    const caps = distinct(allCaps.filter((c) => threats.some((t) => pairs(c, t))));
    const installTime = items.some((i) => i.installTime);
    if (caps.length > 0 && threats.length > 0) {
      const cap = strongest(caps.filter((c) => c.kind !== null && COLLECTS.has(c.kind))) ?? strongest(caps);
      const threat = strongest(threats);
      if (!cap || !threat) continue;
      // a threat its context keeps below high (persistence a user's command installs) with nothing but informational
      // steps beside it (a command run, the user's name read) is what a service tool does: no chain
      if (!installTime && threat.kind === 'persistence' && RANK[threat.finding.severity] < RANK.high && caps.every((c) => RANK[c.finding.severity] < RANK.medium)) continue;
      // persistence only the user's own call installs (a start-at-login helper's `enable()`), beside a hidden helper
      // process and no collected data, is that helper's job
      if (!installTime && threats.every((t) => t.kind === 'persistence' && t.userRun === true && RANK[t.finding.severity] < RANK.high) && caps.every((c) => c.kind === 'spawn' || RANK[c.finding.severity] < RANK.medium)) continue;
      const stealing = cap.kind !== null && COLLECTS.has(cap.kind) && (threat.kind === 'exfil_endpoint' || threat.finding.category === 'exfiltration');
      const severity: Severity = installTime || stealing || threat.finding.severity === 'critical' ? 'critical' : 'high';
      const steps = [...caps.slice(0, MAX_STEPS - Math.min(threats.length, 3)), ...threats.slice(0, 3)].map(step);
      chains.push({ title: `${cap.step} -> ${threat.step}${installTime ? ' (at install time)' : ''}`, severity, technique: threat.finding.technique, steps });
      continue;
    }
    // at install time, collecting host data next to a network call is a beacon even when the host is an ordinary one;
    // at any time, secrets (the environment, its secret variables, many tools' credential files) read in the file that sends
    const network = allCaps.filter((c) => c.kind === 'network');
    const collect = allCaps.filter((c) => c.kind !== null && COLLECTS.has(c.kind) && network.some((n) => near(c, n) || sendsIt(c, n)));
    const secrets = collect.filter((c) => secretData(c, collect) && network.some((n) => sendsIt(c, n)));
    if ((installTime && collect.length > 0 && network.length > 0) || secrets.length > 0) {
      const shown = installTime ? collect : secrets;
      const sends = installTime ? network : network.filter((n) => secrets.some((c) => sendsIt(c, n)));
      const first = strongest(shown);
      const send = strongest(sends);
      if (!first || !send) continue;
      chains.push({ title: `${first.step} -> ${send.step}${installTime ? ' (at install time)' : ''}`, severity: 'high', technique: 'T1041', steps: [...shown.slice(0, 4), ...sends.slice(0, 2)].map(step) });
    }
  }
  return chains;
}
