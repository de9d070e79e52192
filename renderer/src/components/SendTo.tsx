// "Send to Assessment / Send to ACH": a button and a small dialog (target service, an existing case or matrix or a new one, a preview of
// what goes), then the receiving service appends the techniques and indicators as evidence with their source and link back.
import { useContext, useEffect, useId, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { SendFindingResponse } from '../../../engines/core/contracts/findings';
import type { ApiError} from '../api/client';
import { type ApiClient, asApiError, itemsOf } from '../api/client';
import { requestOpen } from '../shell/openItem';
import { ShellContext, useShell } from '../shell/context';
import { ErrorNote } from './ErrorNote';
import { Modal } from './Modal';
import { counted, displayProse } from './wording';
import { prepareFinding, SEND_TARGETS, sendable, stixPattern, type Finding, type FindingIndicator, type SendTarget } from './SendToModel';
import './SendTo.css';

interface Container {
  readonly id: string;
  readonly title: string;
  readonly count: number;
}

function containersOf(target: SendTarget, body: unknown): Container[] {
  return itemsOf<Record<string, unknown>>(body).map((r) =>
    target.service === 'caseassess'
      ? { id: String(r['case_id']), title: String(r['title'] ?? r['case_id']), count: Number(r['evidence_count'] ?? 0) }
      : { id: String(r['id']), title: String(r['title']), count: Number(r['evidence_count'] ?? 0) },
  );
}

export interface SendToButtonProps {
  /** Default: the shell's gateway client (for workspaces that talk to their service through a wrapper). */
  readonly client?: ApiClient;
  /** The finding to send; null disables the button (nothing found yet). */
  readonly finding: Finding | null;
  /** Where the dialog starts (default Assessment). */
  readonly initial?: SendTarget['service'];
  readonly label?: string;
  readonly testId?: string;
}

/** The button that opens the dialog; disabled until there is a finding with something in it. */
export function SendToButton(props: SendToButtonProps) {
  // Outside the shell (a component test of a workspace part) there is nowhere to send to.
  const shell = useContext(ShellContext);
  return shell === null ? null : <SendToButtonInShell {...props} shellClient={shell.client} />;
}

function SendToButtonInShell({ client: given, shellClient, finding, initial, label = 'Send to…', testId = 'send-to' }: SendToButtonProps & { readonly shellClient: ApiClient | null }) {
  const [open, setOpen] = useState(false);
  const services = useShell((s) => s.services);
  const client = given ?? shellClient;
  const empty = finding === null || finding.techniques.length + finding.indicators.length === 0;
  // A page that mounts neither Assessment nor ACH (a standalone `X serve`) has nowhere to send to.
  if (client === null || !SEND_TARGETS.some((t) => services.some((s) => s.name === t.service))) return null;
  return (
    <>
      <button type="button" className="small" disabled={empty} onClick={() => setOpen(true)} data-testid={testId} title={empty ? 'Nothing to send yet: no technique or indicator' : 'Send the techniques and indicators to an Assessment case or an ACH matrix'}>
        {label}
      </button>
      {open && finding && <SendToDialog client={client} finding={finding} {...(initial ? { initial } : {})} onClose={() => setOpen(false)} />}
    </>
  );
}

export interface SendToDialogProps {
  readonly client: ApiClient;
  readonly finding: Finding;
  readonly initial?: SendTarget['service'];
  readonly onClose: () => void;
}

export function SendToDialog({ client, finding, initial = 'caseassess', onClose }: SendToDialogProps) {
  const services = useShell((s) => s.services);
  const select = useShell((s) => s.select);
  const titleId = useId();
  const available = SEND_TARGETS.filter((t) => services.some((s) => s.name === t.service));
  const [service, setService] = useState<SendTarget['service']>(available.some((t) => t.service === initial) ? initial : (available[0]?.service ?? initial));
  const target = SEND_TARGETS.find((t) => t.service === service)!;
  const base = services.find((s) => s.name === service)?.base ?? `/svc/${service}`;
  const [mode, setMode] = useState<'new' | 'existing'>('new');
  const [newTitle, setNewTitle] = useState(finding.title);
  const [containers, setContainers] = useState<readonly Container[] | null>(null);
  const [chosen, setChosen] = useState('');
  const [listError, setListError] = useState<ApiError | null>(null);
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);
  const [done, setDone] = useState<SendFindingResponse | null>(null);

  // The send button gives way to "Open in …" once sent, and every choice above it is disabled: that button takes the
  // focus (from wherever in the dialog it was), so Enter opens the result: in the same commit that shows it, before a
  // key pressed next can reach anything else.
  const openButton = useRef<HTMLButtonElement>(null);
  useLayoutEffect(() => {
    if (done) openButton.current?.focus({ preventScroll: true });
  }, [done]);

  useEffect(() => {
    setContainers(null);
    setChosen('');
    setListError(null);
    if (!services.some((s) => s.name === target.service)) {
      setContainers([]);
      return;
    }
    void (async () => {
      try {
        const list = containersOf(target, await client.get<unknown>(`${base}${target.list}`, { query: { limit: 200 } }));
        setContainers(list);
        setChosen(list[0]?.id ?? '');
      } catch (err) {
        setListError(asApiError(err));
        setContainers([]);
      }
    })();
  }, [client, base, target, services]);

  const prepared = useMemo(
    () => prepareFinding(finding, mode === 'existing' ? { kind: 'existing', id: chosen } : { kind: 'new', title: newTitle }),
    [finding, mode, chosen, newTitle],
  );
  const f = prepared.payload.finding;
  const canSend = sendable(prepared) && !sending && done === null && (mode === 'new' || chosen !== '') && available.length > 0;

  const send = async (): Promise<void> => {
    setSending(true);
    setError(null);
    try {
      setDone(await client.post<SendFindingResponse>(`${base}${target.send}`, prepared.payload));
    } catch (err) {
      setError(asApiError(err));
    } finally {
      setSending(false);
    }
  };

  const openThere = (): void => {
    if (!done) return;
    requestOpen({ service, kind: target.noun, id: done.id, title: done.title });
    select(service);
    onClose();
  };

  return (
    <Modal
      title="Send as evidence"
      onClose={onClose}
      testId="send-to-dialog"
      className="send-to"
      onKey={(e) => {
        if (e.key !== 'Enter' || !(e.ctrlKey || e.metaKey) || !canSend) return false;
        e.preventDefault();
        void send();
        return true;
      }}
    >
        {available.length === 0 && <p className="muted">Neither the Assessment nor the ACH service is running, so there is nowhere to send this.</p>}
        <div className="send-to__grid">
          <fieldset className="send-to__field">
            <legend>To</legend>
            {SEND_TARGETS.map((t) => (
              <label key={t.service} className={available.includes(t) ? '' : 'muted'}>
                <input type="radio" name={`${titleId}-service`} value={t.service} checked={service === t.service} disabled={!available.includes(t) || done !== null} onChange={() => setService(t.service)} data-testid={`send-to-${t.service}`} />{' '}
                {t.label} {t.noun}
                {!available.includes(t) && ' (not running)'}
              </label>
            ))}
          </fieldset>
          <fieldset className="send-to__field">
            <legend>Which {target.noun}</legend>
            <label>
              <input type="radio" name={`${titleId}-mode`} checked={mode === 'new'} disabled={done !== null} onChange={() => setMode('new')} data-testid="send-to-new" /> a new {target.noun}:{' '}
              <input type="text" value={newTitle} maxLength={300} disabled={mode !== 'new' || done !== null} onChange={(e) => setNewTitle(e.target.value)} aria-label={`Title of the new ${target.noun}`} className="send-to__title" data-testid="send-to-title" />
            </label>
            <label>
              <input type="radio" name={`${titleId}-mode`} checked={mode === 'existing'} disabled={done !== null || (containers !== null && containers.length === 0)} onChange={() => setMode('existing')} data-testid="send-to-existing" /> an existing {target.noun}:{' '}
              <select value={chosen} disabled={mode !== 'existing' || done !== null} onChange={(e) => setChosen(e.target.value)} aria-label={`Existing ${target.noun}`} data-testid="send-to-choice">
                {containers === null && <option value="">loading…</option>}
                {containers !== null && containers.length === 0 && <option value="">none stored yet</option>}
                {(containers ?? []).map((c) => (
                  <option key={c.id} value={c.id}>
                    {displayProse(c.title)} ({counted(c.count, 'item')})
                  </option>
                ))}
              </select>
            </label>
            {listError && <ErrorNote error={listError} title={`The stored ${target.noun}s could not be listed`} />}
          </fieldset>
        </div>

        <h3 className="send-to__head">What goes</h3>
        <p className="muted send-to__source" data-testid="send-to-source">
          From {f.source.service} {f.source.kind}{' '}
          <strong title={`${f.source.service} ${f.source.kind} ${f.source.id}${f.source.link !== undefined ? `\nlink back ${f.source.link}` : ''}`}>{f.title ? displayProse(f.title) : f.source.id}</strong>
          {' '}— each item keeps this source{f.source.link !== undefined ? ' and a link back to it' : ''}.
        </p>
        <div className="send-to__preview" data-testid="send-to-preview">
          <div>
            <strong>{f.techniques.length}</strong> technique{f.techniques.length === 1 ? '' : 's'}
            <ul>
              {f.techniques.slice(0, 12).map((t) => (
                <li key={t}>
                  <code>{t}</code>
                </li>
              ))}
              {f.techniques.length > 12 && <li className="muted">and {f.techniques.length - 12} more</li>}
            </ul>
          </div>
          <div>
            <strong>{f.indicators.length}</strong> indicator{f.indicators.length === 1 ? '' : 's'}
            <ul>
              {f.indicators.slice(0, 12).map((i) => (
                <li key={`${i.type}:${i.value}`} title={`STIX indicator pattern: ${stixPattern(i)}`} data-testid="send-to-indicator">
                  <span className="muted send-to__type">{i.type}</span> <code>{i.value}</code>
                  <code className="send-to__stix muted">{stixPattern(i)}</code>
                </li>
              ))}
              {f.indicators.length > 12 && (
                <li className="muted">
                  and {f.indicators.length - 12} more ({typeCounts(f.indicators.slice(12))})
                </li>
              )}
            </ul>
          </div>
        </div>
        {prepared.dropped.length > 0 && (
          <p className="muted" data-testid="send-to-dropped">
            Left out: {prepared.dropped.slice(0, 6).map((d) => `${d.item} (${d.reason})`).join('; ')}
            {prepared.dropped.length > 6 ? ` and ${prepared.dropped.length - 6} more` : ''}
          </p>
        )}
        {error && <ErrorNote error={error} title="Nothing was added" />}
        {done && (
          <p className="send-to__done" role="status" data-testid="send-to-done">
            {done.created ? `New ${target.noun}` : `${target.noun[0]!.toUpperCase()}${target.noun.slice(1)}`} <strong>{displayProse(done.title)}</strong>: {done.added.length} evidence item{done.added.length === 1 ? '' : 's'} added
            {done.skipped.length > 0 ? `, ${done.skipped.length} already there` : ''}.
          </p>
        )}
        <div className="row send-to__actions">
          <span className="spacer" />
          {done ? (
            <button type="button" className="primary" onClick={openThere} ref={openButton} data-testid="send-to-open">
              Open in {target.label}
            </button>
          ) : (
            <button type="button" className="primary" disabled={!canSend} onClick={() => void send()} data-testid="send-to-send">
              {sending ? 'Sending…' : `Send to ${target.label} (Ctrl+Enter)`}
            </button>
          )}
        </div>
    </Modal>
  );
}

/** `3 ipv4, 2 domain` */
function typeCounts(list: readonly FindingIndicator[]): string {
  const counts = new Map<string, number>();
  for (const i of list) counts.set(i.type, (counts.get(i.type) ?? 0) + 1);
  return [...counts].map(([t, n]) => `${n} ${t}`).join(', ');
}
