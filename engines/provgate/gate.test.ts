// The graph, the collector, the rules and the decision: every spec scenario, trust failures, real reports end to end, origin stories, blast radii, the PR comment.
import { describe, expect, it } from 'vitest';
import { corpusPath, hasCorpora } from '../../test/corpora.js';
import { envelopeToJson, SignatureError, signEvent, type StageEvent } from './envelope.js';
import { parseEnvelopeList } from './files.js';
import { intotoStatements, opaInput } from './export.js';
import { TyposquatScorer, editDistance } from './enrich.js';
import { nodeId, ProvenanceGraph } from './graph.js';
import { cyclonedxToBuild, sbomJsonToBuild, scannerJsonToScan } from './ingest.js';
import { graphFromDocument, layerBlastRadius, originStory, run, toCypherScript, toGraphDocument } from './index.js';
import { DEMO_SIGNING_KEY, demoTrust } from './keys.js';
import { evaluate, markdownText, MAX_COMMENT_CHARS, prComment, provenanceIntegrity, type Decision } from './policy.js';
import { DEMO_AUTHOR, DEMO_BASE_LAYER, DEMO_PR, DEMO_SHA, demoScorer, EXPECTED_VERDICTS, scenarioEnvelopes, SCENARIOS } from './synth.js';

const demo = (name: (typeof SCENARIOS)[number]) => run(scenarioEnvelopes(name), demoTrust(), demoScorer());
const rules = (d: Decision): string[] => d.reasons.map((r) => `${r.verdict} ${r.rule}`);

describe('the spec scenarios', () => {
  it('each produces its verdict', () => {
    for (const name of SCENARIOS) expect(demo(name).decision.verdict, name).toBe(EXPECTED_VERDICTS[name]);
  });

  it('clean: pass with no reason; the base layer is inherited by every service', () => {
    const { result, decision } = demo('clean');
    expect(decision.reasons).toEqual([]);
    expect(result.rejected).toEqual([]);
    expect([...result.stagesSeen].sort()).toEqual(['build', 'commit', 'scan']);
    const blast = layerBlastRadius(result.graph, DEMO_BASE_LAYER.slice(0, 19));
    expect(blast.layers).toEqual([DEMO_BASE_LAYER]);
    expect(blast.services).toEqual(['api', 'web', 'worker']);
    expect(blast.images).toEqual(['ghcr.io/demo/api', 'ghcr.io/demo/web', 'ghcr.io/demo/worker']);
    expect(blast.containers).toEqual(['api-7d9f-0', 'web-7d9f-0', 'worker-7d9f-0']);
    expect(() => layerBlastRadius(result.graph, 'zz')).toThrow('hex');
    expect(layerBlastRadius(result.graph, 'ffff').layers).toEqual([]);
  });

  it('malicious-dep: the typosquat blocks, with the commit -> dependency path', () => {
    const { decision } = demo('malicious-dep');
    const r = decision.reasons.find((x) => x.rule === 'malicious_dependency');
    expect(r?.verdict).toBe('block');
    expect(r?.path).toEqual([`commit:${DEMO_SHA.slice(0, 12)}`, 'dependency:reqeusts@1.0.0']);
    expect(r?.message).toContain('requests');
    // Without a scorer the same events pass: the scorer is optional and its absence is no finding.
    expect(run(scenarioEnvelopes('malicious-dep'), demoTrust()).decision.verdict).toBe('pass');
  });

  it('cve-origin: a reachable critical CVE blocks; the origin story names the commit, PR, author, builds and three services', () => {
    const { result, decision } = demo('cve-origin');
    expect(rules(decision)).toEqual(['block vulnerable_dependency']);
    const r = decision.reasons[0];
    expect(r).toMatchObject({ finding: 'CVE-2020-14343', severity: 'critical', reachable: true });
    expect(r?.path).toEqual([`commit:${DEMO_SHA.slice(0, 12)}`, 'dependency:pyyaml@5.3']);
    expect(r?.evidence).toContain('module yaml loaded in api-7d9f-0, worker-7d9f-0');
    const [story, ...more] = originStory(result.graph, 'CVE-2020-14343');
    expect(more).toEqual([]);
    expect(story?.introducedBy).toMatchObject({ sha: DEMO_SHA, pr: DEMO_PR, author: DEMO_AUTHOR });
    expect(story?.blastRadius.services).toEqual(['api', 'web', 'worker']);
    expect(story?.builds).toEqual(['run-42-api', 'run-42-web', 'run-42-worker']);
    // The same story by package name (PEP 503 spelling) and by finding id.
    expect(originStory(result.graph, 'PyYAML')).toHaveLength(1);
    expect(originStory(result.graph, story?.finding.id ?? '')).toHaveLength(1);
    expect(originStory(result.graph, 'CVE-1999-0001')).toEqual([]);
  });

  it('unreachable: a critical CVE in a module no container loaded only warns, with the evidence', () => {
    const { decision } = demo('unreachable');
    expect(rules(decision)).toEqual(['warn vulnerable_dependency']);
    expect(decision.reasons[0]).toMatchObject({ reachable: false, severity: 'critical' });
    expect(decision.reasons[0]?.evidence).toContain('module lxml not loaded in 3 observed containers');
  });

  it('tampered: the forged scan envelope is rejected and blocks (fail closed)', () => {
    const { result, decision } = demo('tampered');
    expect(result.rejected).toHaveLength(1);
    expect(decision.reasons.find((r) => r.rule === 'provenance_integrity')?.message).toMatch(/^envelope\[\d+\]: signature mismatch$/);
  });

  it('unsigned-missing: the missing scan stage blocks', () => {
    const { decision } = demo('unsigned-missing');
    expect(decision.reasons).toEqual([{ rule: 'provenance_integrity', verdict: 'block', message: 'no verified event for required stage scan', path: [], pathIds: [] }]);
  });
});

