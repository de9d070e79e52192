// The Lineage workspace: gate signed build events (or run a demo scenario), read the decision with its reasons, trace a finding to its commit and author, and a layer to everything it ships in.
import { useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useStore } from 'zustand';
import type { ApiError} from '../../api/client';
import { asApiError } from '../../api/client';
import { OpenFileButton } from '../../components/OpenFileButton';
import { ErrorNote, LocalErrorNote } from '../../components/ErrorNote';
import { jobBarFraction, Progress } from '../../components/Progress';
import { FilterField, WorkspaceHeader } from '../../components/WorkspaceHeader';
import { useFileDrop } from '../../components/useFileDrop';
import { useShell } from '../../shell/context';
import { useOpenRequest, type OpenRequest } from '../../shell/openItem';
import { useSystemPrefersDark } from '../../shell/useTheme';
import { activeJobs, effectiveTheme } from '../../store';
import type { WorkspaceProps } from '../registry';
import { CommentPreview } from './CommentPreview';
import { FocusPanel } from './FocusPanel';
import { LineageGraph } from './LineageGraph';
import { count, cypherFileName, MAX_GATE_FILE, orderedReasons, parseEnvelopeFile, plural, rejectionReason, SCENARIOS } from './model';
import { LayerList, ReasonRow, RunItem } from './RunRows';
import { createLineageStore, RUN_PAGE } from './store';
import { TrustedKeys } from './TrustedKeys';
import { VerdictBadge } from './VerdictBadge';
import './lineage.css';
import { useFocusWhenLost } from '../../components/useDialogFocus';

