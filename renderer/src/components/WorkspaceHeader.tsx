// The one head of every workspace (title, what it is for, its tools on the right) and the one filter field
// that `/` focuses (data-workspace-search) and Esc clears.
import type { ReactNode } from 'react';

export function WorkspaceHeader({ title, purpose, children }: { readonly title: string; readonly purpose: string; readonly children?: ReactNode }) {
  return (
    <header className="ws-head">
      <h1>{title}</h1>
      <span className="muted">{purpose}</span>
      <div className="ws-head__tools">{children}</div>
    </header>
  );
}

export interface FilterFieldProps {
  readonly value: string;
  readonly onChange: (value: string) => void;
  /** Placeholder, which names the `/` shortcut. */
  readonly placeholder: string;
  /** Accessible name. */
  readonly label: string;
  readonly maxLength?: number;
  readonly disabled?: boolean;
  readonly testId?: string;
}

/** A search field: Esc clears it (and stops there, so the shell's Esc handling does not also run); `/` focuses it. */
export function FilterField({ value, onChange, placeholder, label, maxLength, disabled, testId }: FilterFieldProps) {
  return (
    <input
      type="search"
      placeholder={placeholder}
      aria-label={label}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      onKeyDown={(e) => {
        if (e.key === 'Escape' && value) {
          e.stopPropagation();
          onChange('');
        }
      }}
      maxLength={maxLength}
      disabled={disabled}
      data-workspace-search
      data-testid={testId}
    />
  );
}
