// Parity of the Rego policy (resources/provgate/policy/provgate.rego) with the rules in policy.ts, run through `opa eval` where opa is installed.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { skipWithout } from '../../test/oracles.js';
import { signEvent, type StageEvent } from './envelope.js';
import { opaInput } from './export.js';
import { defaultResourcesDir, run } from './index.js';
import { DEMO_SIGNING_KEY, demoTrust } from './keys.js';
import type { Decision } from './policy.js';
import { DEMO_SHA, demoScorer, scenarioEnvelopes, SCENARIOS } from './synth.js';

/** VITRINE_OPA names an opa binary off the PATH (then a missing one fails the parity test); otherwise the `opa` peer of test/oracles.ts. */
const OPA = process.env['VITRINE_OPA'] ?? 'opa';
const SKIP_PARITY = process.env['VITRINE_OPA'] === undefined && skipWithout('opa');
const POLICY = path.join(defaultResourcesDir(), 'provgate', 'policy', 'provgate.rego');
const dir = mkdtempSync(path.join(tmpdir(), 'provgate-opa-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Every kind of reason: scenarios, plus sast findings of each severity and unattributed findings of two severities. */
function cases(): [string, ReturnType<typeof run>][] {
  const extra: StageEvent[] = [
    {
      stage: 'sast',
      runId: 'r',
      payload: {
        commit: DEMO_SHA,
        findings: ['critical', 'high', 'medium', 'low'].map((severity, i) => ({ file: `app/f${i}.py`, rule: `R${i}`, severity, title: severity })),
      },
    },
    {
      stage: 'scan',
      runId: 'r',
      payload: {
        tool: 'grype',
        findings: [
          { id: 'CVE-1', package: 'ghost', version: '1', severity: 'critical', title: 'x' },
          { id: 'CVE-2', package: 'ghost', version: '1', severity: 'low', title: 'y' },
        ],
      },
    },
  ];
  return [
    ...SCENARIOS.map((s): [string, ReturnType<typeof run>] => [s, run(scenarioEnvelopes(s), demoTrust(), demoScorer())]),
    ['sast and unattributed', run([...scenarioEnvelopes('unreachable'), ...extra.map((e) => signEvent(e, DEMO_SIGNING_KEY))], demoTrust())],
    ['untrusted', run(scenarioEnvelopes('clean'), new Map())],
  ];
}

const pairs = (reasons: readonly { rule: string; verdict: string }[]): string[] => reasons.map((r) => `${r.rule} ${r.verdict}`).sort();

describe('the Rego policy', () => {
  it('is shipped beside the rules it mirrors', () => {
    const rego = readFileSync(POLICY, 'utf8');
    for (const rule of ['provenance_integrity', 'malicious_dependency', 'vulnerable_dependency', 'unattributed_finding', 'sast']) expect(rego).toContain(`"rule": "${rule}"`);
  });

  it.skipIf(SKIP_PARITY)('decides as policy.ts does on every case (opa eval)', () => {
    for (const [name, { result, decision }] of cases()) {
      const input = path.join(dir, 'input.json');
      writeFileSync(input, JSON.stringify(opaInput(result)));
      const out = JSON.parse(execFileSync(OPA, ['eval', '--format', 'json', '-d', POLICY, '-i', input, 'data.provgate.decision'], { encoding: 'utf8' })) as {
        result: { expressions: { value: { verdict: string; reasons: { rule: string; verdict: string }[] } }[] }[];
      };
      const rego = out.result[0]?.expressions[0]?.value;
      expect(rego?.verdict, name).toBe(decision.verdict);
      expect(pairs(rego?.reasons ?? []), name).toEqual(pairs((decision as Decision).reasons));
    }
  });

  it('the parity cases cover every rule and verdict, so the opa run above is meaningful where opa exists', () => {
    const seen = new Set(cases().flatMap(([, r]) => r.decision.reasons.map((x) => `${x.rule} ${x.verdict}`)));
    expect([...seen].sort()).toEqual([
      'malicious_dependency block',
      'provenance_integrity block',
      'sast block',
      'sast pass',
      'sast warn',
      'unattributed_finding block',
      'unattributed_finding warn',
      'vulnerable_dependency block',
      'vulnerable_dependency warn',
    ]);
  });
});
