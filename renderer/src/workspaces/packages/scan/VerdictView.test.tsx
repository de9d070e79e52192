// @vitest-environment jsdom
// The verdict page and the Scan tab against fixed answers: matched code shown as text (never HTML), unassessed vulnerabilities read as unknown, waived reasons name their exception, a 404 says what to do.
import { cleanup, configure, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { ScanVerdict } from '../../../../../engines/core/contracts/pkgscan';
import { ApiError } from '../../../api/client';
import { usePackagesNav } from '../common/nav';
import type { PkgscanApi } from '../session';
import { scanJobOf } from './job';
import { ScanTab, environmentsOf } from './ScanTab';
import { VerdictView } from './VerdictView';

configure({ asyncUtilTimeout: 10_000 });
afterEach(() => {
  cleanup();
  usePackagesNav.getState().reset();
});

const HOSTILE = '<img src=x onerror="globalThis.pwned=1">eval(atob("ZXZpbA=="))';

const VERDICT: ScanVerdict = {
  id: 'scan-1',
  ecosystem: 'npm',
  name: 'evil-pkg',
  version: '1.0.0',
  environment: 'prod',
  assessment: {
    verdict: 'malicious',
    confidence: 0.95,
    summary: '1 attack chain(s): Reads ~/.npmrc and sends it to a webhook',
    findings: [{ code: 'exec_base64', severity: 'critical', category: 'code_execution', title: 'Runs decoded data', file: 'index.js', line: 12 }],
    chains: [{ title: 'Reads ~/.npmrc and sends it to a webhook', severity: 'critical', technique: 'T1552.001' }],
    advisories: [],
  },
  decision: 'block',
  gaps: [{ kind: 'provenance_missing', effect: 'warn', message: 'no verified provenance', what_to_do: 'save the attestations next to the tarball and import both' }],
  severity: 'critical',
  risk_score: 0.93,
  risk_dimensions: { malicious_code: 0.95, install_time: 0.8, metadata: 0.2, provenance: 0.1, vulnerabilities: 0 },
  incomplete: true,
  findings: [
    { code: 'exec_base64', severity: 'critical', category: 'code_execution', title: 'Runs decoded data', file: 'index.js', line: 12, match: HOSTILE, technique: 'T1059.007', analyzer: 'source' },
    { code: 'npm_install_script', severity: 'medium', category: 'install_time', title: 'Install script', file: null, line: null, match: 'node index.js', technique: null, analyzer: 'metadata' },
  ],
  attack_chains: [
    {
      title: 'Reads ~/.npmrc and sends it to a webhook',
      severity: 'critical',
      technique: 'T1552.001',
      steps: [
        { role: 'capability', code: 'read_npmrc', description: 'reads ~/.npmrc', file: 'index.js', line: 3, match: 'fs.readFileSync(home + "/.npmrc")' },
        { role: 'threat', code: 'discord_webhook', description: 'posts to a Discord webhook', file: 'index.js', line: 9, match: 'https://discord.com/api/webhooks/1/x' },
      ],
    },
  ],
  analyzer_runs: [
    { name: 'source', version: '1', status: 'ok', duration_ms: 12, findings: 1, message: null },
    { name: 'yara', version: '-', status: 'unavailable', duration_ms: 0, findings: 0, message: 'yara is not installed' },
    { name: 'archive', version: '1', status: 'failed', duration_ms: 3, findings: 0, message: 'member limit reached' },
  ],
  provenance: { status: 'absent', kind: null, builder: null, source_repository: null, source_commit: null, workflow: null, registry_signature: 'absent', message: 'No attestation published.' },
  vulnerabilities: { status: 'unavailable', message: 'The advisory store holds no npm data.', missing_sources: ['osv:npm', 'kev'], items: [] },
  policy: { id: 'p1', name: 'default-prod', hash: 'abcdef0123456789' },
  policy_reasons: [{ rule: 'block_severity', kind: 'severity', effect: 'block', subject: 'exec_base64', subjects: ['exec_base64', 'env_exfil'], count: 3, message: '3 findings at or above the blocking severity', waived_by: null }],
  waived_reasons: [{ rule: 'findings', kind: 'finding', effect: 'warn', subject: 'npm_install_script', subjects: ['npm_install_script'], count: 1, message: 'install script present', waived_by: 'exc-12345678-aaaa' }],
  exceptions_applied: ['exc-12345678-aaaa'],
  package: {
    filename: 'evil-pkg-1.0.0.tgz',
    sha256: 'a'.repeat(64),
    size: 2048,
    source: 'store',
    kind: 'npm-tarball',
    description: null,
    license: 'MIT',
    author: null,
    maintainers: [],
    install_scripts: { postinstall: 'node index.js' },
    dependencies: {},
    published: null,
  },
  files: [{ path: 'index.js', size: 400, sha256: 'b'.repeat(64), executable: false, findings: 1 }],
  files_total: 1,
  files_truncated: false,
  analyzer_version: '0.1.0',
  created_at: '2026-11-27T02:00:00.000Z',
  created_by: 'u1',
  duration_ms: 1400,
};

describe('VerdictView', () => {
  it('shows the decision, findings by file with the matched line as text, chains, unknown vulnerabilities, waived reasons, failed analyzers', () => {
    const { container } = render(<VerdictView verdict={VERDICT} />);
    expect(screen.getByTestId('decision').textContent).toBe('block');
    expect(screen.getByTestId('risk-score').textContent).toBe('93%');
    // The hostile match is text inside a code element: no img element was created.
    expect(container.querySelector('img')).toBeNull();
    expect(screen.getByText(HOSTILE).tagName).toBe('CODE');
    const groups = screen.getAllByTestId('finding-group');
    expect(groups.map((g) => g.querySelector('summary .pk-where')?.textContent)).toEqual(['package-level (metadata, provenance, archive)', 'index.js']);
    expect(screen.getByTestId('vulns-not-assessed').textContent).toMatch(/Not assessed: unknown/);
    expect(screen.getByTestId('verdict-vulns').textContent).not.toMatch(/no known advisory/);
    expect(screen.getByTestId('verdict-incomplete').textContent).toMatch(/not a clean result/);
    expect(screen.getByTestId('waived-by').textContent).toContain('exc-1234');
    const chain = screen.getByTestId('attack-chain');
    expect(chain.querySelectorAll('rect').length).toBe(2);
    expect(chain.querySelectorAll('path.pk-chain__arrow').length).toBe(1);
    const runs = screen.getByTestId('analyzer-runs');
    expect(runs.querySelector('.pk-status--unavailable')?.textContent).toBe('unavailable');
    expect(runs.querySelector('.pk-status--failed')?.textContent).toBe('failed');
  });

  it('leads with the assessment (before the decision), groups reasons one row per rule, and shows gaps with what to do', () => {
    render(<VerdictView verdict={VERDICT} />);
    const page = screen.getByTestId('verdict');
    const assessment = screen.getByTestId('assessment');
    const decision = screen.getAllByTestId('decision')[0];
    expect(decision).toBeDefined();
    // the assessment comes first in the page
    expect(assessment.compareDocumentPosition(decision as Node) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(page.firstElementChild).toBe(assessment);
    expect(screen.getByTestId('assessment-verdict').textContent).toBe('malicious');
    expect(assessment.textContent).toContain('Reads ~/.npmrc');
    expect(assessment.textContent).toContain('95%');
    const reasons = screen.getByTestId('policy-reasons');
    expect(reasons.textContent).toContain('env_exfil');
    expect(reasons.textContent).toContain('3 matches');
    expect(screen.getByTestId('gap-provenance_missing').textContent).toContain('What to do');
  });

  it('an assessed verdict with no advisories says so', () => {
    render(<VerdictView verdict={{ ...VERDICT, incomplete: false, vulnerabilities: { status: 'ok', message: '', missing_sources: [], items: [] } }} />);
    expect(screen.queryByTestId('vulns-not-assessed')).toBeNull();
    expect(screen.queryByTestId('verdict-incomplete')).toBeNull();
    expect(screen.getByTestId('verdict-vulns').textContent).toMatch(/no known advisory affects this version/);
  });
});

function fakeApi(scan: (body: unknown) => Promise<unknown>): PkgscanApi & { bodies: unknown[] } {
  const bodies: unknown[] = [];
  const api = {
    bodies,
    get: <T,>(path: string): Promise<T> => {
      if (path === '/policies') return Promise.resolve({ items: [{ environment: 'dev', active: false }, { environment: 'prod', active: true }], total: 2, limit: 500, offset: 0 } as T);
      return Promise.reject(new Error(`unexpected ${path}`));
    },
    post: <T,>(path: string, body?: unknown): Promise<T> => {
      expect(path).toBe('/scans');
      bodies.push(body);
      return scan(body) as Promise<T>;
    },
    put: () => Promise.reject(new Error('unused')),
    patch: () => Promise.reject(new Error('unused')),
    upload: () => Promise.reject(new Error('unused')),
    del: () => Promise.reject(new Error('unused')),
  };
  return api;
}

describe('ScanTab', () => {
  it('environments come from the policies, active ones first', () => {
    expect(environmentsOf([{ environment: 'dev', active: false }, { environment: 'prod', active: true }, { environment: 'dev', active: true }])).toEqual(['prod', 'dev']);
  });

  it('Enter submits; a 404 says no source holds the release and where to import it', async () => {
    const api = fakeApi(() => Promise.reject(new ApiError(404, 'not_found', 'No configured source holds this release.')));
    render(<ScanTab api={api} />);
    await screen.findByRole('option', { name: 'prod' });
    fireEvent.change(screen.getByLabelText('Package name'), { target: { value: 'left-pad' } });
    fireEvent.change(screen.getByLabelText('Version'), { target: { value: '9.9.9' } });
    fireEvent.change(screen.getByLabelText('Environment'), { target: { value: 'prod' } });
    fireEvent.submit(screen.getByTestId('scan-form'));
    const note = await screen.findByTestId('scan-not-found');
    expect(note.textContent).toContain('No source holds npm/left-pad@9.9.9');
    expect(note.textContent).toContain('Store tab');
    expect(api.bodies).toEqual([{ ecosystem: 'npm', name: 'left-pad', version: '9.9.9', environment: 'prod' }]);
  });

  it('shows the progress while the scan runs, then the verdict', async () => {
    let finish: (v: ScanVerdict) => void = () => undefined;
    const api = fakeApi(() => new Promise((r) => (finish = r)));
    render(<ScanTab api={api} />);
    fireEvent.change(screen.getByLabelText('Package name'), { target: { value: 'evil-pkg' } });
    fireEvent.submit(screen.getByTestId('scan-form'));
    await screen.findByTestId('scan-progress');
    expect(screen.getByRole('progressbar').getAttribute('aria-valuenow')).toBeNull();
    finish(VERDICT);
    await waitFor(() => expect(screen.getByTestId('verdict')).toBeTruthy());
    expect(screen.queryByTestId('scan-progress')).toBeNull();
    expect(api.bodies).toEqual([{ ecosystem: 'npm', name: 'evil-pkg' }]);
    // The verdict outlives the tab: shown again, with its request in the form, when the Scan tab comes back.
    cleanup();
    render(<ScanTab api={api} />);
    expect(screen.getByTestId('verdict')).toBeTruthy();
    expect((screen.getByLabelText('Version') as HTMLInputElement).value).toBe('1.0.0');
  });
});

describe('scanJobOf', () => {
  const job = (id: string, started: string, label: string, service = 'pkgscan', state: 'running' | 'succeeded' = 'running') => ({ id, service, type: `${service}.scan`, label, state, fraction: 0.3, started_at: started });
  it('picks the running pkgscan scan started with the request, the one naming the package first', () => {
    const since = Date.parse('2026-11-27T02:00:00Z');
    const jobs = {
      a: job('a', '2026-11-27T01:50:00Z', 'Scan npm debug 4.4.3'),
      b: job('b', '2026-11-27T02:00:01Z', 'Scan npm other 1.0.0'),
      c: job('c', '2026-11-27T02:00:00.500Z', 'Scan npm debug 4.4.3'),
      d: job('d', '2026-11-27T02:00:02Z', 'Analyse', 'petriage'),
      e: job('e', '2026-11-27T02:00:03Z', 'Scan npm debug 4.4.3', 'pkgscan', 'succeeded'),
    };
    expect(scanJobOf(jobs, since, 'debug')?.id).toBe('c');
    expect(scanJobOf(jobs, since, 'nothing-named')?.id).toBe('b');
    expect(scanJobOf({}, since, 'debug')).toBeUndefined();
  });
});
