// The Monitoring tab: watch a package for new releases, the watch list (state, failing marker, last and next check, approved and newest versions), check now, enable/disable, interval, stop watching, and the monitoring events and check history.
import { useState, type FormEvent } from 'react';
import type { PageOf, SecurityEvent } from '../../../../../engines/core/contracts/pkgscan';
import type { MonitorCheck, WatchedPackage } from '../../../../../engines/core/contracts/pkgscan-monitoring';
import { ErrorNote } from '../../../components/ErrorNote';
import { agreeing } from '../../../components/wording';
import { duration, sentence, when } from '../common/format';
import { useLoad } from '../../../components/useLoad';
import { useAction } from '../common/hooks';
import { usePackagesNav } from '../common/nav';
import { PackageLink, Pager, SeverityBadge } from '../common/ui';
import type { PkgscanApi } from '../session';
import { DEFAULT_INTERVAL, MONITOR_EVENT_TYPES, dueText, intervalSeconds, intervalText, resultText, resultTone, splitInterval, stateText, type IntervalUnit } from './model';

const LIMIT = 25;

export function MonitoringTab({ api, canWrite, canReadEvents }: { api: PkgscanApi; canWrite: boolean; canReadEvents: boolean }) {
  const [failingOnly, setFailingOnly] = useState(false);
  const [offset, setOffset] = useState(0);
  const [open, setOpen] = useState<string | null>(null);
  const list = useLoad(() => api.get<PageOf<WatchedPackage>>('/monitoring/packages', { limit: LIMIT, offset, failing: failingOnly ? 'true' : undefined }), [api, offset, failingOnly]);
  const items = list.data?.items ?? [];
  return (
    <div className="ws-column" data-testid="monitoring-tab">
      {canWrite && <WatchForm api={api} onWatched={() => list.reload()} />}
      <section className="panel" aria-label="Watched packages">
        <div className="packages__filters">
          <h2>Watched packages</h2>
          <label className="small">
            <input type="checkbox" checked={failingOnly} onChange={(e) => {
              setFailingOnly(e.target.checked);
              setOffset(0);
            }} /> failing only
          </label>
          <button type="button" onClick={() => list.reload()}>
            Refresh
          </button>
        </div>
        {list.error && <ErrorNote error={list.error} title="The watch list could not be read" />}
        {list.data && items.length === 0 && (
          <div className="empty" data-testid="watch-empty">
            {failingOnly ? 'No watched package is failing.' : canWrite ? 'Nothing is watched yet. Watch a package above: its first check takes a baseline, later checks report new releases.' : 'Nothing is watched yet. A user with monitor:write can watch packages.'}
          </div>
        )}
        {items.length > 0 && (
          <table className="packages__table pk-watch">
            <thead>
              <tr>
                <th>Package</th>
                <th>State</th>
                <th>Last check</th>
                <th>Next check</th>
                <th>Approved</th>
                <th>Newest seen</th>
                <th>Interval</th>
                <th>
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {items.map((w) => (
                <WatchRow key={w.id} api={api} w={w} canWrite={canWrite} open={open === w.id} onToggle={() => setOpen(open === w.id ? null : w.id)} onChanged={() => list.reload()} />
              ))}
            </tbody>
          </table>
        )}
        {list.data && list.data.total > LIMIT && <Pager offset={offset} limit={LIMIT} total={list.data.total} onOffset={setOffset} />}
        <p className="muted small">
          Checks read the package store, then the lab npm and PyPI mirrors when they are configured. With no mirror configured, a new release appears when a newer one is imported in the Store tab. The worker checks each enabled package on its schedule; failures back off up to a day.
        </p>
      </section>
      {open !== null && <CheckHistory key={open} api={api} id={open} name={items.find((w) => w.id === open)?.name ?? ''} />}
      {canReadEvents && <MonitorEvents api={api} />}
    </div>
  );
}

