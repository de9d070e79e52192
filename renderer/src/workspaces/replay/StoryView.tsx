// One story: header and reduction, the timeline scrubber over the host graph, alerts with their evidence, the Mermaid diagram and exports.
import { useEffect, useMemo, useState, type KeyboardEvent } from 'react';
import type { Alert, Story } from '../../../../engines/core/contracts/replay';
import type { ApiClient } from '../../api/client';
import { ApiError } from '../../api/client';
import { ErrorNote } from '../../components/ErrorNote';
import { HostGraph } from './HostGraph';
import { MermaidDiagram } from './MermaidDiagram';
import { downloadText } from '../../components/download';
import { alertConnections, clampStep, count, duration, exportName, plural, reductionRows, techniqueNames, utc } from './model';

function asApiError(err: unknown): ApiError {
  return err instanceof ApiError ? err : new ApiError(0, 'bad_response', 'The answer could not be read.');
}

export function SeverityBadge({ severity }: { readonly severity: string }) {
  return <span className={`sev sev--${severity}`}>{severity}</span>;
}

export function ReductionTable({ stats, testId }: { readonly stats: Story['analysis_stats']; readonly testId: string }) {
  return (
    <dl className="reduction" data-testid={testId}>
      {reductionRows(stats).map((r) => (
        <div key={r.key} data-stat={r.key}>
          <dt>{r.label}</dt>
          <dd>
            <span className="reduction__value num">{r.value}</span>
            <span className="muted reduction__hint">{r.hint}</span>
          </dd>
        </div>
      ))}
    </dl>
  );
}

const EXPORTS = [
  { kind: 'stix', label: 'STIX 2.1', accept: 'application/stix+json', type: 'application/stix+json' },
  { kind: 'mermaid', label: 'Mermaid', accept: 'text/plain', type: 'text/plain' },
  { kind: 'cypher', label: 'Cypher', accept: 'text/plain', type: 'text/plain' },
] as const;

