// The candidate rule in a monospace editor, validated as it is edited (debounced POST /api/rule/validate): errors by line, benign hits, sibling coverage.
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import type { RuleValidation } from '../../../../engines/core/contracts/petriage';
import type { ApiError} from '../../api/client';
import { type ApiClient, asApiError } from '../../api/client';
import { percent, ruleProblems, VALIDATE_DELAY_MS, type RuleProblem } from './model';

type Check =
  | { readonly state: 'idle' }
  | { readonly state: 'checking' }
  | { readonly state: 'valid'; readonly validation: RuleValidation }
  | { readonly state: 'invalid'; readonly problems: readonly RuleProblem[] }
  | { readonly state: 'failed'; readonly error: ApiError };

export interface RuleEditorProps {
  readonly client: ApiClient;
  readonly base: string;
  /** The synthesised rule (or '' when none); editing starts from it. */
  readonly initial: string;
  /** Why there is no synthesised rule, when there is none. */
  readonly absentReason: string | null;
  /** Told the text as it is edited (the workspace exports it as .yar). */
  readonly onTextChange?: (text: string) => void;
}

export function RuleEditor({ client, base, initial, absentReason, onTextChange }: RuleEditorProps) {
  const [text, setText] = useState(initial);
  useEffect(() => onTextChange?.(text), [text, onTextChange]);
  const [check, setCheck] = useState<Check>({ state: 'idle' });
  const id = useId();
  const gutter = useRef<HTMLPreElement>(null);

  useEffect(() => setText(initial), [initial]);

  useEffect(() => {
    if (text.trim() === '') {
      setCheck({ state: 'idle' });
      return undefined;
    }
    const controller = new AbortController();
    setCheck({ state: 'checking' });
    // Wait for a pause in typing; a newer edit aborts both the timer and the request in flight.
    const timer = window.setTimeout(() => {
      client
        .post<RuleValidation>(`${base}/api/rule/validate`, { text }, { signal: controller.signal })
        .then((validation) => setCheck({ state: 'valid', validation }))
        .catch((err: unknown) => {
          if (controller.signal.aborted) return;
          const e = asApiError(err);
          setCheck(e.status === 422 || e.status === 413 ? { state: 'invalid', problems: ruleProblems(e) } : { state: 'failed', error: e });
        });
    }, VALIDATE_DELAY_MS);
    return () => {
      window.clearTimeout(timer);
      controller.abort();
    };
  }, [text, client, base]);

  const lines = useMemo(() => Math.max(1, text.split('\n').length), [text]);
  const badLines = new Set(check.state === 'invalid' ? check.problems.map((p) => p.line).filter((l): l is number => l !== null) : []);

  return (
    <section className="panel rule" aria-labelledby={`${id}-title`} data-testid="rule-panel">
      <div className="panel__head">
        <h2 id={`${id}-title`}>Candidate rule</h2>
        <span className="muted">YARA subset; validated against the benign corpus as you edit</span>
      </div>
      {absentReason && <p className="muted rule__absent">{absentReason}</p>}
      <div className="rule__editor">
        <pre className="rule__gutter code" aria-hidden="true" ref={gutter}>
          {Array.from({ length: lines }, (_v, i) => (
            <span key={i} className={badLines.has(i + 1) ? 'rule__bad' : undefined}>
              {i + 1}
              {'\n'}
            </span>
          ))}
        </pre>
        <textarea
          id={id}
          className="code rule__text"
          aria-label="Rule text"
          spellCheck={false}
          autoComplete="off"
          value={text}
          rows={Math.min(24, Math.max(8, lines + 1))}
          aria-invalid={check.state === 'invalid'}
          aria-describedby={`${id}-status`}
          placeholder={'rule example {\n  strings:\n    $a = "some distinctive text"\n  condition:\n    uint16(0) == 0x5A4D and $a\n}'}
          onChange={(e) => setText(e.target.value)}
          onScroll={(e) => {
            if (gutter.current) gutter.current.scrollTop = e.currentTarget.scrollTop;
          }}
        />
      </div>
      <div id={`${id}-status`} className="rule__status" data-testid="rule-status" data-state={check.state} aria-live="polite">
        <RuleStatus check={check} />
      </div>
    </section>
  );
}

function RuleStatus({ check }: { readonly check: Check }) {
  switch (check.state) {
    case 'idle':
      return <span className="muted">Type a rule to validate it.</span>;
    case 'checking':
      return <span className="muted">Validating…</span>;
    case 'failed':
      return <span className="neg">Validation failed: {check.error.message}</span>;
    case 'invalid':
      return (
        <div className="rule__problems" role="alert">
          <strong className="neg">The rule does not parse</strong>
          <ul>
            {check.problems.map((p, i) => (
              <li key={i}>
                {p.line !== null && <code className="field-path">line {p.line}</code>} {p.issue}
              </li>
            ))}
          </ul>
        </div>
      );
    case 'valid': {
      const v = check.validation;
      return (
        <div className="rule__ok">
          <div>
            <strong className={v.benignHitCount === 0 ? 'pos' : 'neg'}>
              {v.benignHitCount === 0 ? 'Valid, no benign hits' : `Valid, ${v.benignHitCount} benign hit${v.benignHitCount === 1 ? '' : 's'}`}
            </strong>{' '}
            <span className="muted">
              {v.rules.length} rule{v.rules.length === 1 ? '' : 's'} · {v.benignCorpusSize} benign files · specificity {v.specificity === null ? '–' : percent(v.specificity)} · sibling coverage{' '}
              {v.coverage ? `${v.coverage.matched}/${v.coverage.total} (${percent(v.coverage.ratio)})` : 'not measured (no siblings given)'}
            </span>
          </div>
          {v.benignHits.length > 0 && (
            <ul className="rule__hits" aria-label="Benign files matched">
              {v.benignHits.slice(0, 20).map((h) => (
                <li key={h.file}>
                  <code>{h.file}</code> <span className="muted">{h.rules.join(', ')}</span>
                </li>
              ))}
              {v.benignHits.length > 20 && <li className="muted">and {v.benignHitCount - 20} more</li>}
            </ul>
          )}
        </div>
      );
    }
  }
}
