// Pieces of the Cases workspace: story list with the confidence breakdown chart and technique tags, the custody panel with its verify button and head copy, report export.
import { useState } from 'react';
import type { CaseSummary, ConfidenceBreakdown, CustodyView, Story } from '../../../../engines/core/contracts/forensic';
import type { ApiError} from '../../api/client';
import { type ApiClient, asApiError } from '../../api/client';
import { ErrorNote } from '../../components/ErrorNote';
import { downloadText } from '../../components/download';
import { SendToButton } from '../../components/SendTo';
import { indicatorsIn } from '../../components/SendToModel';
import { breakdownBars, exportName, findingTitle, gradeClass, zonedTime } from './model';
import { counted, displayProse } from '../../components/wording';

export function GradeBadge({ grade }: { readonly grade: string | null }) {
  return <span className={gradeClass(grade)}>{grade ?? '—'}</span>;
}

/** The confidence breakdown as small horizontal bars (SVG: no inline styles for the CSP to refuse). */
export function ConfidenceChart({ c, compact = false }: { readonly c: ConfidenceBreakdown; readonly compact?: boolean }) {
  const bars = breakdownBars(c);
  const row = compact ? 9 : 16;
  const labelW = compact ? 0 : 118;
  const barW = compact ? 90 : 180;
  return (
    <svg
      className="confidence-chart"
      width={labelW + barW + (compact ? 0 : 40)}
      height={bars.length * row}
      role="img"
      aria-label={`Confidence breakdown: ${bars.map(([k, v]) => `${k} ${v.toFixed(2)}`).join(', ')}; grade ${c.grade}`}
      data-testid="confidence-chart"
    >
      {bars.map(([label, value], i) => (
        <g key={label} className={label === 'Score' ? 'confidence-chart__score' : label === 'Tampering penalty' ? 'confidence-chart__penalty' : ''}>
          {!compact && (
            <text x={0} y={i * row + row - 4} className="confidence-chart__label">
              {label}
            </text>
          )}
          <rect x={labelW} y={i * row + 2} width={barW} height={row - 4} className="confidence-chart__track" />
          <rect x={labelW} y={i * row + 2} width={Math.max(0, Math.min(1, value)) * barW} height={row - 4} className="confidence-chart__bar" />
          {!compact && (
            <text x={labelW + barW + 4} y={i * row + row - 4} className="confidence-chart__value">
              {value.toFixed(2)}
            </text>
          )}
        </g>
      ))}
    </svg>
  );
}

export function StoryList({ stories, selected, onSelect }: { readonly stories: readonly Story[]; readonly selected: Story | null; readonly onSelect: (s: Story) => void }) {
  if (stories.length === 0) return <p className="muted">The analysis found no story: nothing linked strongly enough to tell one.</p>;
  return (
    <ul
      className="case-stories"
      onKeyDown={(e) => {
        if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
        e.preventDefault();
        const i = stories.findIndex((s) => s === selected);
        const next = stories[Math.min(stories.length - 1, Math.max(0, i + (e.key === 'ArrowDown' ? 1 : -1)))];
        if (next) {
          onSelect(next);
          (e.currentTarget.querySelector(`[data-story-id="${next.id}"]`) as HTMLElement | null)?.focus();
        }
      }}
    >
      {stories.map((s) => (
        <li key={s.id}>
          <button type="button" className="story-item pick-row" aria-current={selected === s ? 'true' : undefined} onClick={() => onSelect(s)} data-story-id={s.id}>
            <span className="story-item__title">
              <GradeBadge grade={s.confidence.grade} /> <strong>{s.id}</strong> {s.title}
            </span>
            <span className="story-item__meta muted">
              suspicion {s.suspicion.toFixed(2)} · score {s.confidence.score.toFixed(2)} · {counted(s.eventIds.length, 'event')} · {s.hosts.join(', ')}
            </span>
            <ConfidenceChart c={s.confidence} compact />
          </button>
        </li>
      ))}
    </ul>
  );
}

