// Synthetic, signed pipeline scenarios (clean, malicious-dep, cve-origin, unreachable, tampered, unsigned-missing) for demos and tests.
import { createHash } from 'node:crypto';
import { signEvent, type Envelope, type SigningKey, type StageEvent } from './envelope.js';
import type { BuildPayload, CommitPayload, ScanPayload } from './events.js';
import { TyposquatScorer } from './enrich.js';
import { DEMO_SIGNING_KEY } from './keys.js';
import type { Verdict } from './policy.js';
import type { ScenarioName } from '../core/contracts/provgate.js';

export type { ScenarioName } from '../core/contracts/provgate.js';
import { makePurl } from './purl.js';

import { SCENARIOS } from './cli-meta.js';

export { SCENARIOS };

/** The verdict each scenario must produce (what `demo` checks). */
export const EXPECTED_VERDICTS: Readonly<Record<ScenarioName, Verdict>> = {
  clean: 'pass',
  'malicious-dep': 'block',
  'cve-origin': 'block',
  unreachable: 'warn',
  tampered: 'block',
  'unsigned-missing': 'block',
};

export function isScenario(value: string): value is ScenarioName {
  return (SCENARIOS as readonly string[]).includes(value);
}

interface Dep {
  readonly name: string;
  readonly version: string;
  readonly cve?: string;
  readonly severity?: 'low' | 'medium' | 'high' | 'critical';
  readonly importName?: string;
}

interface Scenario {
  readonly added: readonly Dep[];
  /** Service to the modules its container loaded (runtime facts). */
  readonly loaded: Readonly<Record<string, readonly string[]>>;
  readonly tamperStage?: 'scan';
  readonly dropStage?: 'scan';
}

export const DEMO_SHA = 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678';
export const DEMO_PR = 42;
export const DEMO_AUTHOR = 'dev@example.com';
export const DEMO_SERVICES = ['api', 'worker', 'web'] as const;
const BASE_DEPS: readonly Dep[] = [
  { name: 'requests', version: '2.32.3' },
  { name: 'flask', version: '3.0.3' },
];

/** A made-up digest: sha256 of the parts (synthetic data, never a real image). */
function fakeDigest(...parts: string[]): string {
  return `sha256:${createHash('sha256').update(parts.join('|')).digest('hex')}`;
}

/** The base layer every synthetic image shares (its blast radius is every service). */
export const DEMO_BASE_LAYER = fakeDigest('python:3.12-slim');

/** Names the demo's typosquat scorer treats as popular (a few well-known PyPI names; the scenarios are synthetic). */
export const DEMO_POPULAR_PYPI: readonly string[] = ['requests', 'flask', 'pyyaml', 'lxml', 'numpy', 'django', 'urllib3', 'setuptools', 'pillow', 'boto3', 'jinja2', 'click'];

/** The scorer `demo` and `POST /v1/demo/{scenario}` run with. */
export function demoScorer(): TyposquatScorer {
  return new TyposquatScorer({ pypi: DEMO_POPULAR_PYPI });
}

const SCENARIO_DEFS: Readonly<Record<ScenarioName, Scenario>> = {
  clean: { added: [], loaded: { api: ['requests', 'flask'] } },
  'malicious-dep': { added: [{ name: 'reqeusts', version: '1.0.0' }], loaded: {} },
  'cve-origin': { added: [{ name: 'pyyaml', version: '5.3', cve: 'CVE-2020-14343', severity: 'critical', importName: 'yaml' }], loaded: { api: ['flask', 'yaml'], worker: ['yaml'] } },
  unreachable: {
    added: [{ name: 'lxml', version: '4.6.2', cve: 'CVE-2021-43818', severity: 'critical' }],
    loaded: { api: ['flask', 'requests'], worker: ['flask', 'requests'], web: ['flask', 'requests'] },
  },
  tampered: { added: [{ name: 'pyyaml', version: '5.3', cve: 'CVE-2020-14343', severity: 'critical', importName: 'yaml' }], loaded: {}, tamperStage: 'scan' },
  'unsigned-missing': { added: [], loaded: {}, dropStage: 'scan' },
};

