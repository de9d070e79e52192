// A service error as the analyst needs it: the message, the code, the request id to quote, and field paths when given.
import type { ApiError } from '../api/client';

export function ErrorNote({ error, title }: { readonly error: ApiError; readonly title?: string }) {
  return (
    <div className="error-note" role="alert">
      <div className="error-note__title">{title ?? 'The service reported an error'}</div>
      <div className="error-note__message">{error.message}</div>
      {error.details.length > 0 && (
        <ul className="error-note__details" aria-label="Problems by field">
          {error.details.map((d, i) => (
            <li key={`${d.path}-${i}`}>
              <code className="field-path">{d.path || '(document)'}</code> <span>{d.issue}</span>
            </li>
          ))}
        </ul>
      )}
      <div className="error-note__meta">
        <span>
          code <code>{error.code}</code>
        </span>
        {error.status > 0 && <span>HTTP {error.status}</span>}
        {error.requestId && (
          <span>
            request id <code className="selectable">{error.requestId}</code>
          </span>
        )}
      </div>
    </div>
  );
}
