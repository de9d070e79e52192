// The case's Sigma detections: rules hit with level, count, hosts and first/last seen; a rule opens its events in the timeline.
import { useState, type ReactNode } from 'react';
import type { DetectionSummary, EvidenceItem, RejectedEvidence, RuleProblem } from './types';
import { shortTime } from './model';
import { LEVEL_RANK } from './detection-index';
import { counted } from '../../components/wording';

type Level = DetectionSummary['level'];
const LEVELS: readonly Level[] = ['informational', 'low', 'medium', 'high', 'critical'];

/** A rule's level as the shared badge; informational is written `info` (as the other workspaces' badges), the whole word on hover. */
export function LevelBadge({ level }: { readonly level: DetectionSummary['level'] }) {
  return (
    <span className={`sev sev--${level} level-badge`} title={level === 'informational' ? 'informational' : undefined}>
      {level === 'informational' ? 'info' : level}
    </span>
  );
}

/** Hosts listed in a row before the rest are counted (all of them on hover). */
const HOSTS_SHOWN = 3;

/** A host name with a break opportunity after each dot, so a long FQDN wraps at its labels (a hyphen already is one). */
function HostName({ name }: { readonly name: string }) {
  const parts = name.split(/(?<=\.)/u);
  return (
    <span className="detections__host">
      {parts.map((p, i) => (
        <span key={i}>
          {p}
          {i < parts.length - 1 && <wbr />}
        </span>
      ))}
    </span>
  );
}

function HostsCell({ hosts }: { readonly hosts: readonly string[] }) {
  if (hosts.length === 0) return <td>—</td>;
  const more = hosts.length - HOSTS_SHOWN;
  return (
    <td title={hosts.join('\n')} className="detections__hosts">
      {hosts.slice(0, more > 1 ? HOSTS_SHOWN : hosts.length).map((h) => (
        <HostName key={h} name={h} />
      ))}
      {more > 1 && <span className="muted detections__host">and {more.toLocaleString('en')} more</span>}
    </td>
  );
}

/** An ATT&CK tactic as a short name on one line (`privilege escalation`); the tag (`privilege-escalation`) is the cell's hover. */
function tacticLabel(tactic: string): string {
  return tactic === 'command-and-control' ? 'command & control' : tactic.replace(/-/gu, ' ');
}

export interface DetectionsPanelProps {
  readonly rows: readonly DetectionSummary[];
  readonly selected: string | null;
  readonly onSelect: (rule: DetectionSummary | null) => void;
  /** Rules (shipped or the analyst's) that could not be parsed or compiled, so did not run on this case. */
  readonly problems?: readonly RuleProblem[];
  /** ATT&CK names by technique id (the case's techniques), shown on hover. */
  readonly techniqueNames?: ReadonlyMap<string, string>;
  /** How the case was started: a built-in scenario runs without Sigma unless asked, which the empty state says. */
  readonly origin?: string;
}

