// One story: header and reduction, the story actions bar, the timeline scrubber over the host graph, alerts with their evidence, the Mermaid diagram and exports.
import { useEffect, useMemo, useState, type KeyboardEvent } from 'react';
import type { Story } from '../../../../../engines/core/contracts/replay';
import { type ApiClient, type ApiError, asApiError } from '../../../api/client';
import { ErrorNote } from '../../../components/ErrorNote';
import { downloadText } from '../../../components/download';
import { useLoad } from '../../../components/useLoad';
import { ReductionTable, SeverityBadge } from '../common';
import { clampStep, count, duration, exportName, plural, techniqueNames, utc } from '../model';
import { AlertItem } from './AlertItem';
import { HostGraph } from './HostGraph';
import { MermaidDiagram } from './MermaidDiagram';
import { StoryActions } from './StoryActions';
import { displayProse } from '../../../components/wording';

const EXPORTS = [
  { kind: 'stix', label: 'STIX 2.1', accept: 'application/stix+json', type: 'application/stix+json' },
  { kind: 'mermaid', label: 'Mermaid', accept: 'text/plain', type: 'text/plain' },
  { kind: 'cypher', label: 'Cypher', accept: 'text/plain', type: 'text/plain' },
] as const;

export interface StoryViewProps {
  readonly story: Story;
  readonly client: ApiClient;
  readonly base: string;
  readonly theme: string;
  /** False when the same analysis's reduction is already on screen (the Last analysis panel). */
  readonly showReduction: boolean;
  /** Opens the Alerts view filtered to this story's acting host (the alerts of the capture outside this story too). */
  readonly onShowHostAlerts?: ((host: string) => void) | undefined;
}

