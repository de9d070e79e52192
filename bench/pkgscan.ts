// `npm run bench -- pkgscan [--seconds N] [--connections C] [--logins L]`: loopback load test of GET /events and POST /auth/login (autocannon), under the shipped rate limits and with them lifted.
import { createRequire } from 'node:module';
import { listen } from '../engines/core/http/server.js';
import { DEFAULT_RATE_LIMITS, type RateLimits } from '../engines/pkgscan/config.js';
import { publishEvent } from '../engines/pkgscan/events/publish.js';
import { createStandaloneApp } from '../engines/pkgscan/http.js';
import type { Platform } from '../engines/pkgscan/platform.js';

interface CannonOptions {
  url: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  connections: number;
  duration?: number;
  /** A fixed number of requests instead of a duration. */
  amount?: number;
  /** Seconds before a request counts as timed out. */
  timeout?: number;
}
interface CannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number; average: number };
  statusCodeStats: Record<string, { count: number }>;
  errors: number;
  timeouts: number;
  /** Seconds the run took. */
  duration: number;
}
const autocannon = createRequire(import.meta.url)('autocannon') as (o: CannonOptions) => Promise<CannonResult>;

const args = process.argv.slice(3);
const arg = (name: string, d: number): number => {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : d;
};
const seconds = arg('--seconds', 10);
const connections = arg('--connections', 10);
/** Logins are one key derivation each (hundreds of milliseconds): a fixed count, as many connections as libuv's pool has threads. */
const logins = arg('--logins', 40);
const PASSWORD = 'a long benchmark password';

async function scenario(title: string, limits: RateLimits): Promise<void> {
  let platform: Platform | undefined;
  const app = createStandaloneApp({ config: { rateLimits: limits }, onPlatform: (p) => (platform = p) });
  const server = await listen(app, { port: 0 });
  const p = platform as Platform;
  await p.auth.createUser({ email: 'bench@example.org', password: PASSWORD, role: 'admin' }, 'system', null);
  for (let i = 0; i < 500; i++) await publishEvent(p.store, { type: i % 3 === 0 ? 'maintainer_changed' : 'new_release_detected', severity: i % 5 === 0 ? 'high' : 'info', package: `npm/pkg-${i % 40}` });
  const login = await fetch(`${server.url}/api/v1/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'bench@example.org', password: PASSWORD }) });
  const token = ((await login.json()) as { access_token: string }).access_token;
  console.log(`\n## ${title}: rate limits ${limits.authPerClient}/min per client on /auth/*, ${limits.perClient}/min per client, ${limits.perUser}/min per user; GET ${connections} connections for ${seconds} s`);
  const runs: [string, CannonOptions][] = [
    ['GET /events?limit=50', { url: `${server.url}/api/v1/events?limit=50`, headers: { authorization: `Bearer ${token}` }, connections, duration: seconds }],
    [
      `POST /auth/login x ${logins} (right password; scrypt N=2^${Math.log2(p.config.scrypt.N)}, r=${p.config.scrypt.r}, p=${p.config.scrypt.p}; 4 connections)`,
      { url: `${server.url}/api/v1/auth/login`, method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'bench@example.org', password: PASSWORD }), connections: 4, amount: logins, timeout: 300 },
    ],
  ];
  for (const [name, options] of runs) {
    const r = await autocannon(options);
    const codes = Object.entries(r.statusCodeStats)
      .map(([c, s]) => `${c}: ${s.count}`)
      .join(', ');
    const fivexx = Object.entries(r.statusCodeStats).filter(([c]) => c.startsWith('5')).reduce((n, [, s]) => n + s.count, 0);
    const answered = Object.values(r.statusCodeStats).reduce((n, st) => n + st.count, 0);
    console.log(`${name}\n  ${(answered / r.duration).toFixed(answered / r.duration < 10 ? 2 : 0)} requests/s, latency p50 ${r.latency.p50} ms, p99 ${r.latency.p99} ms; status ${codes}; 5xx ${fivexx}; errors ${r.errors}, timeouts ${r.timeouts}`);
  }
  console.log(`  audit chain after the run: ${JSON.stringify((await p.audit.verifyChain()).ok ? 'ok' : 'broken')}, ${await p.audit.total()} entries`);
  await server.close();
}

await scenario('Shipped limits', DEFAULT_RATE_LIMITS);
await scenario('Limits lifted (raw capacity)', { windowMs: 60_000, authPerClient: 1e9, perClient: 1e9, perUser: 1e9 });