export function StoryDetail({ story, caseId, caseTitle, client }: { readonly story: Story; readonly caseId: string; readonly caseTitle?: string; readonly client: ApiClient }) {
  const [technique, setTechnique] = useState<string | null>(null);
  const chosen = story.techniques.find((t) => t.id === technique) ?? null;
  return (
    <section className="panel story-detail" aria-label={`Story ${story.id}`} data-testid="story-detail">
      <div className="panel__head">
        <h2>
          {story.id}: {story.title}
        </h2>
        <GradeBadge grade={story.confidence.grade} />
        {/* Its techniques, and every indicator the story holds (addresses with ports, domains, hashes, paths, keys); machine names are not sent. */}
        <SendToButton
          client={client}
          testId="story-send-to"
          finding={{ title: findingTitle(caseTitle, caseId, `story ${story.id}: ${story.title}`), techniques: story.techniques.map((t) => t.id), indicators: indicatorsIn(story), source: { service: 'forensic', kind: 'story', id: `${caseId}/${story.id}`, link: `#/forensic/case/${caseId}/story/${story.id}` } }}
        />
      </div>
      <p>{displayProse(story.summary)}</p>
      <div className="story-detail__grid">
        <div>
          <h3>Confidence breakdown</h3>
          <ConfidenceChart c={story.confidence} />
          <p className="muted small-print">The score weighs four terms and multiplies by the tampering penalty; it ranks how sure the reconstruction is, and is not a calibrated probability.</p>
        </div>
        <dl className="facts">
          <dt>Hosts</dt>
          <dd>{story.hosts.join(', ') || '—'}</dd>
          <dt>From</dt>
          <dd>{zonedTime(story.start)}</dd>
          <dt>To</dt>
          <dd>{zonedTime(story.end)}</dd>
          <dt>Stages</dt>
          <dd>{story.stages.join(' → ') || '—'}</dd>
          <dt>Suspicion</dt>
          <dd>{story.suspicion.toFixed(2)}</dd>
        </dl>
      </div>
      <h3>Techniques</h3>
      <div className="techniques" role="list" aria-label="ATT&CK techniques">
        {story.techniques.length === 0 && <span className="muted">None tagged.</span>}
        {story.techniques.map((t) => (
          <button
            key={t.id}
            type="button"
            role="listitem"
            className={`technique${technique === t.id ? ' technique--open' : ''}`}
            title={`${t.id} ${t.name}`}
            aria-expanded={technique === t.id}
            onClick={() => setTechnique(technique === t.id ? null : t.id)}
            data-technique={t.id}
          >
            {t.id}
          </button>
        ))}
      </div>
      {chosen && (
        <p className="technique-name" data-testid="technique-name">
          <code>{chosen.id}</code> <strong>{chosen.name}</strong> <span className="muted">({chosen.tactics.join(', ') || 'no tactic'})</span>
        </p>
      )}
    </section>
  );
}

const RECORDS_SHOWN = 30;

/** Copies the custody head and count to the clipboard, to anchor it outside the workstation. */
function CopyHead({ head, count }: { readonly head: string; readonly count: number }) {
  const [note, setNote] = useState<string | null>(null);
  const copy = async (text: string): Promise<void> => {
    try {
      await navigator.clipboard.writeText(text);
      setNote('Copied.');
    } catch {
      setNote('The clipboard is not available here: select the text and press Ctrl+C.');
    }
  };
  return (
    <>
      {' '}
      <button type="button" className="small" aria-label="Copy the custody head" onClick={() => void copy(head)}>
        Copy head
      </button>{' '}
      <button type="button" className="small" aria-label="Copy the custody head and record count" onClick={() => void copy(`custody head ${head} count ${count} at ${new Date().toISOString()}`)}>
        Copy head and count
      </button>
      {note !== null && (
        <span className="muted" role="status">
          {' '}
          {note}
        </span>
      )}
    </>
  );
}

