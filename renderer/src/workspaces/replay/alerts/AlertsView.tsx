// Every alert of an analysis (not only those in stories): filters by detector, severity, host, time and story, sortable columns, pages, each row opening to its evidence.
import { Fragment, useState } from 'react';
import type { AlertPage, AlertRow, AnalysisDetail, ReplayHealth, Severity } from '../../../../../engines/core/contracts/replay';
import type { ApiClient } from '../../../api/client';
import { SendToButton } from '../../../components/SendTo';
import { hostIndicator, indicatorsIn, mergeIndicators, type Finding } from '../../../components/SendToModel';
import { alertQuery, NO_ALERT_FILTERS, type AlertFilters } from '../browse';
import { BrowsePager, EvidenceFacts, FilterTail, QueryProblems, SeverityBadge, SortHeader, useBrowseTable } from '../common';
import { count, plural, SEVERITY_ORDER, utc } from '../model';
import { counted, displayProse } from '../../../components/wording';

export interface AlertsViewProps {
  readonly client: ApiClient;
  readonly base: string;
  readonly analysis: AnalysisDetail;
  readonly rules: ReplayHealth['rules'];
  readonly filters: AlertFilters;
  readonly onFilters: (f: AlertFilters) => void;
  readonly onOpenStory: (storyId: string) => void;
  readonly onShowFlows: (host: string) => void;
}

/** An alert as a finding for Send to: its techniques and every indicator it holds (source and targets with ports, names, evidence). */
export function alertFinding(a: AlertRow, analysisId: string): Finding {
  return {
    title: `Replay alert ${a.rule} from ${a.src}`,
    techniques: [...a.techniques],
    indicators: mergeIndicators([hostIndicator(a.src)], indicatorsIn({ summary: a.summary, dst: a.dst, evidence: a.evidence })),
    source: { service: 'replay', kind: 'alert', id: `${analysisId}/${a.rule}`, link: `#/replay/analysis/${analysisId}/alert/${a.rule}` },
  };
}

function AlertDetail({ a, analysisId, client, onOpenStory, onShowFlows }: { readonly a: AlertRow; readonly analysisId: string; readonly client: ApiClient; readonly onOpenStory: (id: string) => void; readonly onShowFlows: (host: string) => void }) {
  return (
    <div className="alert-row__detail">
      <p>{displayProse(a.summary)}</p>
      <div className="row">
        <span>
          rule <code>{a.rule}</code>
        </span>
        <span className="muted">
          {utc(a.first_ts)} → {utc(a.last_ts)}
        </span>
        {a.techniques.map((t) => (
          <code key={t} className="technique">
            {t}
          </code>
        ))}
        {a.story_id !== null && (
          <button type="button" className="small" onClick={() => onOpenStory(a.story_id ?? '')}>
            Open story {a.story_ordinal}
          </button>
        )}
        <button type="button" className="small" onClick={() => onShowFlows(a.src)}>
          Flows of {a.src}
        </button>
        <SendToButton client={client} testId="alert-send-to" finding={alertFinding(a, analysisId)} />
      </div>
      <EvidenceFacts evidence={a.evidence} />
      <p className="muted">
        Evidence: {counted(a.evidence.uid_count, 'connection')}
        {a.evidence.uids.length > 0 ? ` (${a.evidence.uids.slice(0, 12).join(', ')}${a.evidence.uids.length > 12 ? ' …' : ''})` : ''}; packets{' '}
        {a.evidence.packets
          .slice(0, 8)
          .map((p) => `#${p.packet}`)
          .join(', ') || '–'}
      </p>
    </div>
  );
}

