// A service error as the analyst needs it: the message, what to do next when the caller knows, the code, the request id to quote, and field paths when given.
import type { ReactNode } from 'react';
import type { ApiError } from '../api/client';

export function ErrorNote({ error, title, hint }: { readonly error: ApiError; readonly title?: string; readonly hint?: ReactNode }) {
  return (
    <div className="error-note" role="alert">
      <div className="error-note__title">{title ?? 'The service reported an error'}</div>
      <div className="error-note__message">{error.message}</div>
      {hint !== undefined && hint !== null && <div className="error-note__hint">{hint}</div>}
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

/** A problem found before any request was sent (a field that does not read, a file too large): why, in the error note's frame. */
export function LocalErrorNote({ message, title = 'Nothing was sent' }: { readonly message: ReactNode; readonly title?: string }) {
  return (
    <div className="error-note" role="alert">
      <div className="error-note__title">{title}</div>
      <div>{message}</div>
    </div>
  );
}
