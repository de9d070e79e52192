// A selected timeline event: every field (System and EventData for EVTX, the parsed fields for other kinds), its raw record read again from the evidence, its detections, and the analyst's tags and note with every earlier version.
import { useState } from 'react';
import type { ApiError} from '../../api/client';
import { type ApiClient, asApiError } from '../../api/client';
import { ErrorNote } from '../../components/ErrorNote';
import { SendToButton } from '../../components/SendTo';
import { indicatorsIn, type Finding } from '../../components/SendToModel';
import { Progress } from '../../components/Progress';
import { useLoad } from '../../components/useLoad';
import { utcTime } from '../../components/time';
import { AnnotationHistoryList } from './AnnotationHistory';
import { LevelBadge } from './Detections';
import { eventFieldGroups, MAX_TAGS, parseTags } from './detail-model';
import { findingTitle, zonedTime } from './model';
import type { DetectionSummary, EventAnnotation, EventDetail as Detail, EventRawRecord, ExportedEvent } from './types';

/** Where the event detail reads from and writes to (absent in unit tests: the list's fields only). */
export interface CaseLink {
  readonly client: ApiClient;
  readonly base: string;
  readonly caseId: string;
  /** The case's title, which names it in a finding sent from here. */
  readonly caseTitle?: string;
  /** Whether the case came from evidence files (a built-in scenario has no raw records to read). */
  readonly fromEvidence: boolean;
  readonly onAnnotated: (a: EventAnnotation) => void;
}

export interface EventDetailProps {
  readonly event: ExportedEvent;
  readonly inStory: boolean;
  readonly detections: readonly DetectionSummary[];
  readonly annotation: EventAnnotation | null;
  readonly link?: CaseLink;
}

function AnnotationEditor({ event, annotation, link }: { readonly event: ExportedEvent; readonly annotation: EventAnnotation | null; readonly link: CaseLink }) {
  const [tagsText, setTagsText] = useState(annotation?.tags.join(', ') ?? '');
  const [note, setNote] = useState(annotation?.note ?? '');
  const [error, setError] = useState<ApiError | null>(null);
  const [saving, setSaving] = useState(false);
  const [saved, setSaved] = useState<string | null>(null);
  const parsed = parseTags(tagsText);
  const problem = parsed.bad.length > 0 ? `Not a tag: ${parsed.bad.join(' ')} (letters, digits and . _ : / -, up to 48 characters).` : parsed.tags.length > MAX_TAGS ? `At most ${MAX_TAGS} tags.` : null;
  const save = async (): Promise<void> => {
    if (problem !== null) return;
    setSaving(true);
    try {
      const a = await link.client.post<EventAnnotation>(`${link.base}/api/cases/${encodeURIComponent(link.caseId)}/annotations`, { eventId: event.eventId, tags: parsed.tags, note });
      link.onAnnotated(a);
      setSaved(`Saved as version ${a.versions}.`);
      setError(null);
    } catch (err) {
      setError(asApiError(err));
    } finally {
      setSaving(false);
    }
  };
  return (
    <div className="event-annotate" data-testid="annotate">
      <label htmlFor={`tags-${event.eventId}`}>Tags</label>
      <input
        id={`tags-${event.eventId}`}
        value={tagsText}
        onChange={(e) => {
          setTagsText(e.target.value);
          setSaved(null);
        }}
        placeholder="lateral-movement, T1021, confirmed"
        data-testid="annotate-tags"
      />
      <label htmlFor={`note-${event.eventId}`}>Note</label>
      <textarea
        id={`note-${event.eventId}`}
        rows={2}
        value={note}
        maxLength={4000}
        onChange={(e) => {
          setNote(e.target.value);
          setSaved(null);
        }}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) void save();
        }}
        placeholder="What this event means for the case (Ctrl+Enter saves)"
        data-testid="annotate-note"
      />
      <div className="row">
        <button type="button" className="small primary" onClick={() => void save()} disabled={saving || problem !== null} data-testid="annotate-save">
          {saving ? 'Saving…' : 'Save tags and note'}
        </button>
        {problem !== null && <span className="cases__warn">{problem}</span>}
        {saved !== null && (
          <span className="muted" role="status">
            {saved}
          </span>
        )}
        {annotation && saved === null && (
          <span className="muted">
            version {annotation.versions}, {utcTime(annotation.at)} by {annotation.actor}
          </span>
        )}
      </div>
      <p className="muted small-print">Every version is kept in the case's hash-chained annotation ledger; the reports list the current one.</p>
      {error && <ErrorNote error={error} title="The annotation was not saved" />}
    </div>
  );
}