export function StoryView({ story, client, base, theme, showReduction, onShowHostAlerts }: StoryViewProps) {
  const steps = story.timeline.length;
  const [step, setStep] = useState(steps > 0 ? 1 : 0);
  const [copyNote, setCopyNote] = useState<string | null>(null);
  const [exportError, setExportError] = useState<ApiError | null>(null);
  const [exporting, setExporting] = useState<string | null>(null);
  const names = useMemo(() => techniqueNames(story), [story]);
  const stepOfAlert = useMemo(() => new Map(story.timeline.map((t) => [t.alert_id, t.step])), [story]);
  const current = story.timeline.find((t) => t.step === step);
  const path = `${base}/api/stories/${encodeURIComponent(story.id)}`;

  useEffect(() => {
    setStep(story.timeline.length > 0 ? 1 : 0);
    setCopyNote(null);
    setExportError(null);
  }, [story]);
  // The story as Mermaid text (drawn below and copied by the button); another story forgets the last one at once.
  const mermaidText = useLoad(
    async () => (await client.open(`${base}/api/stories/${encodeURIComponent(story.id)}/mermaid`, { accept: 'text/plain' })).text(),
    [story, client, base],
    { reset: true },
  );
  const mermaid = mermaidText.data;
  const mermaidError = mermaidText.error;

  const go = (s: number): void => setStep(clampStep(s, steps));
  const onKey = (e: KeyboardEvent): void => {
    // The slider moves itself on arrow keys; anywhere else in the panel the arrows step too.
    if ((e.target as HTMLElement).tagName === 'INPUT') return;
    if (e.key === 'ArrowLeft') {
      e.preventDefault();
      go(step - 1);
    } else if (e.key === 'ArrowRight') {
      e.preventDefault();
      go(step + 1);
    } else if (e.key === 'Home') {
      e.preventDefault();
      go(1);
    } else if (e.key === 'End') {
      e.preventDefault();
      go(steps);
    }
  };

  const exportStory = async (kind: (typeof EXPORTS)[number]['kind'], accept: string, type: string): Promise<void> => {
    setExporting(kind);
    try {
      const res = await client.open(`${path}/${kind}`, { accept });
      downloadText(await res.text(), exportName(story, kind), type);
      setExportError(null);
    } catch (err) {
      setExportError(asApiError(err));
    } finally {
      setExporting(null);
    }
  };

  const copy = async (): Promise<void> => {
    if (mermaid === null) return;
    try {
      await navigator.clipboard.writeText(mermaid);
      setCopyNote('Copied.');
    } catch {
      setCopyNote('The page may not write the clipboard here: select the text and press Ctrl+C.');
    }
  };

  return (
    <>
      <section className="panel story-head" aria-label="Story" data-testid="story-view" data-story-id={story.id}>
        <div className="row story-head__top">
          <SeverityBadge severity={story.severity} />
          <h2 className="story-head__title">{displayProse(story.title)}</h2>
          <span className="spacer" />
          <span className="muted">score</span> <strong className="num">{story.score.toFixed(0)}</strong>
        </div>
        <p>{displayProse(story.summary)}</p>
        <dl className="facts">
          <div>
            <dt>Attacker</dt>
            <dd>{story.attacker ?? '–'}</dd>
          </div>
          <div>
            <dt>Victims</dt>
            <dd>{story.victims.length > 0 ? story.victims.slice(0, 6).join(', ') + (story.victims.length > 6 ? ` (+${story.victims.length - 6})` : '') : '–'}</dd>
          </div>
          <div>
            <dt>Stages</dt>
            <dd>
              {story.stages.join(' → ')} <span className="muted">{story.causal ? '(in kill-chain order)' : '(not in kill-chain order)'}</span>
            </dd>
          </div>
          <div>
            <dt>When</dt>
            <dd>
              {utc(story.first_ts)} <span className="muted">for {duration(story.stats.duration_s)}</span>
            </dd>
          </div>
          <div>
            <dt>Story</dt>
            <dd>
              {plural(story.stats.alerts, 'alert')}, {plural(story.stats.flows, 'flow')}, {plural(story.stats.packets, 'packet')}, {plural(story.stats.hosts, 'host')}
            </dd>
          </div>
          <div>
            <dt>Capture</dt>
            <dd>
              {story.source.name} <code className="muted selectable" title="SHA-256 of the capture">{story.source.sha256.slice(0, 16)}…</code>
            </dd>
          </div>
        </dl>
        <div className="techniques" aria-label="ATT&CK techniques of the story" data-testid="story-techniques">
          {story.techniques.map((t) => (
            <code key={t.id} className="technique" title={`${t.name} (${t.tactic})`}>
              {t.id} {t.name}
            </code>
          ))}
        </div>
        {/* The story actions bar: exports, the host's other alerts, then StoryActions (Send to Assessment / ACH). */}
        <div className="row story-actions" role="toolbar" aria-label="Story actions" data-testid="story-actions">
          <span className="muted">Export</span>
          {EXPORTS.map((x) => (
            <button key={x.kind} type="button" className="small" disabled={exporting !== null} onClick={() => void exportStory(x.kind, x.accept, x.type)}>
              {exporting === x.kind ? 'Exporting…' : x.label}
            </button>
          ))}
          {onShowHostAlerts && story.attacker !== null && (
            <button type="button" className="small" onClick={() => onShowHostAlerts(story.attacker ?? '')} data-testid="story-host-alerts">
              All alerts of {story.attacker}
            </button>
          )}
          <StoryActions story={story} client={client} base={base} />
        </div>
        {exportError && <ErrorNote error={exportError} title="The export failed" />}
      </section>

      {showReduction && (
        <section className="panel" aria-label="Reduction statistics of the analysis">
          <div className="panel__head">
            <h2>Reduction</h2>
            <span className="muted">{story.source.name}: the whole capture down to its stories</span>
          </div>
          <ReductionTable stats={story.analysis_stats} testId="story-reduction" />
        </section>
      )}

      {/* Focusable so that a click anywhere on the player lets the arrow keys step. */}
      <section className="panel replay-player" aria-label="Replay: arrow keys step through the timeline" tabIndex={0} onKeyDown={onKey} data-testid="replay-player">
        <div className="panel__head">
          <h2>Replay</h2>
          <span className="muted">← → step, Home / End jump</span>
        </div>
        {steps === 0 ? (
          <p className="muted">This story has no timeline steps.</p>
        ) : (
          <>
            <div className="row scrubber">
              <button type="button" className="small" onClick={() => go(1)} disabled={step <= 1} aria-label="First step">
                ◀◀
              </button>
              <button type="button" className="small" onClick={() => go(step - 1)} disabled={step <= 1} aria-label="Previous step">
                ◀
              </button>
              <input
                type="range"
                min={1}
                max={steps}
                step={1}
                value={step}
                onChange={(e) => go(Number(e.target.value))}
                aria-label="Timeline step"
                aria-valuetext={`Step ${step} of ${steps}${current ? `: ${current.title}` : ''}`}
                data-testid="scrubber"
                disabled={steps < 2}
              />
              <button type="button" className="small" onClick={() => go(step + 1)} disabled={step >= steps} aria-label="Next step">
                ▶
              </button>
              <button type="button" className="small" onClick={() => go(steps)} disabled={step >= steps} aria-label="Last step">
                ▶▶
              </button>
              <span className="num scrubber__pos" data-testid="step-position">
                {step} / {steps}
              </span>
            </div>
            {current && (
              <div className="current-step" data-testid="current-step" aria-live="polite">
                <SeverityBadge severity={current.severity} /> <span className="stage">{current.stage}</span> <strong>{current.title}</strong>{' '}
                <span className="muted">
                  {current.src} → {current.dst.slice(0, 3).join(', ')}
                  {current.dst.length > 3 ? ` (+${current.dst.length - 3})` : ''} · {utc(current.ts)}
                </span>
              </div>
            )}
            <HostGraph story={story} step={step} theme={theme} />
          </>
        )}
      </section>

      <section className="panel" aria-label="Alerts">
        <div className="panel__head">
          <h2>Alerts</h2>
          <span className="muted">{count(story.alerts.length)} in this story, in time order; the current step's is open</span>
        </div>
        <ol className="alert-list" data-testid="story-alerts">
          {story.alerts.map((a) => (
            <AlertItem key={a.id} story={story} alert={a} step={stepOfAlert.get(a.id)} current={current?.alert_id === a.id} names={names} onStep={go} />
          ))}
        </ol>
      </section>

      <section className="panel" aria-label="Mermaid sequence diagram">
        <div className="panel__head">
          <h2>Mermaid</h2>
          <div className="row">
            {copyNote && <span className="muted">{copyNote}</span>}
            <button type="button" className="small" onClick={() => void copy()} disabled={mermaid === null}>
              Copy
            </button>
          </div>
        </div>
        <p className="muted">
          The story as a Mermaid <code>sequenceDiagram</code>, drawn here by Mermaid (shipped with the workstation, no network); the text is below it and
          in the export.
        </p>
        {mermaidError ? (
          <ErrorNote error={mermaidError} title="The Mermaid text could not be loaded" />
        ) : (
          <>
            <MermaidDiagram text={mermaid} theme={theme} title={`Sequence diagram of story ${story.ordinal}: ${story.title}`} />
            <details className="mermaid-source">
              <summary>Mermaid text</summary>
              <pre className="code-block mermaid-text selectable" data-testid="mermaid-text" tabIndex={0}>
                {mermaid ?? 'Loading…'}
              </pre>
            </details>
          </>
        )}
      </section>
    </>
  );
}