describe('trust and malformed input', () => {
  it('an untrusted key: every envelope rejected with a reason, and every required stage missing', () => {
    const { result, decision } = run(scenarioEnvelopes('clean'), new Map());
    expect(decision.verdict).toBe('block');
    expect(result.rejected).toHaveLength(7);
    expect(result.rejected.every((r) => r.reason.endsWith('signed by an untrusted key'))).toBe(true);
    expect(result.graph.stats().nodes).toBe(0);
    expect(decision.reasons.at(-1)?.message).toBe('no verified event for required stages commit, build, scan');
  });

  it('a lenient placeholder, an unknown stage and a malformed payload each block with a reason', () => {
    const envs = [
      ...scenarioEnvelopes('clean'),
      signEvent({ stage: 'deploy', runId: 'r', payload: {} }, DEMO_SIGNING_KEY),
      signEvent({ stage: 'build', runId: 'r', payload: { buildId: 'b', packages: [{ name: 'x', version: '1', purl: 'pkg:pypi/x@1', layers: 'Zq9-secret' }] } }, DEMO_SIGNING_KEY),
    ];
    const { result, decision } = run([...envs, { malformed: true, index: 9, issue: 'expected an object' }], demoTrust());
    expect(decision.verdict).toBe('block');
    expect(result.rejected.map((r) => r.reason)).toEqual([
      'envelope[7]: unknown stage',
      'envelope[8]: malformed build payload at packages[0].layers: expected array',
      'envelope[9]: malformed envelope (expected an object)',
    ]);
    expect(JSON.stringify(decision)).not.toContain('Zq9');
  });
});

