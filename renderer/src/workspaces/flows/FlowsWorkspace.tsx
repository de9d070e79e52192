// The Flows workspace: run a flow-detector study with a progress bar by stage, read its report and figures, and score flows (verdicts, SHAP, counterfactual).
import { useEffect, useState } from 'react';
import { WorkspaceHeader } from '../../components/WorkspaceHeader';
import type { WorkspaceProps } from '../registry';
import { describeModel, fmt, type Health, type StudyReport } from './model';
import { ReportPanel } from './ReportPanel';
import { ScorePanel } from './ScorePanel';
import { StudyPanel } from './StudyPanel';
import './flows.css';

function ModelCardPanel({ health }: { readonly health: Health | null }) {
  const card = health?.model.card;
  return (
    <section className="panel" aria-label="Scoring model" data-testid="flows-model-card">
      <div className="panel__head">
        <h2>Scoring model</h2>
      </div>
      {!health && <p className="muted">Asking the service which model scores…</p>}
      {health && !health.model.loaded && <p className="muted">No model yet: run a study with “use the hardened model for scoring” (on a dataset or your own CSV).{health.model.error ? ` (${health.model.error})` : ''}</p>}
      {card && (
        <>
          <p data-testid="flows-model-line">{describeModel(card)}</p>
          <p className="muted">
            {card.test
              ? `Clean test metrics of exactly this model (scored through its saved bundle) on the ${card.test.split}: accuracy ${fmt(card.test.accuracy)}, F1 ${fmt(card.test.f1)}, FPR ${fmt(card.test.fpr)}.`
              : 'This bundle records no test metrics.'}{' '}
            Feature set {card.feature_set_sha256.slice(0, 12)}; derived features are recomputed from the base ones.
          </p>
        </>
      )}
    </section>
  );
}

export default function FlowsWorkspace({ service, client }: WorkspaceProps) {
  const base = service.base;
  const [report, setReport] = useState<StudyReport | null>(null);
  const [health, setHealth] = useState<Health | null>(null);
  const refreshHealth = (): void => {
    client
      .get<Health>(`${base}/health`)
      .then(setHealth)
      .catch(() => setHealth({ model: { loaded: false, error: 'the service did not answer' } }));
  };
  // Once on opening; a study refreshes it when it ends.
  useEffect(refreshHealth, [client, base]);
  return (
    <div className="ws-page flows">
      <WorkspaceHeader title="Flows" purpose="Train, attack, harden and explain network-flow detectors" />
      <ModelCardPanel health={health} />
      <StudyPanel client={client} base={base} onReport={setReport} onDone={refreshHealth} />
      {report && <ReportPanel report={report} />}
      <ScorePanel client={client} base={base} />
    </div>
  );
}
