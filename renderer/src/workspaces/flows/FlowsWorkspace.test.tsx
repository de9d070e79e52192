// @vitest-environment jsdom
// The Flows workspace against a fake client: a study with progress by stage, its report and app-drawn figures, scoring with SHAP and a counterfactual.
import { cleanup, configure, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError, type ApiClient } from '../../api/client';
import FlowsWorkspace from './FlowsWorkspace';
import type { ScoreResponse, StudyReport, StudyView } from './model';

configure({ asyncUtilTimeout: 10_000 });

const metrics = { accuracy: 0.99, precision: 0.98, recall: 0.97, f1: 0.975, fpr: 0.01, roc_auc: 0.995, pr_auc: null };
const attack = (detector: string) => ({
  detector,
  attack: 'transfer+black-box',
  robustness: { eps: [0, 0.25, 0.5, 1, 2], detection_rate: [1, 0.9, 0.8, 0.5, 0.2], area: 0.6 },
  robust: [{ eps: 1, detection_rate: 0.5, robust_accuracy: 0.7 }],
  budgets: [{ eps: 1, detection_rate: 0.5, robust_accuracy: 0.7, max_linf: 0.9999, physical_valid_share: 1, dropped: 2 }],
});
const REPORT: StudyReport = {
  dataset: { name: 'synthetic', rows: 5000, malicious: 1500, train: 3500, test: 1500, split: 'stratified_70_30' },
  detectors: [{ name: 'gbdt', test: metrics }],
  curves: { gbdt: { roc: { fpr: [0, 0.1, 1], tpr: [0, 0.9, 1] }, pr: { recall: [0.5, 1], precision: [1, 0.9] } } },
  attacks: [attack('gbdt')],
  hardening: { baseline: attack('baseline ensemble'), hardened: attack('hardened ensemble') },
  alarm: { test_fpr: 0.008, test_tpr: 0.9 },
  explanations: { shap_summary: [{ feature: 'Flow Duration', mean_abs_shap: 1.2 }] },
  poisoning: { backdoor_success: { clean: 0, poisoned: 0.99, sanitised: 0.01 }, sanitiser: { precision: 0.8, recall: 0.96 } },
  drift: { available: false, reason: 'no days' },
  validity: { checked: 2000, invalid: 0, dropped: 3, physical_valid_share: 1 },
  served_model: { members: ['gbdt', 'mlp'], hardened: true, trained_on: 'synthetic', training_rows: 3500, split: 'stratified_70_30', test: { ...metrics, accuracy: 0.987 } },
};
const CARD = { data: 'my-flows.csv', dataset: 'cicids2017', training_rows: 4418, created: '2026-11-29T04:00:00.000Z', feature_set_sha256: 'ab'.repeat(32), members: ['gbdt', 'mlp'], hardened: true, test: { split: 'stratified_70_30 test split (1893 flows)', n: 1893, accuracy: 0.986, f1: 0.99, fpr: 0.2 } };
const SCORE: ScoreResponse = {
  model: { ...CARD, sha256: 'cd'.repeat(32) },
  counts: { flows: 1, malicious: 1, benign: 0 },
  columns: { used: ['Flow Duration'], recomputed: ['Flow Bytes/s'], ignored: ['Label'], defaulted: [{ feature: 'Total Fwd Packets', flows: 1 }], renamed: [] },
  warnings: ['1 base feature(s) missing from some flows were read as 0'],
  threshold: 0.5,
  ignored_features: ['Label'],
  results: [
    {
      index: 0,
      verdict: 'malicious',
      score: 0.97,
      alarm: { score: 0.1, adversarial_suspected: false },
      explanation: {
        contributions: [{ feature: 'Flow Duration', value: 120, shap: 2.5 }],
        counterfactual: { found: true, eps: 1.2, score: 0.4, valid: true, changes: [{ feature: 'Flow Duration', from: 120, to: 90000 }] },
      },
    },
  ],
};