describe('the graph', () => {
  it('edges only point downstream; a pin introduced twice traces to the newer commit', () => {
    const g = new ProvenanceGraph();
    const dep = g.addNode('dependency', nodeId('dependency', 'pkg:pypi/x@1'), 'x@1').id;
    const older = g.addNode('commit', nodeId('commit', 'a'), 'a', { seq: 1 }).id;
    const newer = g.addNode('commit', nodeId('commit', 'b'), 'b', { seq: 5 }).id;
    g.addEdge(older, dep, 'introduced');
    g.addEdge(newer, dep, 'introduced');
    expect(() => g.addEdge(dep, older, 'introduced')).toThrow('downstream');
    expect(g.upstreamPath(dep, 'commit')).toEqual([newer, dep]);
    expect(g.upstreamPath(older, 'commit')).toBeNull();
  });

  it('a layer shared by images is one node; scanner findings on one package from two scanners are one finding', () => {
    const { result } = demo('cve-origin');
    expect(result.graph.ofKind('layer')).toHaveLength(4);
    expect(result.graph.ofKind('image')).toHaveLength(3);
    // Three scan events (one per image) report the same CVE on the same package: one finding.
    expect(result.graph.findings).toHaveLength(1);
  });

  it('exports JSON (stable) and Cypher', () => {
    const a = demo('cve-origin');
    const b = demo('cve-origin');
    expect(JSON.stringify(toGraphDocument(a.result, a.decision))).toBe(JSON.stringify(toGraphDocument(b.result, b.decision)));
    const doc = toGraphDocument(a.result);
    expect(doc.stats).toEqual(a.result.graph.stats());
    expect(new Set(doc.nodes.map((n) => n.kind))).toEqual(new Set(['commit', 'file', 'dependency', 'build', 'layer', 'image', 'service', 'container']));
    const cypher = toCypherScript(a.result.graph);
    expect(cypher).toContain('CREATE CONSTRAINT IF NOT EXISTS');
    expect(cypher).toContain(':INTRODUCED');
    expect(cypher).toContain(':HAS_FINDING');
    expect(cypher).toContain("'CVE-2020-14343'");
    // A stored document rebuilds the same graph.
    const rebuilt = graphFromDocument(JSON.parse(JSON.stringify(doc)) as typeof doc);
    expect(toCypherScript(rebuilt)).toBe(cypher);
    expect(originStory(rebuilt, 'CVE-2020-14343')).toEqual(originStory(a.result.graph, 'CVE-2020-14343'));
  });
});

describe.skipIf(!hasCorpora())('real reports end to end', () => {
  const sc = (...parts: string[]): string => corpusPath('supplychain', ...parts);
  const commit: StageEvent = { stage: 'commit', runId: 'ci-1', payload: { sha: DEMO_SHA, author: 'a@example.com', subject: 'Bump jquery (#7)', pr: 7, added: [{ name: 'jquery', version: '3.3.9', ecosystem: 'npm' }] } };

  it('Trivy npm finding lands on the CycloneDX jquery node introduced by the commit: warn with its path', () => {
    const envs = [
      commit,
      { stage: 'build', runId: 'ci-1', payload: cyclonedxToBuild(sc('reports', 'trivy', 'npm-cyclonedx.json'), 'b-npm', DEMO_SHA) },
      { stage: 'scan', runId: 'ci-1', payload: scannerJsonToScan(sc('reports', 'trivy', 'npm.json')) },
    ].map((e) => signEvent(e, DEMO_SIGNING_KEY));
    const { result, decision } = run(envs, demoTrust());
    expect(result.unattributed).toEqual([]);
    expect(decision.verdict).toBe('warn');
    expect(decision.reasons).toHaveLength(1);
    expect(decision.reasons[0]).toMatchObject({ rule: 'vulnerable_dependency', verdict: 'warn', finding: 'CVE-2019-11358', severity: 'medium' });
    expect(decision.reasons[0]?.path).toEqual([`commit:${DEMO_SHA.slice(0, 12)}`, 'dependency:jquery@3.3.9']);
    expect(originStory(result.graph, 'jquery')[0]?.introducedBy?.pr).toBe(7);
  });

  it('Trivy findings for packages the syft SBOM does not hold are unattributed, never dropped', () => {
    const envs = [
      commit,
      { stage: 'build', runId: 'ci-1', payload: sbomJsonToBuild(sc('sbom', 'syft', 'alpine.syft.json'), 'b-alpine', DEMO_SHA) },
      { stage: 'scan', runId: 'ci-1', payload: scannerJsonToScan(sc('reports', 'trivy', 'alpine-310.json')) },
      { stage: 'scan', runId: 'ci-1', payload: scannerJsonToScan(sc('reports', 'grype', 'json-image.json')) },
    ].map((e) => signEvent(e, DEMO_SIGNING_KEY));
    const { result, decision } = run(envs, demoTrust());
    // alpine 3.12's libcrypto1.1 is 1.1.1n, the scan was of 3.10's 1.1.1c: four medium findings; Grype's two are foreign packages.
    expect(result.unattributed.map((u) => `${u.source} ${u.cve} ${u.package}@${u.version} ${u.severity}`)).toEqual([
      'trivy CVE-2019-1549 libcrypto1.1@1.1.1c-r0 medium',
      'trivy CVE-2019-1551 libcrypto1.1@1.1.1c-r0 medium',
      'trivy CVE-2019-1549 libssl1.1@1.1.1c-r0 medium',
      'trivy CVE-2019-1551 libssl1.1@1.1.1c-r0 medium',
      'grype CVE-1999-0001 package-1@1.1.1 low',
      'grype CVE-1999-0002 package-2@2.2.2 critical',
    ]);
    expect(decision.verdict).toBe('block');
    expect(decision.reasons.filter((r) => r.rule === 'unattributed_finding').map((r) => r.verdict)).toEqual(['warn', 'warn', 'warn', 'warn', 'warn', 'block']);
    // The 14 packages sit in the image's one layer.
    const layer = result.graph.ofKind('layer')[0];
    expect(result.graph.incoming(layer?.id ?? '').filter((e) => e.rel === 'installed_in')).toHaveLength(14);
  });
});

