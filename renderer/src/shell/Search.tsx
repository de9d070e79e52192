// The workstation-wide search box (GET /api/search): Ctrl+K (or `/` where the workspace has no search field of its
// own) focuses it; results grouped by service; arrows move, Enter opens the item's workspace (and the item, where that
// workspace can select one by id), Esc closes.
import { useCallback, useEffect, useId, useMemo, useRef, useState, type KeyboardEvent as ReactKeyboardEvent } from 'react';
import type { SearchHit, SearchResponse } from '../../../engines/core/contracts/search';
import { utcTime } from '../components/time';
import { workspaceFor } from '../workspaces/registry';
import { useShell, useShellContext } from './context';
import { useHashRoute } from './hashRoute';
import { canOpen, requestOpen, type OpenRequest } from './openItem';
import { KIND_WORDS, MAX_QUERY, MIN_QUERY, kindLabel, moveActive, optionsOf, splitMatch } from './search-model';
import './search.css';
import { displayProse } from '../components/wording';

/** Hits asked per service. */
const PER_SERVICE = 8;
const DEBOUNCE_MS = 180;

type State =
  | { readonly status: 'idle' }
  | { readonly status: 'loading'; readonly result: SearchResponse | null }
  | { readonly status: 'done'; readonly result: SearchResponse }
  | { readonly status: 'error'; readonly message: string };

function isEditable(t: EventTarget | null): boolean {
  if (!(t instanceof HTMLElement)) return false;
  return t.isContentEditable || t.tagName === 'TEXTAREA' || t.tagName === 'SELECT' || (t.tagName === 'INPUT' && !['button', 'checkbox', 'radio', 'submit', 'reset', 'file', 'range', 'color'].includes((t as HTMLInputElement).type));
}

function Marked({ text, needle, whole }: { readonly text: string; readonly needle: string; readonly whole: boolean }) {
  const parts = splitMatch(text, needle, whole);
  if (parts.length === 1) return <>{text}</>;
  return (
    <>
      {parts[0]}
      <mark>{parts[1]}</mark>
      {parts[2]}
    </>
  );
}

function timeOf(iso: string | undefined): string {
  const day = utcTime(iso, 'day');
  return /^\d{4}-/.test(day) ? day : '';
}