export function IntervalFields({ value, unit, onValue, onUnit, label }: { value: string; unit: IntervalUnit; onValue: (v: string) => void; onUnit: (u: IntervalUnit) => void; label: string }) {
  const n = Number(value.trim());
  return (
    <span className="pk-interval">
      <input aria-label={`${label} value`} inputMode="numeric" size={4} value={value} onChange={(e) => onValue(e.target.value)} maxLength={6} />
      <select aria-label={`${label} unit`} value={unit} onChange={(e) => onUnit(e.target.value as IntervalUnit)}>
        {/* The unit agrees with the number typed beside it: "check every 1 hour", "every 2 hours". */}
        <option value="minutes">{agreeing(n, 'minute')}</option>
        <option value="hours">{agreeing(n, 'hour')}</option>
        <option value="days">{agreeing(n, 'day')}</option>
      </select>
    </span>
  );
}

function WatchForm({ api, onWatched }: { api: PkgscanApi; onWatched: () => void }) {
  const [ecosystem, setEcosystem] = useState<'npm' | 'pypi'>('npm');
  const [name, setName] = useState('');
  const [approved, setApproved] = useState('');
  const init = splitInterval(DEFAULT_INTERVAL);
  const [value, setValue] = useState(init.value);
  const [unit, setUnit] = useState<IntervalUnit>(init.unit);
  const [invalid, setInvalid] = useState<string | null>(null);
  const action = useAction();
  const submit = async (e: FormEvent): Promise<void> => {
    e.preventDefault();
    const interval = intervalSeconds(value, unit);
    if ('error' in interval) {
      setInvalid(interval.error);
      return;
    }
    setInvalid(null);
    await action.run(async () => {
      await api.post<WatchedPackage>('/monitoring/packages', { ecosystem, name: name.trim(), poll_interval_seconds: interval.seconds, ...(approved.trim() ? { approved_version: approved.trim() } : {}) });
      setName('');
      setApproved('');
      onWatched();
    });
  };
  return (
    <form className="panel pk-watch-form" aria-label="Watch a package" data-testid="watch-form" onSubmit={(e) => void submit(e)}>
      <h2>Watch a package</h2>
      <div className="packages__filters">
        <select aria-label="Watch ecosystem" value={ecosystem} onChange={(e) => setEcosystem(e.target.value as 'npm' | 'pypi')}>
          <option value="npm">npm</option>
          <option value="pypi">PyPI</option>
        </select>
        <input aria-label="Watch package name" placeholder="package name" value={name} onChange={(e) => setName(e.target.value)} required maxLength={214} />
        <input aria-label="Approved version" placeholder="approved version" title="Optional: new releases are compared with it; empty compares with the last one seen" value={approved} onChange={(e) => setApproved(e.target.value)} maxLength={128} />
        <span className="small">check every</span>
        <IntervalFields label="Check interval" value={value} unit={unit} onValue={setValue} onUnit={setUnit} />
        <button type="submit" className="primary">
          Watch
        </button>
      </div>
      <p className="muted small">
        The interval is 5 minutes to 7 days. New releases are compared with the approved version, or with the last one seen when none is given.
      </p>
      {invalid !== null && (
        <p className="pk-invalid" role="alert">
          {invalid}
        </p>
      )}
      {action.error && <ErrorNote error={action.error} title={action.error.status === 409 ? 'That package is watched already' : 'The package could not be watched'} />}
    </form>
  );
}

function ResultTag({ result }: { result: WatchedPackage['last_result'] }) {
  const tone = resultTone(result);
  return <span className={`pk-tag pk-result pk-result--${tone}${tone === 'danger' ? ' pk-tag--danger' : tone === 'warn' ? ' pk-tag--warn' : ''}`}>{resultText(result)}</span>;
}

