// Cytoscape (the graph views' library, ~430 kB) reaches the page only when a graph is drawn: the first graph on screen
// fetches its chunk, every other one reuses it, and a workspace paints its other panels without waiting for it.
import { useEffect, useState, type DependencyList } from 'react';
import type { Core } from 'cytoscape';
import type cytoscapeModule from 'cytoscape';

export type Cytoscape = typeof cytoscapeModule;

let loading: Promise<Cytoscape> | null = null;

/** The cytoscape module, fetched once. */
export function loadCytoscape(): Promise<Cytoscape> {
  loading ??= import('cytoscape').then((m) => m.default);
  return loading;
}

/**
 * The graph `draw` makes once cytoscape has loaded, drawn again whenever `deps` change (as useEffect runs, and linted
 * like it: additionalHooks in eslint.config.ts) and destroyed when they do or on unmount; null until drawn, or when
 * `draw` draws nothing. Effects that restyle the graph take it as a dependency and skip a destroyed one.
 */
export function useCytoscapeGraph(draw: (cytoscape: Cytoscape) => Core | null, deps: DependencyList): Core | null {
  const [graph, setGraph] = useState<Core | null>(null);
  useEffect(() => {
    let live = true;
    let drawn: Core | null = null;
    void loadCytoscape().then((cytoscape) => {
      if (!live) return;
      drawn = draw(cytoscape);
      setGraph(drawn);
    });
    return () => {
      live = false;
      drawn?.destroy();
      setGraph(null);
    };
    // `draw` is a new closure on every render; what it reads is `deps`, which the lint checks at each call site.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, deps);
  return graph;
}