/** One list of rules that did not run: a label, and the rules (file, title, why) on demand. */
function ProblemList({ problems, label, why, note, className, testId }: { readonly problems: readonly RuleProblem[]; readonly label: ReactNode; readonly why: (p: RuleProblem) => string; readonly note?: ReactNode; readonly className: string; readonly testId: string }) {
  if (problems.length === 0) return null;
  return (
    <details className={`rule-problems ${className}`} data-testid={testId}>
      <summary>{label}</summary>
      {note !== undefined && <p className="muted rule-problems__note">{note}</p>}
      <table className="detections__table">
        <thead>
          <tr>
            <th scope="col">Rule file</th>
            <th scope="col">Title</th>
            <th scope="col">Status</th>
          </tr>
        </thead>
        <tbody>
          {problems.map((p, i) => (
            <tr key={`${p.source}:${p.id ?? i}`}>
              <td className="mono">{p.source}</td>
              <td>{p.title ?? '—'}</td>
              <td>{why(p)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  );
}

/** Placeholder names shown in the summary of inactive rules before the rest are counted. */
const PLACEHOLDERS_SHOWN = 3;

/** `inactive: needs placeholder %name%`, as the command line names such a rule (forensic analyze). */
export function inactiveReason(placeholder: string): string {
  return `inactive: needs placeholder %${placeholder}%`;
}

/** The summary of the inactive rules: how many, and the placeholders they wait for (the first few, then a count). */
export function inactiveLabel(waiting: readonly RuleProblem[]): string {
  const names = [...new Set(waiting.map((p) => p.placeholder ?? ''))].filter((n) => n !== '');
  const shown = names.slice(0, PLACEHOLDERS_SHOWN).map((n) => `%${n}%`);
  const more = names.length - shown.length;
  const list = `${shown.join(', ')}${more > 0 ? ` and ${more.toLocaleString('en')} more` : ''}`;
  return waiting.length === 1 ? `1 rule ${inactiveReason(names[0] ?? '')}` : `${counted(waiting.length, 'rule')} inactive: need placeholder ${names.length === 1 ? '' : 'values '}${list}`;
}

/**
 * The rules that did not run, in two lists: broken ones (could not be parsed or compiled), with a warning badge, and
 * valid ones inactive because a placeholder they use has no values yet, said calmly as the command line says them
 * (not broken; --strict does not count them). Each: its count, and the list (file, title, status) on demand.
 */
export function RuleProblems({ problems }: { readonly problems: readonly RuleProblem[] }) {
  const broken = problems.filter((p) => p.placeholder === undefined);
  const waiting = problems.filter((p) => p.placeholder !== undefined);
  return (
    <>
      <ProblemList
        problems={broken}
        label={
          <>
            <span className="sev sev--medium">{broken.length.toLocaleString('en')}</span> {`broken rule${broken.length === 1 ? '' : 's'} could not run on this case`}
          </>
        }
        why={(p) => p.reason}
        className="rule-problems--broken"
        testId="rule-problems"
      />
      <ProblemList
        problems={waiting}
        label={<span className="muted">{inactiveLabel(waiting)}</span>}
        why={(p) => inactiveReason(p.placeholder ?? '')}
        note={
          <>
            Not broken: these rules run once their placeholders have values, which the command line takes (<code className="rule-problems__command">forensic analyze --placeholders FILE</code>).
          </>
        }
        className="rule-problems--inactive"
        testId="rule-placeholders"
      />
    </>
  );
}

/**
 * The lowest level shown. Informational and low hits are enrichment (they stay in the timeline and the case's
 * techniques); the analyst narrows the table to what raises stories without losing the rest. The rule whose events the
 * timeline shows stays listed whatever the choice.
 */
function LevelFilter({ rows, value, onChange }: { readonly rows: readonly DetectionSummary[]; readonly value: Level; readonly onChange: (l: Level) => void }) {
  const present = LEVELS.filter((l) => rows.some((r) => r.level === l));
  if (present.length < 2) return null;
  return (
    <label className="detections__levels">
      <span className="muted">Lowest level</span>
      <select value={present.includes(value) ? value : present[0]} onChange={(e) => onChange(e.target.value as Level)} data-testid="detections-level">
        {present.map((l) => {
          const n = rows.filter((r) => LEVEL_RANK[r.level] >= LEVEL_RANK[l]).length;
          return (
            <option key={l} value={l}>
              {l === present[0] ? `${l} (all ${n})` : `${l} and up (${n})`}
            </option>
          );
        })}
      </select>
    </label>
  );
}

export function DetectionsPanel({ rows, selected, onSelect, problems = [], techniqueNames, origin }: DetectionsPanelProps) {
  const [lowest, setLowest] = useState<Level>('informational');
  const total = rows.reduce((n, r) => n + r.count, 0);
  const shown = rows.filter((r) => LEVEL_RANK[r.level] >= LEVEL_RANK[lowest] || r.ruleId === selected);
  const hidden = rows.length - shown.length;
  return (
    <section className="panel" aria-label="Detections" data-testid="detections">
      <div className="panel__head">
        <h2>Detections</h2>
        <span className="muted">
          {rows.length === 0 ? 'none' : `${counted(total, 'detection')} by ${counted(rows.length, 'Sigma rule')}`} · SigmaHQ rules (DRL 1.1) and built-in Windows rules
        </span>
        <span className="spacer" />
        {rows.length > 0 && <LevelFilter rows={rows} value={lowest} onChange={setLowest} />}
      </div>
      <RuleProblems problems={problems} />
      {rows.length === 0 ? (
        <p className="muted" data-testid="detections-empty">
          {origin?.startsWith('scenario') === true
            ? 'No Sigma rule ran on this case: a built-in scenario is analysed without Sigma rules (it measures the causal rules). To see detections, analyse EVTX files: tick them in the evidence root on the left, or name them in the paths box, and press Analyse paths.'
            : 'No Sigma rule matched this case\'s events. Rules that could not run are listed above; the timeline and stories still show every event.'}
        </p>
      ) : (
        <div className="detections__scroll">
          <table className="detections__table">
            <thead>
              <tr>
                <th scope="col">Level</th>
                <th scope="col">Rule</th>
                <th scope="col" className="num">
                  Count
                </th>
                <th scope="col">Hosts</th>
                <th scope="col">First / last seen (UTC)</th>
                <th scope="col">Techniques / tactics</th>
              </tr>
            </thead>
            <tbody>
              {shown.map((r) => (
                <tr key={r.ruleId} className={selected === r.ruleId ? 'detections__row--open' : undefined} data-rule-id={r.ruleId}>
                  <td>
                    <LevelBadge level={r.level} />
                  </td>
                  <td className="detections__rule">
                    <button type="button" className="link" onClick={() => onSelect(selected === r.ruleId ? null : r)} aria-pressed={selected === r.ruleId} title="Show this rule's events in the timeline">
                      {r.title}
                    </button>
                    <span className="muted detections__author" title={r.author ?? undefined}>
                      {r.author !== null ? `by ${r.author}` : 'author not given'}
                    </span>
                  </td>
                  <td className="num">{r.count.toLocaleString('en')}</td>
                  <HostsCell hosts={r.hosts} />
                  <td>
                    <div className="when">{r.firstSeen ? shortTime(r.firstSeen) : '—'}</div>
                    {r.lastSeen !== null && r.lastSeen !== r.firstSeen && <div className="when muted">{shortTime(r.lastSeen)}</div>}
                  </td>
                  <td className="detections__attack">
                    <div className="detections__techniques" title={r.techniques.map((t) => `${t} ${techniqueNames?.get(t) ?? ''}`.trim()).join('\n') || undefined}>
                      {r.techniques.join(', ') || '—'}
                    </div>
                    {r.tactics.length > 0 && (
                      <div className="muted detections__tactics" title={r.tactics.join('\n')}>
                        {r.tactics.map((t) => (
                          <span key={t}>{tacticLabel(t)}</span>
                        ))}
                      </div>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {hidden > 0 && (
            <p className="muted detections__hidden" data-testid="detections-hidden">
              {hidden} rule{hidden === 1 ? '' : 's'} below {lowest} not listed (their hits stay in the timeline and the case&apos;s techniques).{' '}
              <button type="button" className="link" onClick={() => setLowest('informational')}>
                Show all
              </button>
            </p>
          )}
        </div>
      )}
    </section>
  );
}

/** The evidence inventory of the case: what was read, its SHA-256, events and loader warnings. */
export function EvidencePanel({ evidence, rejected = [] }: { readonly evidence: readonly EvidenceItem[]; readonly rejected?: readonly RejectedEvidence[] }) {
  return (
    <section className="panel" aria-label="Evidence inventory" data-testid="evidence-inventory">
      <div className="panel__head">
        <h2>Evidence inventory</h2>
        <span className="muted">
          {evidence.length} artefact{evidence.length === 1 ? '' : 's'} analysed{rejected.length > 0 ? `, ${rejected.length} not` : ''}
        </span>
      </div>
      {rejected.length > 0 && (
        <div className="evidence-rejected" role="note" data-testid="evidence-rejected">
          <p>
            <strong>
              {rejected.length} artefact{rejected.length === 1 ? ' was' : 's were'} not analysed
            </strong>{' '}
            (each is a custody record too); the case holds the others:
          </p>
          <ul>
            {rejected.map((r) => (
              <li key={r.path} data-path={r.path}>
                <span className="selectable">{r.path}</span> <span className="muted">({r.code})</span>: {r.reason}
              </li>
            ))}
          </ul>
        </div>
      )}
      <div className="detections__scroll">
        <table className="detections__table">
          <thead>
            <tr>
              <th scope="col">File</th>
              <th scope="col">Kind</th>
              <th scope="col">SHA-256</th>
              <th scope="col" className="num">
                Bytes
              </th>
              <th scope="col" className="num">
                Events
              </th>
              <th scope="col" className="num">
                Loader warnings
              </th>
            </tr>
          </thead>
          <tbody>
            {evidence.map((e) => (
              <tr key={`${e.path}-${e.sha256}`}>
                <td>{e.path}</td>
                <td>{e.kind}</td>
                <td>
                  <code className="selectable">{e.sha256}</code>
                </td>
                <td className="num">{e.bytes.toLocaleString('en')}</td>
                <td className="num">{e.events.toLocaleString('en')}</td>
                <td className="num">{e.warnings.toLocaleString('en')}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
