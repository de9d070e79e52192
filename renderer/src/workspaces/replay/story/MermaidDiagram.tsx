// The story's Mermaid text drawn by Mermaid itself, loaded on first use as its own chunk and shown as an image.
import type mermaidModule from 'mermaid';
import { useState } from 'react';
import { useLoad } from '../../../components/useLoad';

type MermaidApi = typeof mermaidModule;

let loading: Promise<MermaidApi> | null = null;
let renders = 0;

/** Mermaid (several hundred kB) stays out of the main bundle: the first diagram loads it. */
function loadMermaid(): Promise<MermaidApi> {
  loading ??= import('mermaid').then((m) => m.default);
  // A failed load may be retried by the next diagram.
  loading.catch(() => {
    loading = null;
  });
  return loading;
}

/**
 * Renders to an SVG string and returns it as a data: URL. Shown through <img>, the SVG is an image: no script in it
 * runs, none of its links can be followed, and its own <style> cannot reach the page.
 */
export async function renderMermaidSvg(text: string, theme: string): Promise<string> {
  const mermaid = await loadMermaid();
  mermaid.initialize({
    startOnLoad: false,
    securityLevel: 'strict',
    theme: theme === 'dark' ? 'dark' : 'default',
    // Labels as SVG text, not HTML in foreignObject, so the image draws the same everywhere.
    htmlLabels: false,
    // Long alert titles wrap inside the message space instead of pushing the hosts apart.
    sequence: { useMaxWidth: false, wrap: true, width: 160 },
    fontFamily: 'system-ui, sans-serif',
  });
  renders += 1;
  const { svg } = await mermaid.render(`replay-mermaid-${renders}`, text);
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
}

type State = { readonly kind: 'idle' } | { readonly kind: 'drawing' } | { readonly kind: 'drawn'; readonly url: string } | { readonly kind: 'failed' };

export function MermaidDiagram({ text, theme, title }: { readonly text: string | null; readonly theme: string; readonly title: string }) {
  const [fit, setFit] = useState(true);
  // Drawn again for new text or theme; the last picture goes at once (reset). Mermaid's message may quote the text, so
  // a failure shows none of it: the text itself stays below for the analyst to read.
  const drawn = useLoad(() => (text === null ? null : renderMermaidSvg(text, theme)), [text, theme], { reset: true });
  const state: State =
    text === null ? { kind: 'idle' } : drawn.error !== null ? { kind: 'failed' } : drawn.data !== null ? { kind: 'drawn', url: drawn.data } : { kind: 'drawing' };

  if (state.kind === 'failed') {
    return (
      <p className="muted" data-testid="mermaid-failed" role="status">
        Mermaid could not draw this diagram; the text is below.
      </p>
    );
  }
  if (state.kind !== 'drawn') {
    return (
      <p className="muted" data-testid="mermaid-drawing" role="status">
        Drawing…
      </p>
    );
  }
  return (
    <>
      <div className="row mermaid-diagram__tools">
        <button type="button" className="small" aria-pressed={!fit} onClick={() => setFit(!fit)}>
          {fit ? 'Actual size' : 'Fit to width'}
        </button>
      </div>
      <div className={`mermaid-diagram${fit ? ' mermaid-diagram--fit' : ''}`} data-testid="mermaid-diagram">
        <img src={state.url} alt={title} />
      </div>
    </>
  );
}