export function GlobalSearch() {
  const { client, store } = useShellContext();
  const services = useShell((s) => s.services);
  const overlay = useShell((s) => s.overlay);
  const [q, setQ] = useState('');
  const [open, setOpen] = useState(false);
  const [state, setState] = useState<State>({ status: 'idle' });
  const [active, setActive] = useState(-1);
  const [note, setNote] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const root = useRef<HTMLDivElement>(null);
  const listId = useId();

  const trimmed = q.trim();
  useEffect(() => {
    if (!client || trimmed.length < MIN_QUERY) {
      setState({ status: 'idle' });
      setActive(-1);
      return undefined;
    }
    const ctl = new AbortController();
    const timer = window.setTimeout(() => {
      setState((s) => ({ status: 'loading', result: s.status === 'done' ? s.result : s.status === 'loading' ? s.result : null }));
      client
        .get<SearchResponse>('/api/search', { query: { q: trimmed, limit: PER_SERVICE }, signal: ctl.signal })
        .then((result) => {
          setState({ status: 'done', result });
          setActive(result.total > 0 ? 0 : -1);
        })
        .catch((err: unknown) => {
          if (ctl.signal.aborted) return;
          setState({ status: 'error', message: err instanceof Error ? err.message : 'The search failed.' });
        });
    }, DEBOUNCE_MS);
    return () => {
      window.clearTimeout(timer);
      ctl.abort();
    };
  }, [client, trimmed]);

  // Ctrl+K / Cmd+K anywhere; `/` when the active workspace has no search field of its own (useShortcuts focuses that one).
  useEffect(() => {
    const onKey = (e: KeyboardEvent): void => {
      const ctrlK = (e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey && e.key.toLowerCase() === 'k';
      const slash = e.key === '/' && !e.ctrlKey && !e.altKey && !e.metaKey && !isEditable(e.target) && store.getState().overlay === null && document.querySelector('[data-active-workspace] [data-workspace-search]') === null;
      if (!ctrlK && !(slash && !e.defaultPrevented)) return;
      e.preventDefault();
      if (ctrlK) store.getState().closeOverlay();
      input.current?.focus();
      input.current?.select();
      setOpen(true);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [store]);

  // A click outside closes the results.
  useEffect(() => {
    if (!open) return undefined;
    const onDown = (e: MouseEvent): void => {
      if (root.current && e.target instanceof Node && !root.current.contains(e.target)) setOpen(false);
    };
    document.addEventListener('mousedown', onDown);
    return () => document.removeEventListener('mousedown', onDown);
  }, [open]);

  const result = state.status === 'done' || state.status === 'loading' ? (state.status === 'done' ? state.result : state.result) : null;
  const options = useMemo(() => optionsOf(result?.groups ?? []), [result]);

  /** Selects the item's workspace and asks it to select the item; says how far it got when the workspace cannot. */
  const openItem = useCallback(
    (r: OpenRequest) => {
      const ws = workspaceFor(r.service)?.label ?? r.service;
      if (!services.some((s) => s.name === r.service)) {
        setNote(`The ${ws} workspace is not mounted in this gateway.`);
        return;
      }
      store.getState().closeOverlay();
      store.getState().select(r.service);
      requestOpen(r);
      setOpen(false);
      const selects = canOpen(r);
      setNote(selects ? null : `Opened ${ws}. It cannot select an item by id yet: look for “${r.title}” there (${kindLabel(r.kind)} ${r.id}).`);
      // The item is opened in its workspace: the keyboard goes on there (Tab from the top of that workspace), not in this
      // box; where the workspace cannot select the item, focus stays here beside the note that says so.
      if (selects) requestAnimationFrame(() => document.querySelector<HTMLElement>('[data-active-workspace]')?.focus({ preventScroll: true }));
    },
    [services, store],
  );
  const go = useCallback((hit: SearchHit) => openItem({ ...hit.link, title: hit.title }), [openItem]);
  // Item links in the address (`#/replay/story/<id>`, from "Send to…" evidence) open through the same path.
  useHashRoute(services.length > 0, openItem);

  const onKeyDown = (e: ReactKeyboardEvent<HTMLInputElement>): void => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp' || ((e.key === 'Home' || e.key === 'End') && open && options.length > 0 && e.ctrlKey)) {
      e.preventDefault();
      setOpen(true);
      setActive((a) => moveActive(a, options.length, e.key as 'ArrowDown' | 'ArrowUp' | 'Home' | 'End'));
      return;
    }
    if (e.key === 'Enter') {
      const opt = options[active];
      if (opt) {
        e.preventDefault();
        go(opt.hit);
      }
      return;
    }
    if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      if (open && trimmed.length > 0) setOpen(false);
      else {
        setQ('');
        input.current?.blur();
      }
    }
  };

  useEffect(() => {
    if (active < 0) return;
    document.getElementById(`${listId}-opt-${active}`)?.scrollIntoView({ block: 'nearest' });
  }, [active, listId]);

  const shown = open && overlay === null && trimmed.length > 0;
  const activeKey = options[active] ? `${listId}-opt-${active}` : undefined;

  return (
    <div className="gsearch" ref={root} role="search">
      <label className="gsearch__label" htmlFor={`${listId}-input`}>
        Search everything
      </label>
      <input
        id={`${listId}-input`}
        ref={input}
        className="gsearch__input"
        type="search"
        placeholder="IP, hash, T-id…"
        title="An IP, hash, domain, technique id or package, across every workspace"
        autoComplete="off"
        spellCheck={false}
        maxLength={MAX_QUERY}
        value={q}
        role="combobox"
        aria-expanded={shown}
        aria-controls={`${listId}-list`}
        aria-autocomplete="list"
        {...(activeKey !== undefined ? { 'aria-activedescendant': activeKey } : {})}
        data-global-search=""
        onChange={(e) => {
          setQ(e.target.value);
          setOpen(true);
          setNote(null);
        }}
        onFocus={() => setOpen(true)}
        onKeyDown={onKeyDown}
      />
      {q === '' && (
        <kbd className="gsearch__key" aria-hidden="true">
          Ctrl K
        </kbd>
      )}
      {note !== null && (
        <p className="gsearch__note" role="status">
          {note}
          <button type="button" className="small" onClick={() => setNote(null)} aria-label="Dismiss the note">
            ×
          </button>
        </p>
      )}
      {shown && (
        <div className="gsearch__panel" role="region" aria-label="Search results">
          {trimmed.length < MIN_QUERY ? (
            <p className="gsearch__msg">Type at least {MIN_QUERY} characters.</p>
          ) : state.status === 'error' ? (
            <p className="gsearch__msg gsearch__msg--error" role="alert">
              {state.message}
            </p>
          ) : result === null ? (
            <p className="gsearch__msg" role="status">
              Searching every service’s store…
            </p>
          ) : (
            <>
              <p className="gsearch__summary" role="status">
                {state.status === 'loading' ? 'Searching… ' : ''}Read as {KIND_WORDS[result.kind]} · {result.total === 0 ? 'no matches' : `${result.total} match${result.total === 1 ? '' : 'es'}`}
              </p>
              {result.total === 0 && result.groups.length === 0 ? (
                <p className="gsearch__msg">
                  Nothing stored holds it. Search takes an IP address, a hash (MD5, SHA-1, SHA-256), a domain, a technique id (T1059.001), a CVE, a package (npm:name,
                  name@1.2.3, pkg:pypi/name) or words from a title.
                </p>
              ) : (
                <ul className="gsearch__list" id={`${listId}-list`} role="listbox" aria-label="Matches">
                  {result.groups.map((g, gi) => (
                    <li key={g.service} role="presentation" className="gsearch__group">
                      <div className="gsearch__ghead" role="presentation">
                        <span>{workspaceFor(g.service)?.label ?? g.workspace}</span>
                        <span className="muted">
                          {g.title} · {g.hits.length}
                          {g.truncated ? '+' : ''}
                        </span>
                      </div>
                      {g.error !== undefined && <p className="gsearch__msg gsearch__msg--error">{g.error}</p>}
                      <ul role="presentation">
                        {options
                          .map((o, i) => ({ o, i }))
                          .filter(({ o }) => o.group === gi)
                          .map(({ o, i }) => (
                            <li
                              key={o.key}
                              id={`${listId}-opt-${i}`}
                              role="option"
                              aria-selected={i === active}
                              className={`gsearch__hit${i === active ? ' gsearch__hit--active' : ''}`}
                              data-search-hit={o.key}
                              onMouseEnter={() => setActive(i)}
                              onMouseDown={(e) => e.preventDefault()}
                              onClick={() => go(o.hit)}
                            >
                              <span className="gsearch__kind">{kindLabel(o.hit.kind)}</span>
                              <span className="gsearch__title">
                                <Marked text={displayProse(o.hit.title)} needle={trimmed} whole={result.kind !== 'text'} />
                              </span>
                              <span className="gsearch__time muted">{timeOf(o.hit.time)}</span>
                              <span className="gsearch__where">
                                <span className="muted">{o.hit.field}: </span>
                                <code>
                                  <Marked text={o.hit.snippet} needle={trimmed} whole={result.kind !== 'text'} />
                                </code>
                              </span>
                            </li>
                          ))}
                      </ul>
                      {g.truncated && <p className="gsearch__more muted">More matches in {workspaceFor(g.service)?.label ?? g.workspace}: make the search more specific.</p>}
                    </li>
                  ))}
                </ul>
              )}
              <p className="gsearch__foot muted">↑↓ to move · Enter to open · Esc to close</p>
            </>
          )}
        </div>
      )}
    </div>
  );
}