function fakeClient(outcomes: ('done' | 'failed')[] = ['done', 'done', 'done']): { client: ApiClient; posts: { path: string; body: unknown }[] } {
  const posts: { path: string; body: unknown }[] = [];
  let polls = 0;
  let study = 0;
  const client: ApiClient = {
    apiBase: 'http://127.0.0.1:1',
    get: <T,>(path: string): Promise<T> => {
      if (path === '/svc/flowdet/health') return Promise.resolve({ status: 'ok', model: { loaded: true, card: CARD } } as T);
      if (path === '/svc/flowdet/datasets')
        return Promise.resolve({
          items: [
            { name: 'synthetic', present: true, where: 'generated' },
            { name: 'cicids2017', present: true, where: '$FLOWDET_DATA/cicids2017/*.csv' },
            { name: 'unsw_nb15', present: false, where: '$FLOWDET_DATA/unsw_nb15/UNSW_NB15_training-set.csv' },
          ],
        } as T);
      expect(path).toBe('/svc/flowdet/studies/s1');
      polls++;
      const outcome = outcomes[study - 1] ?? 'done';
      const view: StudyView =
        polls % 2 === 1
          ? { id: 's1', kind: 'run', status: 'running', progress: { fraction: 0.3, stage: 'attacking gbdt' } }
          : outcome === 'done'
            ? { id: 's1', kind: 'run', status: 'done', progress: { fraction: 1, stage: 'done' }, result: { report: REPORT } }
            : { id: 's1', kind: 'run', status: 'failed', progress: { fraction: 0.2 }, error: { code: 'validation_failed', message: 'the training data needs benign and malicious flows' } };
      return Promise.resolve(view as T);
    },
    post: <T,>(path: string, body: unknown): Promise<T> => {
      posts.push({ path, body });
      if (path === '/svc/flowdet/studies') {
        study++;
        return Promise.resolve({ id: 's1', kind: 'run', status: 'running', progress: { fraction: 0 } } as T);
      }
      if (path === '/svc/flowdet/score') return Promise.resolve(SCORE as T);
      return Promise.reject(new ApiError(404, 'not_found', 'no such route'));
    },
    open: () => Promise.reject(new Error('unused')),
    upload: () => Promise.reject(new Error('unused')),
    put: () => Promise.reject(new Error('unused')),
    patch: () => Promise.reject(new Error('unused')),
    delete: () => Promise.resolve(undefined as never),
  };
  return { client, posts };
}

const service = { name: 'flowdet', title: 'Flow detector', workspace: 'Flows', base: '/svc/flowdet' };

afterEach(cleanup);

