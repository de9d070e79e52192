// The Lineage workspace's PR comment: the gate's Markdown shown as GitHub would, built as elements (no HTML injected), or raw.
import { useMemo, useState } from 'react';
import { commentLines, type CommentPart } from './model';

function Parts({ parts }: { readonly parts: readonly CommentPart[] }) {
  return (
    <>
      {parts.map((p, i) => (p.kind === 'strong' ? <strong key={i}>{p.text}</strong> : p.kind === 'code' ? <code key={i}>{p.text}</code> : <span key={i}>{p.text}</span>))}
    </>
  );
}

/** The PR comment as GitHub would show it (headings, bullets, bold, code), built as elements from text: no HTML is injected. */
export function CommentPreview({ markdown }: { readonly markdown: string }) {
  const [raw, setRaw] = useState(false);
  const lines = useMemo(() => commentLines(markdown), [markdown]);
  return (
    <section className="panel lineage-comment" aria-label="PR comment preview" data-testid="pr-comment">
      <div className="panel__head">
        <h2>PR comment</h2>
        <div className="row">
          <button type="button" className="small" aria-pressed={raw} onClick={() => setRaw((v) => !v)}>
            {raw ? 'Preview' : 'Markdown'}
          </button>
          <button type="button" className="small" onClick={() => void navigator.clipboard?.writeText(markdown)}>
            Copy
          </button>
        </div>
      </div>
      {raw ? (
        <pre className="code-block selectable">{markdown}</pre>
      ) : (
        <div className="comment-preview">
          {lines.map((l, i) =>
            l.kind === 'heading' ? (
              <h3 key={i}>{l.text}</h3>
            ) : l.kind === 'item' ? (
              <div key={i} className={`comment-item comment-item--${Math.min(l.depth, 2)}`}>
                <Parts parts={l.parts} />
              </div>
            ) : (
              <p key={i}>
                <Parts parts={l.parts} />
              </p>
            ),
          )}
        </div>
      )}
    </section>
  );
}
