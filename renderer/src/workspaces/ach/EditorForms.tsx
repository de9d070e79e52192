// The hand-built matrix's two forms, as dialogs: a hypothesis (a knowledge-base group found as you type, or your own
// words) and an evidence row (short label, full text, source and link back, credibility and relevance, techniques).
import { useEffect, useId, useState, type FormEvent } from 'react';
import type { AchActor, AchWeight } from '../../../../engines/core/contracts/ach';
import type { ApiClient, ApiError } from '../../api/client';
import { asApiError, itemsOf } from '../../api/client';
import { ErrorNote } from '../../components/ErrorNote';
import { Modal } from '../../components/Modal';
import { counted } from '../../components/wording';
import { evidenceProblem, isCatchAll, joinSource, LIMITS, linkProblem, splitSource, weightLabel, type DraftEvidence, type DraftHypothesis, type EvidenceFields } from './draft';

/** A dialog of this editor: focus in and back (useDialogFocus), Tab kept inside, Esc closes. */
/** A dialog's button row: remove (when editing an existing item) on the left, submit on the right. */
function DialogButtons({ removeLabel, onRemove, submitLabel, testPrefix }: { readonly removeLabel: string; readonly onRemove: (() => void) | undefined; readonly submitLabel: string; readonly testPrefix: string }) {
  return (
    <div className="row ach-dialog__buttons">
      {onRemove && (
        <button type="button" className="small" onClick={onRemove} data-testid={`${testPrefix}-remove`}>
          {removeLabel}
        </button>
      )}
      <span className="spacer" />
      <button type="submit" className="primary" data-testid={`${testPrefix}-submit`}>
        {submitLabel}
      </button>
    </div>
  );
}

function Problem({ text }: { readonly text: string | null }) {
  return text === null ? null : (
    <p className="field-error" role="alert" data-testid="ach-form-error">
      {text}
    </p>
  );
}

/** What a form's submit gives back: null when taken, else what is wrong (the dialog stays open and says it). */
type Submit<T> = (value: T) => string | null;

interface HypothesisProps {
  readonly client: ApiClient;
  readonly base: string;
  /** Editing this hypothesis (its title; a group stays the group), else adding one. */
  readonly editing?: DraftHypothesis;
  readonly onSubmit: Submit<{ readonly title: string; readonly actor?: AchActor }>;
  readonly onRemove?: () => void;
  readonly onClose: () => void;
}