function WatchRow({ api, w, canWrite, open, onToggle, onChanged }: { api: PkgscanApi; w: WatchedPackage; canWrite: boolean; open: boolean; onToggle: () => void; onChanged: () => void }) {
  const openDiff = usePackagesNav((s) => s.openDiff);
  const action = useAction();
  const [checking, setChecking] = useState(false);
  const [check, setCheck] = useState<MonitorCheck | null>(null);
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const init = splitInterval(w.poll_interval_seconds);
  const [value, setValue] = useState(init.value);
  const [unit, setUnit] = useState<IntervalUnit>(init.unit);
  const [invalid, setInvalid] = useState<string | null>(null);
  const path = `/monitoring/packages/${encodeURIComponent(w.id)}`;

  const checkNow = async (): Promise<void> => {
    setChecking(true);
    await action.run(async () => {
      setCheck(await api.post<MonitorCheck>(`${path}/check`));
      onChanged();
    });
    setChecking(false);
  };
  const patch = async (body: Record<string, unknown>): Promise<void> => {
    await action.run(async () => {
      await api.patch<WatchedPackage>(path, body);
      onChanged();
    });
  };
  const saveInterval = async (e: FormEvent): Promise<void> => {
    e.preventDefault();
    const interval = intervalSeconds(value, unit);
    if ('error' in interval) {
      setInvalid(interval.error);
      return;
    }
    setInvalid(null);
    await patch({ poll_interval_seconds: interval.seconds });
    setEditing(false);
  };
  const remove = async (): Promise<void> => {
    await action.run(async () => {
      await api.del(path);
      onChanged();
    });
    setConfirming(false);
  };

  return (
    <>
      <tr data-testid="watch-row" className={w.failing ? 'pk-watch--failing' : w.enabled ? '' : 'pk-watch--off'}>
        <td>
          <PackageLink ecosystem={w.ecosystem} name={w.name} />
        </td>
        <td data-testid="watch-state" title={stateText(w)}>
          {w.failing && w.enabled ? <span className="pk-tag pk-tag--danger">failing ×{w.consecutive_failures}</span> : <span className={w.enabled ? 'pk-tag' : 'pk-tag pk-tag--off'}>{w.enabled ? 'enabled' : 'disabled'}</span>}
          {w.failing && !w.enabled && <span className="pk-tag pk-tag--danger">failing ×{w.consecutive_failures}</span>}
        </td>
        <td data-testid="watch-last">
          <ResultTag result={w.last_result} />
          {w.last_check_at && <div className="muted small">{when(w.last_check_at)}</div>}
          {w.last_error && <div className="pk-invalid small">{sentence(w.last_error.message)}</div>}
          {w.last_result === 'new_release' && w.last_diff_id && (
            <button type="button" className="packages__goto small" onClick={() => openDiff(w.last_diff_id)}>
              Open the release diff
            </button>
          )}
        </td>
        <td>
          {w.enabled ? (
            <>
              {dueText(w.next_check_at)}
              <div className="muted small">{when(w.next_check_at)}</div>
            </>
          ) : (
            <span className="muted">not scheduled</span>
          )}
        </td>
        <td>{w.approved_version ?? <span className="muted">last seen</span>}</td>
        <td>{w.snapshot?.newest ?? <span className="muted">—</span>}</td>
        <td className="small">{intervalText(w.poll_interval_seconds)}</td>
        <td>
          <div className="pk-watch__actions">
            {canWrite && (
              <>
                <button type="button" className="primary" disabled={checking} onClick={() => void checkNow()}>
                  {checking ? 'Checking…' : 'Check now'}
                </button>
                <button type="button" onClick={() => void patch({ enabled: !w.enabled })}>
                  {w.enabled ? 'Disable' : 'Enable'}
                </button>
                <button type="button" aria-expanded={editing} onClick={() => setEditing(!editing)}>
                  Interval
                </button>
              </>
            )}
            <button type="button" aria-expanded={open} onClick={onToggle}>
              {open ? 'Hide checks' : 'Checks'}
            </button>
            {canWrite && !confirming && (
              <button type="button" className="pk-danger" onClick={() => setConfirming(true)}>
                Stop watching
              </button>
            )}
          </div>
        </td>
      </tr>
      {(check || editing || confirming || action.error) && (
        <tr className="pk-watch__detail">
          <td colSpan={8}>
            {check && <CheckResult check={check} onDiff={openDiff} />}
            {editing && (
              <form className="packages__filters" aria-label={`Interval of ${w.name}`} onSubmit={(e) => void saveInterval(e)} onKeyDown={(e) => e.key === 'Escape' && setEditing(false)}>
                <span className="small">Check every</span>
                <IntervalFields label="New interval" value={value} unit={unit} onValue={setValue} onUnit={setUnit} />
                <button type="submit" className="primary">
                  Save
                </button>
                <button type="button" onClick={() => setEditing(false)}>
                  Cancel
                </button>
                <span className="muted small">5 minutes to 7 days.</span>
                {invalid !== null && (
                  <span className="pk-invalid" role="alert">
                    {invalid}
                  </span>
                )}
              </form>
            )}
            {confirming && (
              <div className="pk-confirm" role="alertdialog" aria-label={`Stop watching ${w.name}`} onKeyDown={(e) => e.key === 'Escape' && setConfirming(false)}>
                Stop watching {w.ecosystem}/{w.name}? Its check history goes; its events and release diffs stay.{' '}
                {/* The safe choice takes the focus, so Enter keeps the package watched. */}
                <button type="button" autoFocus onClick={() => setConfirming(false)}>
                  Keep watching
                </button>{' '}
                <button type="button" className="pk-danger" onClick={() => void remove()}>
                  Stop watching
                </button>
              </div>
            )}
            {action.error && <ErrorNote error={action.error} title={action.error.status === 409 ? 'A check of this package is running already' : 'The service refused'} />}
          </td>
        </tr>
      )}
    </>
  );
}

