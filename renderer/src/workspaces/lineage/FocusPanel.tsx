// The Lineage workspace's origin and blast-radius panel: the chosen reason, node or backtrack query, its origin stories and the layer's blast radius.
import { useStore } from 'zustand';
import type { GraphNode } from '../../../../engines/core/contracts/provgate';
import { ErrorNote } from '../../components/ErrorNote';
import { utcTime } from '../../components/time';
import { attrRows, plural } from './model';
import type { LineageStore } from './store';

function Facts({ rows, testId }: { readonly rows: ReadonlyArray<readonly [string, string | number | null | undefined]>; readonly testId?: string }) {
  return (
    <dl className="facts" data-testid={testId}>
      {rows
        .filter(([, v]) => v !== null && v !== undefined && v !== '')
        .map(([k, v]) => (
          <div key={k} className="facts__row">
            <dt>{k}</dt>
            <dd className="selectable">{String(v)}</dd>
          </div>
        ))}
    </dl>
  );
}

function NodeFacts({ node }: { readonly node: GraphNode }) {
  return <Facts rows={[['kind', node.kind], ['label', node.label], ...attrRows(node).map((r) => [r.key, r.value] as const)]} testId="node-facts" />;
}

export function FocusPanel({ store }: { readonly store: LineageStore }) {
  const focus = useStore(store, (s) => s.focus);
  const graph = useStore(store, (s) => s.graph);
  const stories = useStore(store, (s) => s.stories);
  const storiesError = useStore(store, (s) => s.storiesError);
  const blast = useStore(store, (s) => s.blast);
  const blastError = useStore(store, (s) => s.blastError);
  const clear = useStore(store, (s) => s.clearFocus);
  if (!graph) return null;
  const node = focus?.kind === 'node' ? graph.nodes.find((n) => n.id === focus.id) : undefined;
  const title = focus === null ? 'Origin' : focus.kind === 'reason' ? 'Origin of the reason' : focus.kind === 'query' ? `Backtrack “${focus.query}”` : node?.kind === 'layer' ? 'Blast radius of the layer' : `The ${node?.kind ?? 'node'}`;
  return (
    <section className="panel lineage-focus" aria-label="Origin and blast radius" data-testid="lineage-focus">
      <div className="panel__head">
        <h2>{title}</h2>
        {focus && (
          <button type="button" className="small" onClick={clear} title="Clear the highlight (Esc)">
            Clear
          </button>
        )}
      </div>
      {focus === null && <p className="muted">Choose a reason, click a node in the graph, or backtrack a CVE, finding id or package from the search field ( / ).</p>}
      {focus?.kind === 'reason' && focus.reason.finding === undefined && (
        <>
          <p>{focus.reason.message}</p>
          {focus.reason.path.length > 0 ? <p className="muted">Its path is highlighted in the graph.</p> : <p className="muted">This reason is about the run as a whole (no graph path).</p>}
        </>
      )}
      {node && <NodeFacts node={node} />}
      {storiesError && <ErrorNote error={storiesError} title="The origin could not be traced" />}
      {blastError && <ErrorNote error={blastError} title="The blast radius could not be computed" />}
      {blast && (
        <div data-testid="blast-radius">
          <Facts
            rows={[
              ['layers', blast.layers.join(', ')],
              ['images', blast.images.join(', ') || 'none'],
              ['services', blast.services.join(', ') || 'none'],
              ['containers', blast.containers.join(', ') || 'none'],
            ]}
          />
          <p className="muted">
            {plural(blast.images.length, 'image')}, {plural(blast.services.length, 'service')} and {plural(blast.containers.length, 'container')} ship this layer; they are highlighted.
          </p>
        </div>
      )}
      {stories && stories.stories.length === 0 && <p className="muted">No finding of this run matches “{stories.query}”.</p>}
      {stories &&
        stories.stories.slice(0, 20).map((s) => (
          <article key={s.finding.id} className="story" data-testid="origin-story">
            <h3>
              {s.finding.cve ?? s.finding.title} <span className={`sev sev--${s.finding.severity}`}>{s.finding.severity}</span>
            </h3>
            <Facts
              rows={[
                ['finding', `${s.finding.title} (${s.finding.source})`],
                ['dependency', s.dependency ? `${s.dependency.name} ${s.dependency.version}` : null],
                ['purl', s.dependency?.purl],
                ['reachable', s.finding.reachable === null ? 'unknown' : s.finding.reachable ? 'yes' : 'no'],
                ['commit', s.introducedBy ? s.introducedBy.sha : 'no commit event names it'],
                ['PR', s.introducedBy?.pr === null || s.introducedBy?.pr === undefined ? null : `#${s.introducedBy.pr}`],
                ['author', s.introducedBy?.author],
                ['when', utcTime(s.introducedBy?.timestamp)],
                ['subject', s.introducedBy?.subject],
                ['builds', s.builds.join(', ')],
                ['images', s.blastRadius.images.join(', ')],
                ['services', s.blastRadius.services.join(', ')],
                ['containers', s.blastRadius.containers.join(', ')],
              ]}
            />
            <p className="muted story__path">{s.path.join(' → ')}</p>
          </article>
        ))}
    </section>
  );
}