/** The unsigned stage events of a scenario. */
export function scenarioEvents(name: ScenarioName): StageEvent[] {
  const sc = SCENARIO_DEFS[name];
  const runId = `run-${DEMO_PR}`;
  const commit: CommitPayload = {
    sha: DEMO_SHA,
    author: DEMO_AUTHOR,
    timestamp: '2024-05-01T12:00:00Z',
    subject: sc.added.length > 0 ? `Add ${sc.added.map((d) => d.name).join(', ')} (#${DEMO_PR})` : `Tidy the API handlers (#${DEMO_PR})`,
    pr: DEMO_PR,
    added: sc.added.map((d) => ({ name: d.name, version: d.version, ecosystem: 'pypi' })),
    removed: [],
    manifest: 'requirements.txt',
    seq: 0,
    files: ['requirements.txt', 'app/main.py'],
  };
  const events: StageEvent[] = [{ stage: 'commit', runId, payload: commit }];
  const deps = [...BASE_DEPS, ...sc.added];
  for (const svc of DEMO_SERVICES) {
    const appLayer = fakeDigest(svc, 'app', DEMO_SHA);
    const image = fakeDigest(svc, 'image', DEMO_SHA);
    const loaded = sc.loaded[svc];
    const build: BuildPayload = {
      buildId: `${runId}-${svc}`,
      commit: DEMO_SHA,
      tool: 'synth',
      image: { name: `ghcr.io/demo/${svc}`, digest: image, repoDigests: [] },
      layers: [
        { digest: DEMO_BASE_LAYER, createdBy: 'FROM python:3.12-slim' },
        { digest: appLayer, createdBy: 'RUN pip install -r requirements.txt' },
      ],
      packages: deps.map((d) => ({ name: d.name, version: d.version, purl: makePurl('pypi', d.name, d.version), layers: [appLayer], ...(d.importName ? { importName: d.importName } : {}) })),
      deployments: [{ service: svc, containers: [{ id: `${svc}-7d9f-0`, ...(loaded ? { loadedModules: [...loaded] } : {}) }] }],
    };
    events.push({ stage: 'build', runId, payload: build });
    const scan: ScanPayload = {
      tool: 'trivy',
      imageDigest: image,
      findings: deps
        .filter((d) => d.cve !== undefined)
        .map((d) => ({ id: d.cve as string, package: d.name, version: d.version, ecosystem: 'pypi', purl: makePurl('pypi', d.name, d.version), layer: appLayer, severity: d.severity ?? 'high', title: `${d.cve as string} in ${d.name}` })),
    };
    events.push({ stage: 'scan', runId, payload: scan });
  }
  return sc.dropStage === undefined ? events : events.filter((e) => e.stage !== sc.dropStage);
}

/** A scenario's events signed (the HMAC demo key unless another is given); `tampered` has one scan payload changed after signing. */
export function scenarioEnvelopes(name: ScenarioName, key: SigningKey = DEMO_SIGNING_KEY): Envelope[] {
  const envs = scenarioEvents(name).map((e) => signEvent(e, key));
  const stage = SCENARIO_DEFS[name].tamperStage;
  if (stage !== undefined) {
    const i = envs.findIndex((e) => new TextDecoder().decode(e.payload).includes(`"stage":"${stage}"`));
    const env = envs[i];
    if (env !== undefined) {
      // The forger lowers the severity so the CVE would pass: the signature no longer matches.
      const forged = new TextDecoder().decode(env.payload).replace('"severity":"critical"', '"severity":"low"');
      envs[i] = { ...env, payload: new TextEncoder().encode(forged) };
    }
  }
  return envs;
}

/** Size of a synthetic scale scenario: services (one image, build and scan each) and distinct dependencies per service. */
export interface BenchSize {
  readonly services: number;
  readonly depsPerService: number;
  /** Every n-th dependency has a (made-up) critical CVE. */
  readonly cveEvery?: number;
}

/**
 * Unsigned events of a scale scenario: one commit, and per service a build (shared base layer, own app layer, its own
 * packages, one container that loaded half of them) and a scan. Deterministic: the same size gives the same events.
 */
export function benchEvents(size: BenchSize): StageEvent[] {
  const every = size.cveEvery ?? 10;
  const runId = 'bench';
  const events: StageEvent[] = [{ stage: 'commit', runId, payload: { sha: DEMO_SHA, author: DEMO_AUTHOR, subject: 'Scale check (#1)', pr: 1, added: [], removed: [] } }];
  for (let s = 0; s < size.services; s++) {
    const svc = `svc${s}`;
    const appLayer = fakeDigest(svc, 'app');
    const image = fakeDigest(svc, 'image');
    const deps = Array.from({ length: size.depsPerService }, (_, d) => ({ name: `${svc}-pkg${d}`, version: `1.${d % 10}.0`, cve: (s * size.depsPerService + d) % every === 0 }));
    events.push({
      stage: 'build',
      runId,
      payload: {
        buildId: `bench-${svc}`,
        commit: DEMO_SHA,
        image: { name: `registry.invalid/${svc}`, digest: image },
        layers: [{ digest: DEMO_BASE_LAYER }, { digest: appLayer }],
        packages: deps.map((d) => ({ name: d.name, version: d.version, purl: makePurl('pypi', d.name, d.version), layers: [appLayer] })),
        deployments: [{ service: svc, containers: [{ id: `${svc}-0`, loadedModules: deps.filter((_, i) => i % 2 === 0).map((d) => d.name.replace(/-/g, '_')) }] }],
      },
    });
    events.push({
      stage: 'scan',
      runId,
      payload: {
        tool: 'trivy',
        imageDigest: image,
        findings: deps.filter((d) => d.cve).map((d) => ({ id: `CVE-2099-${d.name}`, package: d.name, version: d.version, ecosystem: 'pypi', purl: makePurl('pypi', d.name, d.version), severity: 'critical', title: 'synthetic' })),
      },
    });
  }
  return events;
}