describe('rules and the PR comment', () => {
  it('evaluate takes its own rule list', () => {
    const { result } = demo('unsigned-missing');
    expect(evaluate(result, []).verdict).toBe('pass');
    expect(evaluate(result, [provenanceIntegrity]).verdict).toBe('block');
  });

  it('sast findings give reasons by severity', () => {
    const sast: StageEvent = {
      stage: 'sast',
      runId: 'run-42',
      payload: {
        commit: DEMO_SHA,
        tool: 'bandit',
        findings: [
          { file: 'app/main.py', rule: 'B602', severity: 'high', title: 'shell=True' },
          { file: 'app/main.py', rule: 'B101', severity: 'low', title: 'assert used' },
          { file: 'app/util.py', rule: 'B311', severity: 'medium', title: 'random' },
        ],
      },
    };
    const { decision } = run([...scenarioEnvelopes('clean'), signEvent(sast, DEMO_SIGNING_KEY)], demoTrust());
    expect(rules(decision)).toEqual(['block sast', 'pass sast', 'warn sast']);
    expect(decision.verdict).toBe('block');
    expect(decision.reasons[0]?.path).toEqual([`commit:${DEMO_SHA.slice(0, 12)}`, 'file:app/main.py']);
  });

  it('renders Markdown with the verdict, reasons, paths and evidence; event text cannot inject markup', () => {
    const md = prComment(demo('cve-origin').decision);
    expect(md.startsWith('## Provenance gate: BLOCK\n')).toBe(true);
    expect(md).toContain('**BLOCK** `vulnerable_dependency`: CVE-2020-14343 (critical) in pyyaml\\[@\\]5.3');
    expect(md).toContain(`path: commit:${DEMO_SHA.slice(0, 12)} → dependency:pyyaml\\[@\\]5.3`);
    expect(prComment({ verdict: 'pass', reasons: [] })).toContain('No policy violations.');
    const evil = markdownText('x <script>alert(1)</script> [a](http://e) `code` | col\nnext @user #12');
    expect(evil).toBe('x \\<script\\>alert(1)\\</script\\> \\[a\\](http\\[:\\]//e) \\`code\\` \\| col next \\[@\\]user \\[\\#\\]12');
    expect(markdownText('a\u{1f600}', 2)).toBe('a');
  });

  it('a PR comment stays under GitHub\'s comment limit however many reasons there are; the counts count them all', () => {
    const reason = (i: number): Decision['reasons'][number] => ({ rule: 'provenance_integrity', verdict: 'block', message: `envelope[${i}]: malformed envelope (expected an object)`, path: [`envelope:${i}`], pathIds: [], evidence: ['x'.repeat(300)] });
    const many: Decision = { verdict: 'block', reasons: Array.from({ length: 10_000 }, (_, i) => reason(i)) };
    const md = prComment(many);
    expect(md.length).toBeLessThanOrEqual(MAX_COMMENT_CHARS);
    expect(md).toContain('0 pass · 0 warn · 10000 block');
    expect(md).toMatch(/- … \d+ more reason\(s\) not listed here: the decision lists every reason\n$/);
    expect(md).toContain('envelope\\[0\\]');
    // A decision that fits is written whole.
    const few: Decision = { verdict: 'block', reasons: Array.from({ length: 20 }, (_, i) => reason(i)) };
    expect(prComment(few)).not.toContain('not listed here');
    expect(prComment(few).split('\n- **BLOCK**').length).toBe(21);
  });

  it('the typosquat scorer: one edit from a popular name, not popular itself, not too short', () => {
    expect(editDistance('reqeusts', 'requests')).toBe(1);
    expect(editDistance('requests', 'requests')).toBe(0);
    expect(editDistance('abc', 'xyz', 1)).toBe(2);
    const s = new TyposquatScorer({ pypi: ['requests', 'six'] });
    const ref = (name: string) => ({ name, version: '1', ecosystem: 'pypi', purl: `pkg:pypi/${name}@1` });
    expect(s.score(ref('reqeusts'))?.malicious).toBe(true);
    expect(s.score(ref('requests'))?.malicious).toBe(false);
    expect(s.score(ref('sx'))?.malicious).toBe(false);
    expect(s.score({ ...ref('reqeusts'), ecosystem: 'npm' })).toBeNull();
  });
});

