// The Policies tab: the policy list and a YAML editor with live validation (errors at their line), save, save as new, activate.
import { useEffect, useRef, useState } from 'react';
import { stringify } from 'yaml';
import type { Me, PageOf, Policy, PolicyValidation } from '../../../../../engines/core/contracts/pkgscan';
import { ErrorNote } from '../../../components/ErrorNote';
import { useLoad } from '../../../components/useLoad';
import { useAction } from '../common/hooks';
import { can, errorLines, type PkgscanApi } from '../session';

function policyText(p: Policy): string {
  return p.source ?? stringify(p.document);
}

export function PoliciesTab({ api, me }: { api: PkgscanApi; me: Me }) {
  const policies = useLoad(() => api.get<PageOf<Policy>>('/policies', { limit: 500 }), [api]);
  const [selected, setSelected] = useState<Policy | null>(null);
  const [text, setText] = useState('');
  const action = useAction();
  const [notice, setNotice] = useState('');
  const writable = can(me, 'policy:write');
  const gutter = useRef<HTMLPreElement>(null);
  const textarea = useRef<HTMLTextAreaElement>(null);

  /** Puts the caret at the start of `line` and scrolls it into view (18 px a line, as the sheet sets). */
  const goToLine = (line: number): void => {
    const el = textarea.current;
    if (!el) return;
    const offset = text.split('\n').slice(0, line - 1).reduce((n, l) => n + l.length + 1, 0);
    el.focus();
    el.setSelectionRange(offset, offset);
    el.scrollTop = Math.max(0, (line - 3) * 18);
  };

  useEffect(() => {
    const first = policies.data?.items.find((p) => p.active) ?? policies.data?.items[0];
    if (selected === null && first) {
      setSelected(first);
      setText(policyText(first));
    }
  }, [policies.data, selected]);

  // Live validation: the service parses the text (debounced), so the editor shows exactly what saving would say.
  const validated = useLoad(() => (text === '' ? null : api.post<PolicyValidation>('/policies/validate', { document: text })), [api, text], { delayMs: 300 });
  const validation = validated.data;
  const validateError = validated.error;

  const bad = errorLines(validation?.errors ?? []);
  const lines = text.split('\n').length;

  const act = async (what: 'save' | 'copy' | 'activate'): Promise<void> => {
    if (!selected) return;
    setNotice('');
    await action.run(async () => {
      let p: Policy;
      if (what === 'save') p = await api.put<Policy>(`/policies/${selected.id}`, { document: text });
      else if (what === 'copy') p = await api.post<Policy>('/policies', { name: `${selected.name}-copy`, environment: selected.environment, document: text });
      else p = await api.post<Policy>(`/policies/${selected.id}/activate`);
      setSelected(p);
      setNotice(what === 'save' ? `Saved revision ${p.revision}.` : what === 'copy' ? 'Stored as a new, inactive policy.' : `Active for ${p.environment}.`);
      policies.reload();
    });
  };

  return (
    <div className="packages__cols packages__cols--wide">
      <div className="panel">
        <h2>Policies</h2>
        {policies.error && <ErrorNote error={policies.error} />}
        <ul className="packages__list">
          {(policies.data?.items ?? []).map((p) => (
            <li key={p.id}>
              <button
                type="button"
                className={selected?.id === p.id ? 'packages__pick packages__pick--active' : 'packages__pick'}
                onClick={() => {
                  setSelected(p);
                  setText(policyText(p));
                  setNotice('');
                }}
              >
                <span>{p.name}</span> <span className="muted">{p.environment}</span> {p.active && <span className="packages__badge">active</span>}
              </button>
            </li>
          ))}
        </ul>
      </div>
      <div className="panel">
        <div className="packages__filters">
          <h2>{selected ? `${selected.name} (${selected.environment}, revision ${selected.revision})` : 'Policy'}</h2>
          {writable && selected && (
            <>
              <button type="button" disabled={!validation?.valid} onClick={() => void act('save')}>
                Save
              </button>
              <button type="button" disabled={!validation?.valid} onClick={() => void act('copy')}>
                Save as new
              </button>
              <button type="button" className="primary" disabled={selected.active} onClick={() => void act('activate')}>
                Activate
              </button>
            </>
          )}
        </div>
        <div className="packages__editor">
          <pre className="packages__gutter" ref={gutter} aria-hidden="true">
            {Array.from({ length: lines }, (_, i) => (
              <span key={i} className={bad.has(i + 1) ? 'packages__line packages__line--bad' : 'packages__line'}>
                {i + 1}
              </span>
            ))}
          </pre>
          <textarea
            ref={textarea}
            aria-label="Policy document (YAML)"
            spellCheck={false}
            value={text}
            readOnly={!writable}
            onChange={(e) => setText(e.target.value)}
            onScroll={(e) => {
              if (gutter.current) gutter.current.scrollTop = e.currentTarget.scrollTop;
            }}
          />
        </div>
        <div className="packages__validation" data-testid="policy-validation" aria-live="polite">
          {validation === null ? (
            <span className="muted">validating…</span>
          ) : validation.valid ? (
            <span className="pos">valid · hash {validation.hash?.slice(0, 16)}</span>
          ) : (
            <ul>
              {validation.errors.map((e, i) => (
                <li key={i} className="neg" data-testid="policy-error">
                  {e.line !== undefined && (
                    <button type="button" className="packages__goto" onClick={() => goToLine(e.line ?? 1)}>
                      line {e.line}, column {e.col ?? 0}
                    </button>
                  )}{' '}
                  <code className="field-path">{e.path || '(document)'}</code> {e.issue}
                </li>
              ))}
            </ul>
          )}
        </div>
        {validateError && <ErrorNote error={validateError} title="The document could not be validated" />}
        {notice && <div className="pos small">{notice}</div>}
        {action.error && <ErrorNote error={action.error} />}
      </div>
    </div>
  );
}