function AlertItem({ story, alert, step, current, names, onStep }: { readonly story: Story; readonly alert: Alert; readonly step: number | undefined; readonly current: boolean; readonly names: Map<string, string>; readonly onStep: (s: number) => void }) {
  const conns = alertConnections(story, alert);
  const counts = Object.entries(alert.evidence.counts);
  const facts = Object.entries(alert.evidence.facts);
  return (
    <li className={`alert-item${current ? ' alert-item--current' : ''}`} data-alert-id={alert.id} data-rule={alert.rule}>
      <details open={current}>
        <summary>
          <SeverityBadge severity={alert.severity} /> <span className="stage">{alert.stage}</span> <strong>{alert.title}</strong>{' '}
          <span className="muted">
            {alert.src} → {alert.dst.slice(0, 3).join(', ')}
            {alert.dst_count > 3 ? ` and ${count(alert.dst_count - 3)} more` : ''}
          </span>
        </summary>
        <div className="alert-item__body">
          <p>{alert.summary}</p>
          <div className="row alert-item__meta">
            <span>
              rule <code>{alert.rule}</code>
            </span>
            <span>
              {utc(alert.first_ts)} → {utc(alert.last_ts)}
            </span>
            {step !== undefined && (
              <button type="button" className="small" onClick={() => onStep(step)}>
                Show step {step}
              </button>
            )}
          </div>
          <div className="techniques" aria-label="ATT&CK techniques">
            {alert.techniques.map((t) => (
              <code key={t} className="technique" title={names.get(t) ?? ''}>
                {t}
                {names.has(t) ? ` ${names.get(t)}` : ''}
              </code>
            ))}
          </div>
          {(counts.length > 0 || facts.length > 0) && (
            <dl className="facts alert-item__facts">
              {counts.map(([k, v]) => (
                <div key={`c-${k}`}>
                  <dt>{k.replace(/_/g, ' ')}</dt>
                  <dd className="num">{count(v)}</dd>
                </div>
              ))}
              {facts.map(([k, v]) => (
                <div key={`f-${k}`}>
                  <dt>{k.replace(/_/g, ' ')}</dt>
                  <dd>{Array.isArray(v) ? v.slice(0, 10).join(', ') + (v.length > 10 ? ` (+${v.length - 10})` : '') : String(v)}</dd>
                </div>
              ))}
            </dl>
          )}
          <h4>
            Evidence connections <span className="muted">({count(alert.evidence.uid_count)} counted{alert.evidence.uid_count > conns.length ? `, ${conns.length} listed` : ''})</span>
          </h4>
          {conns.length > 0 ? (
            <div className="table-wrap">
              <table className="evidence-table" data-testid="evidence-connections">
                <thead>
                  <tr>
                    <th>uid</th>
                    <th>proto</th>
                    <th>from</th>
                    <th>to</th>
                    <th>service</th>
                    <th>state</th>
                    <th className="num">packets</th>
                    <th className="num">bytes</th>
                    <th>first packet</th>
                  </tr>
                </thead>
                <tbody>
                  {conns.slice(0, 25).map((c) => (
                    <tr key={c.uid}>
                      <td>
                        <code>{c.uid}</code>
                      </td>
                      <td>{c.proto}</td>
                      <td>
                        {c.orig_h}:{c.orig_p}
                      </td>
                      <td>
                        {c.resp_h}:{c.resp_p}
                      </td>
                      <td>{c.service.join(', ') || '–'}</td>
                      <td>
                        <code title={`history ${c.history}`}>{c.conn_state}</code>
                      </td>
                      <td className="num">{count(c.orig_packets + c.resp_packets)}</td>
                      <td className="num">{count(c.orig_bytes + c.resp_bytes)}</td>
                      <td>
                        #{c.first_packet} <span className="muted">{utc(c.start_ts)}</span>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
              {conns.length > 25 && <p className="muted">{count(conns.length - 25)} more connections in the exports.</p>}
            </div>
          ) : (
            <p className="muted">No connection records: this rule counts other facts (ARP frames, DNS records).</p>
          )}
          {alert.evidence.packets.length > 0 && (
            <p className="packet-times">
              <span className="muted">Packets: </span>
              {alert.evidence.packets.slice(0, 12).map((p) => (
                <span key={`${p.packet}-${p.uid ?? ''}`} className="packet">
                  #{p.packet} <span className="muted">{utc(p.ts).slice(11)}</span>
                </span>
              ))}
              {alert.evidence.packets.length > 12 && <span className="muted"> and {count(alert.evidence.packets.length - 12)} more</span>}
            </p>
          )}
        </div>
      </details>
    </li>
  );
}

export interface StoryViewProps {
  readonly story: Story;
  readonly client: ApiClient;
  readonly base: string;
  readonly theme: string;
  /** False when the same analysis's reduction is already on screen (the Last analysis panel). */
  readonly showReduction: boolean;
}

export function StoryView({ story, client, base, theme, showReduction }: StoryViewProps) {
  const steps = story.timeline.length;
  const [step, setStep] = useState(steps > 0 ? 1 : 0);
  const [mermaid, setMermaid] = useState<string | null>(null);
  const [mermaidError, setMermaidError] = useState<ApiError | null>(null);
  const [copyNote, setCopyNote] = useState<string | null>(null);
  const [exportError, setExportError] = useState<ApiError | null>(null);
  const [exporting, setExporting] = useState<string | null>(null);
  const names = useMemo(() => techniqueNames(story), [story]);
  const stepOfAlert = useMemo(() => new Map(story.timeline.map((t) => [t.alert_id, t.step])), [story]);
  const current = story.timeline.find((t) => t.step === step);
  const path = `${base}/api/stories/${encodeURIComponent(story.id)}`;

  useEffect(() => {
    setStep(story.timeline.length > 0 ? 1 : 0);
    setMermaid(null);
    setMermaidError(null);
    setCopyNote(null);
    setExportError(null);
    let live = true;
    void (async () => {
      try {
        const res = await client.open(`${base}/api/stories/${encodeURIComponent(story.id)}/mermaid`, { accept: 'text/plain' });
        const text = await res.text();
        if (live) setMermaid(text);
      } catch (err) {
        if (live) setMermaidError(asApiError(err));
      }
    })();
    return () => {
      live = false;
    };
  }, [story, client, base]);

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
          <h2 className="story-head__title">{story.title}</h2>
          <span className="spacer" />
          <span className="muted">score</span> <strong className="num">{story.score.toFixed(0)}</strong>
        </div>
        <p>{story.summary}</p>
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
        <div className="row story-exports">
          <span className="muted">Export</span>
          {EXPORTS.map((x) => (
            <button key={x.kind} type="button" className="small" disabled={exporting !== null} onClick={() => void exportStory(x.kind, x.accept, x.type)}>
              {exporting === x.kind ? 'Exporting…' : x.label}
            </button>
          ))}
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