describe('edit distance', () => {
  it('agrees with a full computation below the cap, transpositions included', () => {
    const full = (a: string, b: string): number => editDistance(a, b, 100);
    const words = ['requests', 'reqeusts', 'request', 'requets', 'rqeuests', 'urllib3', 'urlib3', 'abcd', 'badc', 'ab', 'ba', ''];
    for (const a of words) for (const b of words) for (const max of [0, 1, 2]) expect(editDistance(a, b, max), `${a} ${b} ${max}`).toBe(Math.min(full(a, b), max + 1));
    expect(full('abcd', 'badc')).toBe(2);
    expect(full('', 'abc')).toBe(3);
  });
});

describe('OPA input and in-toto statements', () => {
  it('the OPA document carries what the rules read; in-toto statements re-state only verified builds, with the image as subject', () => {
    const { result } = demo('tampered');
    const opa = opaInput(result);
    expect(opa['rejected']).toEqual([expect.stringMatching(/signature mismatch$/)]);
    expect(opa['missingStages']).toEqual([]);
    const statements = intotoStatements(scenarioEnvelopes('cve-origin'), demoTrust());
    expect(statements).toHaveLength(3);
    const first = statements[0] as { subject: { name: string; digest: { sha256: string } }[]; predicate: { runDetails: { metadata: { invocationId: string } } } };
    expect(first.subject[0]?.name).toBe('ghcr.io/demo/api');
    expect(first.subject[0]?.digest.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(first.predicate.runDetails.metadata.invocationId).toBe('run-42');
    expect(intotoStatements(scenarioEnvelopes('cve-origin'), new Map())).toEqual([]);
  });
});

describe('damaged envelope lists', () => {
  it('random damage gives a SignatureError (strict) or a decision with reasons (lenient), never a crash', () => {
    let seed = 7;
    const random = (): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    const replacements: unknown[] = [null, 1, 'x', '', [], {}, 'AAAA', '!!', [{}], { keyid: 'k', sig: 'AA==' }];
    const good = scenarioEnvelopes('cve-origin').map((e) => JSON.parse(JSON.stringify(envelopeToJson(e))) as Record<string, unknown>);
    for (let round = 0; round < 150; round++) {
      const list = good.map((e) => ({ ...e })) as unknown[];
      for (let k = 0; k < 2; k++) {
        const i = Math.floor(random() * list.length);
        const entry = list[i] as Record<string, unknown>;
        const keys = ['payloadType', 'payload', 'signatures', 'keyid', 'sig'];
        const key = keys[Math.floor(random() * keys.length)] as string;
        if (random() < 0.15) list[i] = replacements[Math.floor(random() * replacements.length)];
        else entry[key] = replacements[Math.floor(random() * replacements.length)];
      }
      let strictOk = true;
      try {
        parseEnvelopeList(list);
      } catch (err) {
        expect(err).toBeInstanceOf(SignatureError);
        strictOk = false;
      }
      const { decision, result } = run(parseEnvelopeList(list, true), demoTrust(), demoScorer());
      if (!strictOk || result.rejected.length > 0) expect(decision.verdict).toBe('block');
      expect(decision.reasons.length).toBeGreaterThan(0);
    }
  });
});
