// A panel's long text field with its counter: the panel head (title, the panel's own controls, "n / limit characters"),
// the textarea, and Ctrl+Enter (Cmd+Enter) to run the panel's action. The field takes any length; what is over the
// limit is said by TooLongNote beside the action, whose button the caller disables (overLimit).
import type { ReactNode } from 'react';

export interface CountedTextProps {
  /** The panel's heading. */
  readonly title: string;
  readonly value: string;
  readonly onChange: (text: string) => void;
  /** The most characters the service takes. */
  readonly limit: number;
  /** The textarea's accessible name. */
  readonly label: string;
  readonly testId: string;
  readonly placeholder?: string;
  /** The textarea's class (its height is the panel's). */
  readonly className?: string;
  /** Said after the counter, in brackets. */
  readonly counterNote?: string;
  /** Controls in the head between the heading and the counter (an Open file… button). */
  readonly actions?: ReactNode;
  /** Ctrl+Enter or Cmd+Enter in the field. */
  readonly onSubmit?: () => void;
}

/** Whether `text` is longer than the service takes. */
export function overLimit(text: string, limit: number): boolean {
  return text.length > limit;
}

export function CountedText({ title, value, onChange, limit, label, testId, placeholder, className, counterNote, actions, onSubmit }: CountedTextProps) {
  return (
    <>
      <div className="panel__head row">
        <h2>{title}</h2>
        {actions}
        <span className="spacer" />
        <span className="muted">
          {value.length.toLocaleString()} / {limit.toLocaleString()} characters{counterNote === undefined ? '' : ` (${counterNote})`}
        </span>
      </div>
      <textarea
        className={className}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        placeholder={placeholder}
        aria-label={label}
        data-testid={testId}
        onKeyDown={(e) => {
          if (onSubmit !== undefined && e.key === 'Enter' && (e.ctrlKey || e.metaKey)) onSubmit();
        }}
      />
    </>
  );
}

/** "The text is longer than the service takes." while it is, else nothing: for the row of the panel's action. */
export function TooLongNote({ text, limit }: { readonly text: string; readonly limit: number }) {
  return overLimit(text, limit) ? <span className="field-error">The text is longer than the service takes.</span> : null;
}