/** One check's answer: the result, what was seen, and for a new release the versions compared and a link to the diff. */
function CheckResult({ check, onDiff }: { check: MonitorCheck; onDiff: (id: string) => void }) {
  return (
    <div className={`pk-check pk-check--${resultTone(check.result)}`} role="status" data-testid="check-result">
      <strong>Check {resultText(check.result)}</strong>
      {check.result === 'baseline' && <> — the versions seen are recorded{check.newest_version ? `; newest ${check.newest_version}` : ''}. Later checks report releases newer than it.</>}
      {check.result === 'unchanged' && <> — no newer release{check.newest_version ? ` than ${check.newest_version}` : ''}.</>}
      {check.result === 'new_release' && (
        <>
          {' '}
          — {check.from_version ?? '?'} → {check.to_version ?? '?'}
          {check.escalated && <span className="pk-tag pk-tag--danger">escalated</span>}{' '}
          {check.diff_id && (
            <button type="button" className="packages__goto" onClick={() => onDiff(check.diff_id ?? '')}>
              Open the release diff
            </button>
          )}
        </>
      )}
      {check.result === 'error' && check.error && <> — {sentence(check.error.message)} ({check.consecutive_failures} in a row; the next check backs off)</>}
      <span className="muted small">
        {' '}
        · {duration(check.duration_ms)} · next {when(check.next_check_at)}
        {check.new_versions.length > 0 && ` · new versions: ${check.new_versions.slice(0, 8).join(', ')}${check.new_versions.length > 8 ? '…' : ''}`}
      </span>
    </div>
  );
}