function RawRecord({ event, link }: { readonly event: ExportedEvent; readonly link: CaseLink }) {
  const [raw, setRaw] = useState<EventRawRecord | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const [busy, setBusy] = useState(false);
  const read = async (): Promise<void> => {
    setBusy(true);
    try {
      setRaw(await link.client.get<EventRawRecord>(`${link.base}/api/cases/${encodeURIComponent(link.caseId)}/events/${encodeURIComponent(event.eventId)}/raw`));
      setError(null);
    } catch (err) {
      setError(asApiError(err));
    } finally {
      setBusy(false);
    }
  };
  if (!link.fromEvidence) return <p className="muted">A built-in scenario has no evidence file: its events are all there is.</p>;
  return (
    <div className="event-raw">
      {!raw && (
        <button type="button" className="small" onClick={() => void read()} disabled={busy} data-testid="show-raw">
          {event.kind === 'evtx' ? 'Show the raw record (XML)' : 'Show the raw record'}
        </button>
      )}
      {busy && <Progress label="Reading the record from the evidence" />}
      {error && <ErrorNote error={error} title="The raw record could not be read" />}
      {raw && (
        <>
          <p className={raw.verified ? 'custody__ok' : 'custody__bad'} role="status">
            {raw.verified ? 'Read again from the evidence: the artefact and the record hash as recorded.' : 'The evidence no longer hashes as recorded: this may not be the record the case analysed.'}
          </p>
          <pre className="event-raw__text selectable" data-testid="raw-record" data-format={raw.format}>
            {raw.content}
          </pre>
        </>
      )}
    </div>
  );
}

export function EventDetailPanel({ event, inStory, detections, annotation, link }: EventDetailProps) {
  // The full event (raw record, annotation) from the service; a different event forgets the last one at once.
  const detail = useLoad(
    () => (link ? link.client.get<Detail>(`${link.base}/api/cases/${encodeURIComponent(link.caseId)}/events/${encodeURIComponent(event.eventId)}`) : null),
    [event.eventId, link],
    { reset: true },
  );
  const full = detail.data;
  const error = detail.error;
  const shown = full?.event ?? event;
  const groups = eventFieldGroups(shown);
  const finding = link ? eventFinding(shown, link.caseId, link.caseTitle, detections) : null;
  return (
    <div className="timeline__detail" data-testid="event-detail" data-event-id={event.eventId}>
      {link && <SendToButton client={link.client} testId="event-send-to" finding={finding} />}
      <dl className="facts">
        <dt>Event</dt>
        <dd>
          <code>{event.eventId}</code> {inStory ? '(in the selected story)' : ''}
        </dd>
        <dt>Integrity hash</dt>
        <dd>
          <code className="selectable">{event.integrityHash}</code>
        </dd>
        <dt>Time</dt>
        <dd>
          {zonedTime(event.time.time)} ({event.time.precision}, {event.time.source})
        </dd>
        <dt>Source</dt>
        <dd>
          {event.loader}, reliability {event.reliability}
          {full?.artifact ? (
            <>
              {' '}
              · <span className="selectable">{full.artifact.path}</span>
              {shown.raw ? ` · record ${shown.raw.recordNumber}${shown.raw.offset !== undefined ? ` at byte ${shown.raw.offset.toLocaleString('en')}` : ''}` : ''}
            </>
          ) : null}
        </dd>
        <dt>Summary</dt>
        <dd>{event.summary}</dd>
        {detections.length > 0 && (
          <>
            <dt>Detections</dt>
            <dd data-testid="event-detections">
              {detections.map((d) => (
                <div key={d.ruleId}>
                  <LevelBadge level={d.level} /> {d.title} <span className="muted">({d.techniques.join(', ') || 'no technique'}; rule by {d.author ?? 'unknown author'})</span>
                </div>
              ))}
            </dd>
          </>
        )}
      </dl>
      {link && !full && !error && <Progress label="Reading the event's fields" />}
      {error && <ErrorNote error={error} title="The event's fields could not be read" />}
      {full && (
        <div className="event-fields" data-testid="event-fields">
          {groups.map((g) => (
            <section key={g.title} className="event-fields__group" aria-label={g.title}>
              <h3>{g.title}</h3>
              {g.rows.length === 0 ? (
                <p className="muted">None.</p>
              ) : (
                <table className="event-fields__table">
                  <tbody>
                    {g.rows.map(([k, v], i) => (
                      <tr key={`${k}-${i}`}>
                        <th scope="row">{k}</th>
                        <td>
                          <div className="event-fields__value selectable">{v}</div>
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              )}
            </section>
          ))}
        </div>
      )}
      {link && (
        <>
          <h3>Raw record</h3>
          <RawRecord key={event.eventId} event={event} link={link} />
          <h3>Tags and note</h3>
          <AnnotationEditor key={`${event.eventId}-${annotation?.seq ?? 0}`} event={event} annotation={annotation} link={link} />
          <AnnotationHistoryList key={`history-${event.eventId}-${annotation?.seq ?? 0}`} client={link.client} base={link.base} caseId={link.caseId} eventId={event.eventId} versions={annotation?.versions ?? null} />
        </>
      )}
    </div>
  );
}

/** An event as a finding for Send to: the techniques of its detections and every indicator its fields hold. */
function eventFinding(e: ExportedEvent, caseId: string, caseTitle: string | undefined, detections: readonly DetectionSummary[]): Finding {
  return {
    title: findingTitle(caseTitle, caseId, `event ${e.time.time !== null ? `${zonedTime(e.time.time)} ` : ''}${e.host !== null ? `on ${e.host}: ` : ''}${e.summary !== '' ? e.summary : e.action}`),
    techniques: [...new Set(detections.flatMap((d) => d.techniques))],
    indicators: indicatorsIn(e),
    source: { service: 'forensic', kind: 'event', id: `${caseId}/${e.eventId}`, link: `#/forensic/case/${encodeURIComponent(caseId)}/event/${encodeURIComponent(e.eventId)}` },
  };
}