describe('FlowsWorkspace', () => {
  it('runs a study, shows its stage and progress, then the report with its figures', async () => {
    const { client, posts } = fakeClient();
    render(<FlowsWorkspace service={service} client={client} />);
    fireEvent.click(screen.getByTestId('flows-run'));
    // Started, no stage yet: the bar is striped (no value), not an empty bar.
    await waitFor(() => expect(screen.getByTestId('flows-progress').textContent).toContain('starting'));
    expect(screen.getByRole('progressbar', { name: 'Study progress' }).getAttribute('aria-valuenow')).toBeNull();
    await waitFor(() => expect(screen.getByTestId('flows-progress').textContent).toContain('attacking gbdt'));
    expect(screen.getByRole('progressbar', { name: 'Study progress' }).getAttribute('aria-valuenow')).toBe('30');
    expect(posts[0]).toEqual({ path: '/svc/flowdet/studies', body: { kind: 'run', data: 'synthetic', quick: true, save_model: true } });
    await waitFor(() => expect(screen.getByTestId('flows-report')).toBeTruthy());
    expect(screen.getByTestId('flows-detectors').textContent).toContain('0.990');
    expect(screen.getByTestId('flows-fig-roc').querySelector('polyline')).not.toBeNull();
    expect(screen.getByTestId('flows-fig-robustness').querySelectorAll('polyline')).toHaveLength(3);
    expect(screen.getByTestId('flows-fig-shap').textContent).toContain('Flow Duration');
    expect(screen.getByTestId('flows-budgets').textContent).toContain('hardened ensemble10.5000.7001.0001.0002');
  });

  it('refuses one seed, sends two or more as a seed study', async () => {
    const { client, posts } = fakeClient();
    render(<FlowsWorkspace service={service} client={client} />);
    fireEvent.change(screen.getByTestId('flows-seeds'), { target: { value: '3' } });
    fireEvent.click(screen.getByTestId('flows-run'));
    expect(screen.getByTestId('flows-study').textContent).toContain('two or more');
    expect(posts).toHaveLength(0);
    fireEvent.change(screen.getByTestId('flows-seeds'), { target: { value: '1, 2' } });
    fireEvent.click(screen.getByTestId('flows-run'));
    await waitFor(() => expect(posts).toHaveLength(1));
    expect(posts[0]!.body).toEqual({ kind: 'seeds', data: 'synthetic', quick: true, seeds: [1, 2] });
  });

  it('scores pasted flows: verdict, SHAP bars and what would have to change', async () => {
    const { client, posts } = fakeClient();
    render(<FlowsWorkspace service={service} client={client} />);
    fireEvent.change(screen.getByTestId('flows-score-text'), { target: { value: '[{"Flow Duration": 120, "Label": "DoS"}]' } });
    fireEvent.click(screen.getByTestId('flows-score-run'));
    await waitFor(() => expect(screen.getByTestId('flows-verdict').textContent).toContain('malicious'));
    expect(posts[0]).toEqual({ path: '/svc/flowdet/score', body: { explain: true, defaults: false, flows: [{ 'Flow Duration': 120, Label: 'DoS' }] } });
    expect(screen.getByTestId('flows-counterfactual').textContent).toContain('Flow Duration: 120 → 90,000');
    // Which model spoke, the verdict counts, and what became of every column.
    expect(screen.getByTestId('flows-score-model').textContent).toContain('trained on my-flows.csv (cicids2017 schema, 4,418 training rows, 2026-11-29)');
    expect(screen.getByTestId('flows-counts').textContent).toBe('1 malicious, 0 benign of 1 flow.');
    // The engine's warning as the app writes it: the counted word agrees with its count.
    expect(screen.getByText('1 base feature missing from some flows was read as 0')).toBeTruthy();
    const cols = screen.getByTestId('flows-columns').textContent!;
    expect(cols).toContain('used (1)Flow Duration');
    expect(cols).toContain('recomputed (1)Flow Bytes/s');
    expect(cols).toContain('ignored (1)Label');
    expect(cols).toContain('read as 0 (1)Total Fwd Packets (1 flow)');
    fireEvent.change(screen.getByTestId('flows-score-text'), { target: { value: 'not json' } });
    fireEvent.click(screen.getByTestId('flows-score-run'));
    expect(screen.getByTestId('flows-score').textContent).toContain('not valid JSON');
  });

  it('says what to do in its own words when the service refuses a flow for a missing base feature', async () => {
    const { client } = fakeClient();
    const message = 'flow 0 lacks the base feature "Total Backward Packets" the model needs (send it, or leave "defaults" on to read it as 0)';
    const refusing: ApiClient = {
      ...client,
      post: () => Promise.reject(new ApiError(422, 'validation_failed', message, 'r1', [{ path: 'flows[0].Total Backward Packets', issue: 'missing base feature' }])),
    };
    render(<FlowsWorkspace service={service} client={refusing} />);
    fireEvent.change(screen.getByTestId('flows-score-text'), { target: { value: '[{"Destination Port": 443}]' } });
    fireEvent.click(screen.getByTestId('flows-score-run'));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain(message);
    // The switch as the panel names it, and the box's count (from 1) beside the service's (from 0).
    expect(alert.querySelector('.error-note__hint')?.textContent).toBe(
      "Tick “read missing base features as 0” to score them with every missing base feature read as 0 (the answer lists which), or give each flow every base feature the model needs (flow 0 above is the box's flow 1: the service counts from 0).",
    );
  });

  it('shows an example of the input in the empty Score box', () => {
    const { client } = fakeClient();
    render(<FlowsWorkspace service={service} client={client} />);
    const placeholder = screen.getByTestId('flows-score-text').getAttribute('placeholder') ?? '';
    expect(placeholder).toMatch(/^\[\n {2}\{ "Destination Port": 443, "Flow Duration": \d+/u);
    expect(JSON.parse(placeholder)).toHaveLength(2);
  });

  it('marks the verdicts stale once the text or an option changes, until scored again', async () => {
    const { client } = fakeClient();
    render(<FlowsWorkspace service={service} client={client} />);
    const text = screen.getByTestId('flows-score-text');
    fireEvent.change(text, { target: { value: '[{"Flow Duration": 120}]' } });
    fireEvent.click(screen.getByTestId('flows-score-run'));
    await screen.findByTestId('flows-verdict');
    expect(screen.queryByTestId('flows-score-stale')).toBeNull();
    fireEvent.change(text, { target: { value: '[{"Flow Duration": 99999}]' } });
    expect(screen.getByTestId('flows-score-stale').textContent).toContain('changed since');
    fireEvent.click(screen.getByTestId('flows-score-run'));
    await waitFor(() => expect(screen.queryByTestId('flows-score-stale')).toBeNull());
    fireEvent.click(screen.getByTestId('flows-defaults'));
    expect(screen.getByTestId('flows-score-stale')).not.toBeNull();
  });

  it('scores from the keyboard: Ctrl+Enter in the text scores it, and the verdicts take the focus the disabled Score button lost', async () => {
    const { client, posts } = fakeClient();
    render(<FlowsWorkspace service={service} client={client} />);
    const text = screen.getByTestId('flows-score-text');
    fireEvent.change(text, { target: { value: '[{"Flow Duration": 120}]' } });
    fireEvent.keyDown(text, { key: 'Enter' });
    expect(posts).toHaveLength(0);
    fireEvent.keyDown(text, { key: 'Enter', ctrlKey: true });
    expect(posts.map((p) => p.path)).toEqual(['/svc/flowdet/score']);
    // Chromium moves focus to the page when the focused control is disabled; jsdom does not, so the test does.
    (document.activeElement as HTMLElement | null)?.blur();
    await waitFor(() => expect(screen.getByTestId('flows-verdict')).toBeTruthy());
    // The verdicts paint first; the focus moves in the effect after them (a loaded machine can read between the two).
    await waitFor(() => expect(document.activeElement).toBe(screen.getByTestId('flows-verdicts')));
  });

  it('gives the report heading the focus the disabled Run study button lost', async () => {
    const { client } = fakeClient();
    render(<FlowsWorkspace service={service} client={client} />);
    const run = screen.getByTestId('flows-run');
    run.focus();
    fireEvent.click(run);
    run.blur();
    await waitFor(() => expect(screen.getByTestId('flows-report')).toBeTruthy());
    // The report paints first; the focus moves in the effect after it (a loaded machine can read between the two).
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Report: synthetic' })));
  });

  it('shows the scoring model card and offers only the datasets that are present', async () => {
    const { client } = fakeClient();
    render(<FlowsWorkspace service={service} client={client} />);
    await waitFor(() => expect(screen.getByTestId('flows-model-line').textContent).toContain('hardened gbdt + mlp ensemble trained on my-flows.csv'));
    expect(screen.getByTestId('flows-model-card').textContent).toContain('accuracy 0.986, F1 0.990, FPR 0.200');
    await waitFor(() => expect(screen.getByTestId('flows-absent-datasets').textContent).toContain('UNSW-NB15 (put $FLOWDET_DATA/unsw_nb15/UNSW_NB15_training-set.csv)'));
    const options = Array.from((screen.getByTestId('flows-dataset') as HTMLSelectElement).options).map((o) => o.value);
    expect(options).toEqual(['synthetic', 'cicids2017', 'csv']);
  });

  it('trains on the user\'s own CSV and keeps the previous report when a later study fails', async () => {
    const { client, posts } = fakeClient(['done', 'failed']);
    render(<FlowsWorkspace service={service} client={client} />);
    await waitFor(() => expect(screen.getByTestId('flows-absent-datasets')).toBeTruthy());
    fireEvent.change(screen.getByTestId('flows-dataset'), { target: { value: 'csv' } });
    fireEvent.click(screen.getByTestId('flows-run'));
    expect(screen.getByTestId('flows-study').textContent).toContain('Choose the CSV');
    const csv = new File(['Flow Duration,Label\n1,BENIGN\n'], 'my flows.csv', { type: 'text/csv' });
    fireEvent.change(screen.getByTestId('flows-train-file'), { target: { files: [csv] } });
    fireEvent.click(screen.getByTestId('flows-run'));
    await waitFor(() => expect(posts).toHaveLength(1));
    expect(posts[0]!.body).toEqual({ kind: 'run', data: 'csv', csv: 'Flow Duration,Label\n1,BENIGN\n', csv_name: 'my flows.csv', quick: true, save_model: true });
    await waitFor(() => expect(screen.getByTestId('flows-report')).toBeTruthy());
    expect(screen.getByTestId('flows-served-model').textContent).toContain('accuracy 0.987');
    fireEvent.click(screen.getByTestId('flows-run'));
    await waitFor(() => expect(screen.getByTestId('flows-progress').getAttribute('data-status')).toBe('failed'));
    expect(screen.getByTestId('flows-study').textContent).toContain('needs benign and malicious flows');
    expect(screen.getByTestId('flows-report').textContent).toContain('Report: synthetic');
  });
});