export function CustodyPanel({ client, base, summary }: { readonly client: ApiClient; readonly base: string; readonly summary: CaseSummary }) {
  const [custody, setCustody] = useState<CustodyView | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const [busy, setBusy] = useState(false);
  const verify = async (): Promise<void> => {
    setBusy(true);
    try {
      setCustody(await client.get<CustodyView>(`${base}/api/cases/${encodeURIComponent(summary.id)}/custody`));
      setError(null);
    } catch (err) {
      setError(asApiError(err));
    } finally {
      setBusy(false);
    }
  };
  const v = custody?.verification;
  const listed = custody?.records.filter((r) => r.action !== 'ingest') ?? [];
  return (
    <section className="panel custody" aria-label="Chain of custody" data-testid="custody-panel">
      <div className="panel__head">
        <h2>Chain of custody</h2>
        <button type="button" className="small" onClick={() => void verify()} disabled={busy || summary.status !== 'done'} data-testid="verify-custody">
          {busy ? 'Verifying…' : 'Verify ledger'}
        </button>
      </div>
      {!custody && !error && <p className="muted">Each record commits to the one before. Verify recomputes the whole chain in the store and checks its append-only triggers.</p>}
      {error && <ErrorNote error={error} title="The ledger could not be read" />}
      {v && (
        <>
          <p className={v.ok ? 'custody__ok' : 'custody__bad'} role="status" data-testid="custody-verdict">
            {v.ok ? `Verified: ${counted(v.count, 'record')}, every link intact.` : `Verification FAILED at record ${v.firstBroken ?? '?'}: ${v.reason ?? 'unknown reason'}.`}
            {v.missingTriggers.length > 0 && ` Missing triggers: ${v.missingTriggers.join(', ')}.`}
          </p>
          <dl className="facts">
            <dt>Head</dt>
            <dd>
              <code className="selectable" data-testid="custody-head">
                {v.head}
              </code>
              <CopyHead head={v.head} count={v.count} />
            </dd>
          </dl>
          <p className="muted">Record the head and the record count outside this workstation: a later verification can then show that the records up to that head were not rewritten.</p>
          <table className="custody__records">
            <thead>
              <tr>
                <th scope="col">#</th>
                <th scope="col">action</th>
                <th scope="col">artefact</th>
                <th scope="col">digest</th>
              </tr>
            </thead>
            <tbody>
              {listed.slice(0, RECORDS_SHOWN).map((r) => (
                <tr key={r.seq}>
                  <td className="num">{r.seq}</td>
                  <td>{r.action}</td>
                  <td>{r.artifact ?? '—'}</td>
                  <td>
                    <code title={r.digest}>{r.digest.slice(0, 16)}…</code>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <p className="muted">{(custody.records.length - listed.length).toLocaleString('en')} ingest records (one per event) are not listed.</p>
        </>
      )}
    </section>
  );
}

const EXPORTS = [
  { path: '', ext: 'json', label: 'Case (JSON)', type: 'application/json', accept: 'application/json' },
  { path: 'report.md', ext: 'md', label: 'Report (Markdown)', type: 'text/markdown', accept: 'text/markdown' },
  { path: 'report.html', ext: 'html', label: 'Report (HTML)', type: 'text/html', accept: 'text/html' },
  { path: 'cypher', ext: 'cypher', label: 'Graph (Cypher)', type: 'text/plain', accept: 'text/plain' },
  { path: 'navigator.json', ext: 'layer.json', label: 'ATT&CK Navigator layer', type: 'application/json', accept: 'application/json' },
] as const;

export function ExportBar({ client, base, summary }: { readonly client: ApiClient; readonly base: string; readonly summary: CaseSummary }) {
  const [error, setError] = useState<ApiError | null>(null);
  const save = async (e: (typeof EXPORTS)[number]): Promise<void> => {
    try {
      // The JSON export is the case with its stories, every node and edge they use, detections and annotations.
      const res = await client.open(`${base}/api/cases/${encodeURIComponent(summary.id)}${e.path === '' ? '' : `/${e.path}`}`, { accept: e.accept });
      downloadText(await res.text(), exportName(summary.id, e.ext), e.type);
      setError(null);
    } catch (err) {
      setError(asApiError(err));
    }
  };
  return (
    <div className="export-bar" data-testid="export-bar">
      <span className="muted">Export</span>
      {EXPORTS.map((e) => (
        <button key={e.path} type="button" className="small" onClick={() => void save(e)} disabled={summary.status !== 'done'} data-export={e.ext}>
          {e.label}
        </button>
      ))}
      {error && <ErrorNote error={error} title="The export failed" />}
    </div>
  );
}