export function AlertsView({ client, base, analysis, rules, filters, onFilters, onOpenStory, onShowFlows }: AlertsViewProps) {
  const [open, setOpen] = useState<string | null>(null);
  const { draft, setDraft, apply, tail, sorted, offset, setOffset, page, error, local } = useBrowseTable<AlertPage, AlertFilters>(
    client,
    `${base}/api/analyses/${encodeURIComponent(analysis.id)}/alerts`,
    analysis.id,
    filters,
    onFilters,
    NO_ALERT_FILTERS,
    alertQuery,
  );

  const toggleSeverity = (s: Severity): void => {
    const next = { ...draft, severities: draft.severities.includes(s) ? draft.severities.filter((x) => x !== s) : [...draft.severities, s] };
    setDraft(next);
    onFilters(next);
  };

  return (
    <section className="panel browse" aria-label="Alerts of the analysis" data-testid="alerts-view">
      <div className="panel__head">
        <h2>Alerts</h2>
        <span className="muted">
          every rule hit of {analysis.name}: {plural(analysis.stats.alerts, 'alert')}, {count(analysis.stats.alerts_in_stories)} of them in stories
        </span>
      </div>
      <form className="browse__filters" onSubmit={apply}>
        <label>
          Detector{' '}
          <select value={draft.rule} onChange={(e) => onFilters({ ...draft, rule: e.target.value })} data-testid="alerts-rule">
            <option value="">all rules</option>
            {rules.map((r) => (
              <option key={r.name} value={r.name}>
                {r.title} ({count(analysis.rules[r.name] ?? 0)})
              </option>
            ))}
          </select>
        </label>
        <fieldset className="browse__chips" aria-label="Severity">
          {SEVERITY_ORDER.map((s) => (
            <label key={s} className={`chip${draft.severities.includes(s) ? ' chip--on' : ''}`}>
              <input type="checkbox" checked={draft.severities.includes(s)} onChange={() => toggleSeverity(s)} data-testid={`alerts-severity-${s}`} /> {s}
            </label>
          ))}
        </fieldset>
        <label>
          Host <input type="text" value={draft.host} onChange={(e) => setDraft({ ...draft, host: e.target.value })} placeholder="10.0.0.5" size={16} data-testid="alerts-host" />
        </label>
        <label>
          In a story{' '}
          <select value={draft.inStory} onChange={(e) => onFilters({ ...draft, inStory: e.target.value as AlertFilters['inStory'] })}>
            <option value="any">either</option>
            <option value="story">yes</option>
            <option value="none">no (left out of stories)</option>
          </select>
        </label>
        <FilterTail {...tail} applyTestId="alerts-apply" />
      </form>
      <QueryProblems local={local} error={error} title="The alerts could not be listed" />
      {page && page.total === 0 && (
        <p className="muted" data-testid="alerts-empty">
          {analysis.stats.alerts === 0 ? 'No rule fired on this capture: nothing to list.' : 'No alert matches these filters. Clear them to see all.'}
        </p>
      )}
      {page && page.items.length > 0 && (
        <div className="table-wrap browse__table">
          <table className="data-table" data-testid="alerts-table" data-total={page.total}>
            <thead>
              <tr>
                <SortHeader label="First seen (UTC)" {...sorted('time')} />
                <SortHeader label="Severity" {...sorted('severity', 'desc')} />
                <th>Stage</th>
                <SortHeader label="Detector" {...sorted('rule')} />
                <th>Alert</th>
                <SortHeader label="Acting host" {...sorted('src')} />
                <th>Targets</th>
                <SortHeader label="Story" {...sorted('story')} />
              </tr>
            </thead>
            <tbody>
              {page.items.map((a) => (
                <Fragment key={a.id}>
                  <tr className={`browse__row${open === a.id ? ' browse__row--open' : ''}`} data-alert-id={a.id} data-rule={a.rule} data-severity={a.severity}>
                    <td className="num">{utc(a.first_ts).slice(0, 23)}</td>
                    <td>
                      <SeverityBadge severity={a.severity} />
                    </td>
                    <td>{a.stage}</td>
                    <td>
                      <code>{a.rule}</code>
                    </td>
                    <td className="wrap">
                      <button type="button" className="link" aria-expanded={open === a.id} onClick={() => setOpen(open === a.id ? null : a.id)}>
                        {a.id} {a.title}
                      </button>
                    </td>
                    <td>{a.src}</td>
                    <td className="wrap">
                      {a.dst.slice(0, 2).join(', ')}
                      {a.dst_count > 2 ? ` +${count(a.dst_count - 2)}` : ''}
                    </td>
                    <td>
                      {a.story_id !== null ? (
                        <button type="button" className="small" onClick={() => onOpenStory(a.story_id ?? '')}>
                          Story {a.story_ordinal}
                        </button>
                      ) : (
                        <span className="muted" title="Too weak alone (low severity, one stage) and linked to no other alert">
                          none
                        </span>
                      )}
                    </td>
                  </tr>
                  {open === a.id && (
                    <tr className="browse__detail">
                      <td colSpan={8}>
                        <AlertDetail a={a} analysisId={analysis.id} client={client} onOpenStory={onOpenStory} onShowFlows={onShowFlows} />
                      </td>
                    </tr>
                  )}
                </Fragment>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <BrowsePager page={page} offset={offset} onOffset={setOffset} />
    </section>
  );
}