function CheckHistory({ api, id, name }: { api: PkgscanApi; id: string; name: string }) {
  const [offset, setOffset] = useState(0);
  const openDiff = usePackagesNav((s) => s.openDiff);
  const checks = useLoad(() => api.get<PageOf<MonitorCheck>>(`/monitoring/packages/${encodeURIComponent(id)}/checks`, { limit: 20, offset }), [api, id, offset]);
  return (
    <section className="panel" aria-label={`Checks of ${name}`} data-testid="check-history">
      <h2>Checks of {name}</h2>
      {checks.error && <ErrorNote error={checks.error} title="The checks could not be read" />}
      {checks.data?.items.length === 0 && <div className="empty">Not checked yet: the first check is due at once and takes the baseline.</div>}
      {(checks.data?.items.length ?? 0) > 0 && (
        <table className="packages__table">
          <thead>
            <tr>
              <th>When</th>
              <th>Trigger</th>
              <th>Result</th>
              <th>Newest</th>
              <th>Detail</th>
            </tr>
          </thead>
          <tbody>
            {(checks.data?.items ?? []).map((c) => (
              <tr key={c.id} data-testid="check-row">
                <td className="muted">{when(c.checked_at)}</td>
                <td>{c.trigger}</td>
                <td>
                  <ResultTag result={c.result} />
                </td>
                <td>{c.newest_version ?? ''}</td>
                <td className="small">
                  {c.result === 'new_release' && c.diff_id ? (
                    <button type="button" className="packages__goto" onClick={() => openDiff(c.diff_id)}>
                      {c.from_version} → {c.to_version}
                    </button>
                  ) : c.error ? (
                    sentence(c.error.message)
                  ) : c.new_versions.length > 0 ? (
                    `new: ${c.new_versions.slice(0, 5).join(', ')}`
                  ) : (
                    ''
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {checks.data && checks.data.total > 20 && <Pager offset={offset} limit={20} total={checks.data.total} onOffset={setOffset} older="Older" newer="Newer" />}
    </section>
  );
}

function MonitorEvents({ api }: { api: PkgscanApi }) {
  const [type, setType] = useState<string>(MONITOR_EVENT_TYPES[0]);
  const openDiff = usePackagesNav((s) => s.openDiff);
  const setTab = usePackagesNav((s) => s.setTab);
  const events = useLoad(() => api.get<PageOf<SecurityEvent>>('/events', { type, limit: 20 }), [api, type]);
  return (
    <section className="panel" aria-label="Monitoring events" data-testid="monitor-events">
      <div className="packages__filters">
        <h2>Monitoring events</h2>
        <select aria-label="Monitoring event type" value={type} onChange={(e) => setType(e.target.value)}>
          {MONITOR_EVENT_TYPES.map((t) => (
            <option key={t} value={t}>
              {t}
            </option>
          ))}
        </select>
        <button type="button" className="packages__goto" onClick={() => setTab('events')}>
          All events (acknowledge there)
        </button>
      </div>
      {events.error && <ErrorNote error={events.error} title="The events could not be read" />}
      {events.data?.items.length === 0 && <div className="empty">No {type} event yet.</div>}
      {(events.data?.items.length ?? 0) > 0 && (
        <table className="packages__table">
          <thead>
            <tr>
              <th>Time</th>
              <th>Severity</th>
              <th>Package</th>
              <th>Detail</th>
            </tr>
          </thead>
          <tbody>
            {(events.data?.items ?? []).map((ev) => {
              const diffId = typeof ev.details['diff_id'] === 'string' ? ev.details['diff_id'] : null;
              const message = typeof ev.details['message'] === 'string' ? ev.details['message'] : null;
              const from = typeof ev.details['from_version'] === 'string' ? ev.details['from_version'] : null;
              const to = typeof ev.details['to_version'] === 'string' ? ev.details['to_version'] : null;
              return (
                <tr key={ev.id} data-testid="monitor-event">
                  <td className="muted">{when(ev.time)}</td>
                  <td>
                    <SeverityBadge severity={ev.severity} />
                  </td>
                  <td>{ev.package ?? ''}</td>
                  <td className="small">
                    {message !== null && sentence(message)}
                    {from !== null && to !== null && `${from} → ${to} `}
                    {diffId !== null && (
                      <button type="button" className="packages__goto" onClick={() => openDiff(diffId)}>
                        Open the release diff
                      </button>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </section>
  );
}