export function HypothesisDialog({ client, base, editing, onSubmit, onRemove, onClose }: HypothesisProps) {
  const [mode, setMode] = useState<'group' | 'text'>(editing === undefined ? 'group' : 'text');
  const [query, setQuery] = useState('');
  const [groups, setGroups] = useState<readonly AchActor[] | null>(null);
  /** The query the list answers: Enter typed before the answer to the last keystroke waits for it (never picks from an older list). */
  const [answered, setAnswered] = useState<string | null>(null);
  const [pickWhenAnswered, setPickWhenAnswered] = useState(false);
  const [groupsError, setGroupsError] = useState<ApiError | null>(null);
  const [active, setActive] = useState(0);
  const [title, setTitle] = useState(editing?.title ?? '');
  const [problem, setProblem] = useState<string | null>(null);
  const listId = useId();

  // Search as you type: each keystroke replaces the request before it (the last answer wins).
  useEffect(() => {
    if (mode !== 'group') return undefined;
    let live = true;
    const timer = setTimeout(() => {
      void (async () => {
        try {
          const q = query.trim().slice(0, 100);
          const list = itemsOf<AchActor>(await client.get<unknown>(`${base}/groups`, { query: { q, limit: 20 } }));
          if (live) {
            setGroups(list);
            setAnswered(q);
            setGroupsError(null);
            setActive(0);
          }
        } catch (err) {
          if (live) setGroupsError(asApiError(err));
        }
      })();
    }, 150);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [client, base, query, mode]);

  const take = (value: { readonly title: string; readonly actor?: AchActor }): void => {
    const p = onSubmit(value);
    setProblem(p);
  };
  const pick = (g: AchActor | undefined): void => {
    if (g) take({ title: g.name, actor: g });
  };
  const current = answered === query.trim().slice(0, 100);
  useEffect(() => {
    if (!pickWhenAnswered || !current) return;
    setPickWhenAnswered(false);
    if (groups?.[0]) take({ title: groups[0].name, actor: groups[0] });
    // take is made anew each render; the answer arriving is what this waits for.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [pickWhenAnswered, current, groups]);

  return (
    <Modal title={editing ? `Edit hypothesis ${editing.id}` : 'Add a hypothesis'} onClose={onClose} testId="ach-hypothesis-dialog" className="ach-dialog">
      {editing === undefined && (
        <div className="ach-dialog__modes" role="radiogroup" aria-label="Kind of hypothesis">
          <label>
            <input type="radio" name="ach-h-mode" checked={mode === 'group'} onChange={() => setMode('group')} data-testid="h-mode-group" /> A group from the knowledge base
          </label>
          <label>
            <input type="radio" name="ach-h-mode" checked={mode === 'text'} onChange={() => setMode('text')} data-testid="h-mode-text" /> In your own words
          </label>
        </div>
      )}
      {mode === 'group' && editing === undefined ? (
        <div className="ach-dialog__field">
          <label htmlFor={`${listId}-q`}>Group (name, alias or G-id)</label>
          <input
            id={`${listId}-q`}
            type="search"
            role="combobox"
            aria-expanded={groups !== null && groups.length > 0}
            aria-controls={listId}
            aria-activedescendant={groups && groups[active] ? `${listId}-${active}` : undefined}
            data-first
            value={query}
            maxLength={100}
            placeholder="APT29, Cozy Bear, G0016…"
            onChange={(e) => setQuery(e.target.value)}
            onKeyDown={(e) => {
              const n = groups?.length ?? 0;
              if (e.key === 'ArrowDown' && n > 0) {
                e.preventDefault();
                setActive((a) => (a + 1) % n);
              } else if (e.key === 'ArrowUp' && n > 0) {
                e.preventDefault();
                setActive((a) => (a + n - 1) % n);
              } else if (e.key === 'Enter') {
                e.preventDefault();
                if (current) pick(groups?.[active]);
                else setPickWhenAnswered(true);
              }
            }}
            data-testid="h-group-search"
          />
          {groupsError && <ErrorNote error={groupsError} title="The knowledge base could not be searched" />}
          <ul className="ach-dialog__groups" role="listbox" id={listId} aria-label="Groups" data-testid="h-group-list">
            {(groups ?? []).map((g, i) => (
              <li
                key={g.id}
                id={`${listId}-${i}`}
                role="option"
                aria-selected={i === active}
                className={i === active ? 'ach-dialog__group ach-dialog__group--on' : 'ach-dialog__group'}
                onMouseDown={(e) => e.preventDefault()}
                onClick={() => pick(g)}
              >
                <strong>{g.name}</strong> <span className="muted">{g.id}</span>
                {g.aliases && g.aliases.length > 0 && <span className="muted ach-dialog__aliases"> · {g.aliases.filter((a) => a !== g.name).slice(0, 4).join(', ')}</span>}
                <span className="muted ach-dialog__count"> {counted(g.techniques?.length ?? 0, 'technique')}</span>
              </li>
            ))}
          </ul>
          {groups !== null && groups.length === 0 && <p className="muted">No group matches “{query}”. Try an alias, or write the hypothesis in your own words.</p>}
          <p className="muted">↑/↓ choose, Enter adds. The group's techniques rate evidence that names techniques, where you have not rated it.</p>
        </div>
      ) : (
        <form
          className="ach-dialog__field"
          onSubmit={(e: FormEvent) => {
            e.preventDefault();
            take({ title, ...(editing?.actor !== undefined ? { actor: editing.actor } : {}) });
          }}
        >
          <label htmlFor={`${listId}-t`}>Hypothesis{editing?.actor ? ` (the group ${editing.actor.name}, ${editing.actor.id})` : ''}</label>
          <input id={`${listId}-t`} type="text" data-first value={title} maxLength={LIMITS.hypothesisTitle} onChange={(e) => setTitle(e.target.value)} placeholder="An insider with administrator rights" data-testid="h-title" />
          {editing !== undefined && isCatchAll(editing.id) && <p className="muted">The catch-all: it stands for every explanation not named as a hypothesis.</p>}
          <DialogButtons removeLabel="Remove hypothesis" onRemove={onRemove} submitLabel={editing ? 'Save' : 'Add'} testPrefix="h" />
        </form>
      )}
      <Problem text={problem} />
    </Modal>
  );
}

const WEIGHTS: readonly AchWeight[] = ['high', 'medium', 'low'];

function WeightSelect({ label, value, onChange, testId }: { readonly label: string; readonly value: AchWeight; readonly onChange: (w: AchWeight) => void; readonly testId: string }) {
  const options = typeof value === 'number' ? [...WEIGHTS, value] : WEIGHTS;
  return (
    <label>
      {label}{' '}
      <select value={weightLabel(value)} onChange={(e) => onChange(WEIGHTS.find((w) => w === e.target.value) ?? Number(e.target.value))} data-testid={testId}>
        {options.map((w) => (
          <option key={String(w)} value={weightLabel(w)}>
            {typeof w === 'number' ? `${w} (as given)` : w}
          </option>
        ))}
      </select>
    </label>
  );
}

interface EvidenceProps {
  readonly editing?: DraftEvidence;
  readonly onSubmit: Submit<EvidenceFields>;
  readonly onRemove?: () => void;
  readonly onClose: () => void;
}

export function EvidenceDialog({ editing, onSubmit, onRemove, onClose }: EvidenceProps) {
  const source = splitSource(editing?.source);
  const [summary, setSummary] = useState(editing?.summary ?? '');
  const [detail, setDetail] = useState(editing?.detail ?? '');
  const [sourceText, setSourceText] = useState(source.text);
  const [link, setLink] = useState(source.link);
  const [credibility, setCredibility] = useState<AchWeight>(editing?.credibility ?? 'medium');
  const [relevance, setRelevance] = useState<AchWeight>(editing?.relevance ?? 'medium');
  const [techniques, setTechniques] = useState((editing?.techniques ?? []).join(' '));
  const [problem, setProblem] = useState<string | null>(null);
  const id = useId();

  const submit = (): void => {
    const fields: EvidenceFields = { summary, detail, source: joinSource(sourceText, link), credibility, relevance, techniques };
    const p = linkProblem(link) ?? evidenceProblem(fields) ?? onSubmit(fields);
    setProblem(p);
  };

  return (
    <Modal title={editing ? `Edit evidence ${editing.id}` : 'Add evidence'} onClose={onClose} testId="ach-evidence-dialog" className="ach-dialog">
      <form
        className="ach-dialog__form"
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
            e.preventDefault();
            submit();
          }
        }}
      >
        <label htmlFor={`${id}-s`}>Short label</label>
        <input id={`${id}-s`} type="text" data-first value={summary} maxLength={LIMITS.summary} onChange={(e) => setSummary(e.target.value)} placeholder="PowerShell stager fetched the loader" data-testid="e-summary" />
        <label htmlFor={`${id}-d`}>
          Full text <span className="muted">(optional, {detail.length.toLocaleString('en-US')} / {LIMITS.detail.toLocaleString('en-US')})</span>
        </label>
        <textarea id={`${id}-d`} rows={4} value={detail} maxLength={LIMITS.detail} onChange={(e) => setDetail(e.target.value)} placeholder="The passage of the report, or your note" data-testid="e-detail" />
        <div className="ach-dialog__pair">
          <span>
            <label htmlFor={`${id}-src`}>Source</label>
            <input id={`${id}-src`} type="text" value={sourceText} maxLength={LIMITS.source} onChange={(e) => setSourceText(e.target.value)} placeholder="EDR alert, interview, report title" data-testid="e-source" />
          </span>
          <span>
            <label htmlFor={`${id}-l`}>Link back</label>
            <input id={`${id}-l`} type="text" value={link} maxLength={200} onChange={(e) => setLink(e.target.value)} placeholder="#/cases/… or https://…" data-testid="e-link" />
          </span>
        </div>
        <div className="row">
          <WeightSelect label="Credibility" value={credibility} onChange={setCredibility} testId="e-credibility" />
          <WeightSelect label="Relevance" value={relevance} onChange={setRelevance} testId="e-relevance" />
        </div>
        <label htmlFor={`${id}-t`}>
          ATT&amp;CK techniques <span className="muted">(optional: the groups' techniques rate the row where you have not)</span>
        </label>
        <input id={`${id}-t`} type="text" value={techniques} onChange={(e) => setTechniques(e.target.value)} placeholder="T1059.001 T1486" data-testid="e-techniques" />
        <Problem text={problem} />
        <DialogButtons removeLabel="Remove row" onRemove={onRemove} submitLabel={editing ? 'Save (Ctrl+Enter)' : 'Add (Ctrl+Enter)'} testPrefix="e" />
      </form>
    </Modal>
  );
}