export default function LineageWorkspace({ service, client }: WorkspaceProps) {
  const base = service.base;
  const store = useMemo(() => createLineageStore(client, base), [client, base]);
  const s = useStore(store);
  const [lenient, setLenient] = useState(false);
  const [typosquat, setTyposquat] = useState(true);
  const [query, setQuery] = useState('');
  const [cypher, setCypher] = useState<{ readonly url: string; readonly name: string } | null>(null);
  const [cypherError, setCypherError] = useState<ApiError | null>(null);
  const reasonList = useRef<HTMLUListElement>(null);
  const root = useRef<HTMLDivElement>(null);
  // A demo scenario or a gate disables its button while it runs, which leaves focus on the page: the decision takes it.
  const decisionHeading = useRef<HTMLHeadingElement>(null);
  useFocusWhenLost(decisionHeading, s.graph);

  const jobs = useShell((x) => x.jobs);
  const overlayOpen = useRef(false);
  overlayOpen.current = useShell((x) => x.overlay !== null);
  const theme = effectiveTheme(
    useShell((x) => x.theme),
    useSystemPrefersDark(),
  );
  const jobFraction = s.busy ? jobBarFraction(activeJobs(jobs).filter((j) => j.service === service.name).at(-1)) : undefined;

  useEffect(() => {
    void store.getState().loadRuns(0);
    void store.getState().loadHealth();
  }, [store]);
  // A gate run asked for from the search box or an item link opens with its first reason.
  useOpenRequest(
    service.name,
    useCallback(
      (r: OpenRequest) => {
        if (r.kind === 'run') void store.getState().openRun(r.id);
      },
      [store],
    ),
  );

  // Esc clears the highlight wherever the focus is (a click on the canvas leaves it on the page body), unless a field
  // or an overlay of the shell takes the key first, or this workspace is not the one shown.
  useEffect(() => {
    const onKey = (e: globalThis.KeyboardEvent): void => {
      if (e.key !== 'Escape' || e.defaultPrevented || overlayOpen.current || store.getState().focus === null) return;
      if (e.target instanceof HTMLInputElement || e.target instanceof HTMLTextAreaElement || e.target instanceof HTMLSelectElement) return;
      if (!root.current || root.current.offsetParent === null) return;
      store.getState().clearFocus();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [store]);

  // A Cypher file is made once per run on request; its object URL is released when the run changes or the page goes.
  const cypherUrl = useRef<string | null>(null);
  useEffect(() => {
    setCypherError(null);
    setCypher(null);
    return () => {
      if (cypherUrl.current) URL.revokeObjectURL(cypherUrl.current);
      cypherUrl.current = null;
    };
  }, [s.runId]);

  const prepareCypher = async (): Promise<void> => {
    if (!s.runId) return;
    try {
      const res = await client.open(`${base}/v1/runs/${encodeURIComponent(s.runId)}/cypher`, { accept: 'text/plain' });
      const text = await res.text();
      const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
      cypherUrl.current = url;
      setCypher({ url, name: cypherFileName(s.runId) });
      setCypherError(null);
    } catch (err) {
      setCypherError(asApiError(err, 'The export could not be read.'));
    }
  };

  const gateFile = async (file: File): Promise<void> => {
    if (file.size > MAX_GATE_FILE) {
      s.refuse(`The file is ${count(Math.ceil(file.size / 1e6))} MB; the gate takes at most ${count(MAX_GATE_FILE / 1e6)} MB of envelopes per request.`);
      return;
    }
    const parsed = parseEnvelopeFile(await file.text());
    if (!parsed.ok) {
      s.refuse(parsed.message);
      return;
    }
    const name = [...file.name].filter((ch) => (ch.codePointAt(0) ?? 0) >= 0x20).join('').slice(0, 120) || 'envelopes';
    await s.gate(parsed.value, name, { lenient, typosquat });
  };

  const { dropClass, dropProps } = useFileDrop((file) => {
    if (!s.busy) void gateFile(file);
  });

  const reasons = s.graph ? orderedReasons(s.graph.decision) : [];
  const openIndex = s.focus?.kind === 'reason' ? s.focus.index : -1;
  const moveReason = (e: KeyboardEvent, at: number): void => {
    if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
    e.preventDefault();
    const next = reasons[at + (e.key === 'ArrowDown' ? 1 : -1)];
    if (!next || !s.graph) return;
    void s.selectReason(s.graph.decision.reasons.indexOf(next));
    const buttons = reasonList.current?.querySelectorAll<HTMLButtonElement>('button.reason');
    buttons?.[at + (e.key === 'ArrowDown' ? 1 : -1)]?.focus();
  };

  const decision = s.graph?.decision;
  const submitTitle =
    s.submitError?.code === 'validation_failed' ? 'The envelopes are malformed' : s.submitError?.code === 'unavailable' ? 'The gate trusts no key' : s.submitError?.code === 'payload_too_large' ? 'The file is too large' : 'The gate failed';

  return (
    <div
      className="ws-page lineage"
      ref={root}
      {...dropProps}
    >
      <WorkspaceHeader title="Lineage" purpose="Verify signed build events, decide, and trace a finding to the commit and author that brought it">
        <form
          className="row"
          onSubmit={(e) => {
            e.preventDefault();
            void s.backtrack(query);
          }}
        >
          <FilterField value={query} onChange={setQuery} placeholder="CVE, finding id or package  ( / )" label="Backtrack a CVE, finding id or package in the open run" maxLength={512} disabled={!s.runId} testId="backtrack-query" />
          <button type="submit" className="small" disabled={!s.runId || query.trim() === ''}>
            Backtrack
          </button>
        </form>
      </WorkspaceHeader>
      <div className="lineage__grid">
        <div className="ws-column">
          <section className={`panel gate-input ${dropClass}`} aria-label="Gate" data-testid="gate-input">
            <div className="panel__head">
              <h2>Gate</h2>
            </div>
            <p className="muted drop-target__hint">Drop a JSON list of signed envelopes (commit, build, scan, sast) here, or open one; the service verifies them against its trusted keys.</p>
            {s.health && s.health.trustedKeys === 0 && (
              // No key yet is where every workstation starts: said calmly; a configured key that cannot be used is an error.
              <p className={`gate-input__trust ${s.health.trustProblem ? 'neg' : 'muted'}`} data-testid="trust-warning">
                The gate trusts no key{s.health.trustProblem ? ` (${s.health.trustProblem})` : ''}: import or generate one under Trusted keys below (or start the workstation with{' '}
                <code>GATE_PUBKEY</code>) to gate your own envelopes. The demo scenarios work without it.
              </p>
            )}
            {s.health && s.health.trustedKeys > 0 && (
              <p className="muted drop-target__hint" data-testid="trust-count">
                Trusted: {plural(s.health.trustedKeys, 'key')} (see Trusted keys below).
              </p>
            )}
            <div className="row">
              <OpenFileButton
                primary
                label="Gate envelopes…"
                accept=".json,application/json"
                disabled={s.busy !== null}
                buttonTestId="open-envelopes"
                testId="envelope-file"
                onFile={(f) => void gateFile(f)}
              />
            </div>
            {/* The options on a line of their own under the button, each box centred on its words (wrapped beside the
                button, the second sat indented on the next line with its box above its words). */}
            <div className="gate-input__options" role="group" aria-label="Gate options">
              <label className="muted gate-input__option" title="A malformed entry becomes a blocking reason instead of refusing the whole list">
                <input type="checkbox" checked={lenient} onChange={(e) => setLenient(e.target.checked)} />
                lenient
              </label>
              <label className="muted gate-input__option" title="Check PyPI dependency names against the shipped list of the most-downloaded PyPI projects (one edit away and not popular itself: blocks)">
                <input type="checkbox" checked={typosquat} onChange={(e) => setTyposquat(e.target.checked)} />
                typosquat check
              </label>
            </div>
            <h3>Demo scenarios</h3>
            <ul className="stack-list">
              {SCENARIOS.map((sc) => (
                <li key={sc.name}>
                  <button type="button" className="scenario" onClick={() => void s.runDemo(sc.name)} disabled={s.busy !== null} data-scenario={sc.name}>
                    <span className="scenario__name">{sc.name}</span>
                    <VerdictBadge verdict={sc.expected} />
                    <span className="muted scenario__what">{sc.what}</span>
                  </button>
                </li>
              ))}
            </ul>
            {s.busy && (
              <div className="gate-input__progress" data-testid="gate-progress">
                <span className="muted">{s.busy.what === 'demo' ? `Signing and gating the ${s.busy.scenario} scenario…` : `Gating ${s.busy.name}…`}</span>
                <Progress fraction={jobFraction} label="Gate progress" />
              </div>
            )}
            <div data-testid="gate-problems" hidden={!s.localError && !s.submitError}>
              {s.localError && <LocalErrorNote message={s.localError} />}
              {s.submitError && <ErrorNote error={s.submitError} title={submitTitle} />}
            </div>
            {s.last?.expected !== undefined && s.last.runId === s.runId && (
              <p className={`demo-check ${s.last.expected === s.last.verdict ? 'muted' : 'neg'}`} data-testid="demo-check">
                {s.last.expected === s.last.verdict ? `The scenario gave its expected verdict (${s.last.expected}).` : `The scenario should give ${s.last.expected} but gave ${s.last.verdict}.`}
              </p>
            )}
          </section>

          <TrustedKeys client={client} base={base} onChanged={() => void store.getState().loadHealth()} />

          <section className="panel" aria-label="Runs" data-testid="run-list">
            <div className="panel__head">
              <h2>Runs</h2>
              <button type="button" className="small" onClick={() => void s.loadRuns()}>
                Refresh
              </button>
            </div>
            {s.runsError && <ErrorNote error={s.runsError} title="The runs could not be listed" />}
            {s.runs && s.runs.total === 0 && <p className="muted">No runs yet. Gate envelopes or run a demo scenario.</p>}
            <ul className="stack-list run-list">
              {(s.runs?.items ?? []).map((r) => (
                <li key={r.runId}>
                  <RunItem run={r} open={r.runId === s.runId} onOpen={() => void s.openRun(r.runId)} />
                </li>
              ))}
            </ul>
            {s.runs && s.runs.total > RUN_PAGE && (
              <div className="row run-pager">
                <button type="button" className="small" disabled={s.offset === 0} onClick={() => void s.loadRuns(Math.max(0, s.offset - RUN_PAGE))}>
                  Newer
                </button>
                <span className="muted">
                  {s.offset + 1}–{Math.min(s.runs.total, s.offset + RUN_PAGE)} of {count(s.runs.total)}
                </span>
                <button type="button" className="small" disabled={s.offset + RUN_PAGE >= s.runs.total} onClick={() => void s.loadRuns(s.offset + RUN_PAGE)}>
                  Older
                </button>
              </div>
            )}
          </section>
        </div>

        <div className="ws-column" data-testid="lineage-result">
          {s.runError && <ErrorNote error={s.runError} title="The run could not be opened" />}
          {!s.graph || !decision ? (
            !s.runError && (
              <section className="panel empty-result">
                <h2>No run open</h2>
                <p className="muted">
                  Run a demo scenario (<strong>cve-origin</strong> traces a critical CVE to its pull request) or gate your own envelopes (<code>provgate synth</code>, <code>ingest</code>,{' '}
                  <code>lineage</code> and <code>merge</code> write them). Earlier runs are listed on the left.
                </p>
              </section>
            )
          ) : (
            <>
              <section className="panel lineage-decision" aria-label="Decision" data-testid="decision">
                <div className="panel__head">
                  <h2 tabIndex={-1} ref={decisionHeading}>
                    Decision <VerdictBadge verdict={decision.verdict} />
                  </h2>
                  <div className="row">
                    {cypher ? (
                      <a className="button small" href={cypher.url} download={cypher.name} data-testid="cypher-download">
                        Save {cypher.name}
                      </a>
                    ) : (
                      <button type="button" className="small" onClick={() => void prepareCypher()} data-testid="cypher-export">
                        Export Cypher
                      </button>
                    )}
                  </div>
                </div>
                <p className="muted lineage-decision__counts">
                  {plural(decision.reasons.filter((r) => r.verdict === 'block').length, 'blocking reason')} · {plural(decision.reasons.filter((r) => r.verdict === 'warn').length, 'warning')} ·{' '}
                  {plural(s.detail?.envelopes ?? 0, 'envelope')} ({count(s.graph.rejected.length)} rejected) · stages {s.graph.stagesSeen.join(', ') || 'none'}
                  {s.graph.missingStages.length > 0 && <span className="neg"> · missing {s.graph.missingStages.join(', ')}</span>} · {plural(s.graph.findings.length, 'finding')}
                  {s.graph.unattributed.length > 0 && ` · ${count(s.graph.unattributed.length)} unattributed`}
                </p>
                {cypherError && <ErrorNote error={cypherError} title="The Cypher export failed" />}
                {reasons.length === 0 ? (
                  <p data-testid="no-reasons">No rule found anything: every envelope verified, every required stage is present, and no finding reaches a rule.</p>
                ) : (
                  <ul className="stack-list reasons" ref={reasonList} data-testid="reasons">
                    {reasons.map((r, at) => {
                      const index = decision.reasons.indexOf(r);
                      return <ReasonRow key={index} reason={r} index={index} open={openIndex === index} onOpen={() => void s.selectReason(index)} onKeyDown={(e) => moveReason(e, at)} />;
                    })}
                  </ul>
                )}
                {s.graph.rejected.length > 0 && (
                  <details className="rejected">
                    <summary>{plural(s.graph.rejected.length, 'rejected envelope')}</summary>
                    <ul>
                      {s.graph.rejected.map((r) => (
                        <li key={r.index}>
                          <code>envelope[{r.index}]</code> {rejectionReason(r.index, r.reason)}
                        </li>
                      ))}
                    </ul>
                  </details>
                )}
              </section>
              <section className="panel" aria-label="Provenance graph">
                {s.graph.nodes.length === 0 ? (
                  <>
                    <div className="panel__head">
                      <h2>Provenance graph</h2>
                    </div>
                    <p className="muted" data-testid="empty-graph">
                      Nothing to draw: no envelope of this run verified, so the gate knows no commit, build or scan. The reasons above say why.
                    </p>
                  </>
                ) : (
                  <LineageGraph graph={s.graph} highlight={s.highlight} theme={theme} onNode={(id) => void s.selectNode(id)} />
                )}
                <LayerList graph={s.graph} openId={s.focus?.kind === 'node' ? s.focus.id : null} onOpen={(id) => void s.selectNode(id)} />
              </section>
              <div className="lineage__pair">
                <FocusPanel store={store} />
                {s.detail && <CommentPreview markdown={s.detail.comment} />}
              </div>
            </>
          )}
        </div>
      </div>
    </div>
  );
}
