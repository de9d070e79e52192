// The page of a service whose workspace screens have not landed yet: what it is, and whether it answers.
import { useEffect, useState } from 'react';
import { ApiError } from '../api/client';
import { ErrorNote } from '../components/ErrorNote';
import type { WorkspaceProps } from '../workspaces/registry';

export function GenericWorkspace({ service, client }: WorkspaceProps) {
  const [health, setHealth] = useState<unknown>(undefined);
  const [error, setError] = useState<ApiError | null>(null);
  useEffect(() => {
    const ac = new AbortController();
    client
      .get<unknown>(`${service.base}/health`, { signal: ac.signal })
      .then(setHealth)
      .catch((e: unknown) => {
        if (e instanceof ApiError) setError(e);
      });
    return () => ac.abort();
  }, [client, service.base]);
  return (
    <div className="ws-page">
      <header className="ws-head">
        <h1>{service.workspace || service.title}</h1>
        <span className="muted">{service.title}</span>
      </header>
      <div className="empty">
        <p>
          The <code>{service.name}</code> service is mounted at <code>{service.base}</code>, but its workspace screens are not part of this build yet.
          Its command line and HTTP routes work; see its page under <code>docs/</code>.
        </p>
        {error && <ErrorNote error={error} />}
        {health !== undefined && (
          <details>
            <summary>Service health</summary>
            <pre className="code-block">{JSON.stringify(health, null, 2)}</pre>
          </details>
        )}
      </div>
    </div>
  );
}
