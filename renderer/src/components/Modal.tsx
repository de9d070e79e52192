// A modal dialog (Send to, the ACH editor's dialogs, the shell's `?` and Settings overlays): the dimmed overlay (a press
// outside the panel closes it), the panel with its title and "Close (Esc)", the focus kept inside (useDialogFocus, returned
// where it was on close) and handed to the field marked `data-first`. Esc inside the panel closes it and goes no further,
// so the page's own Esc handlers (the shell's) do not close anything a second time.
import { useEffect, useId, useRef, type KeyboardEvent, type ReactNode } from 'react';
import { useDialogFocus } from './useDialogFocus';

export interface ModalProps {
  readonly title: string;
  readonly onClose: () => void;
  readonly testId: string;
  /** Added to `overlay__panel`. */
  readonly className?: string;
  /** The dialog's own keys, read before Esc and Tab: true when it handled the key. */
  readonly onKey?: (e: KeyboardEvent<HTMLDivElement>) => boolean;
  readonly children: ReactNode;
}

export function Modal({ title, onClose, testId, className, onKey, children }: ModalProps) {
  const panel = useRef<HTMLDivElement>(null);
  const keepTab = useDialogFocus(panel);
  const titleId = useId();
  // useDialogFocus puts the focus on the panel; a form's first field (data-first) takes it from there, so typing starts at once.
  useEffect(() => {
    panel.current?.querySelector<HTMLElement>('[data-first]')?.focus();
  }, []);
  return (
    <div className="overlay" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div
        className={className === undefined ? 'overlay__panel' : `overlay__panel ${className}`}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        ref={panel}
        data-testid={testId}
        onKeyDown={(e) => {
          if (onKey?.(e) === true) return;
          if (e.key === 'Escape') {
            e.stopPropagation();
            onClose();
          } else keepTab(e);
        }}
      >
        <div className="overlay__head">
          <h2 id={titleId}>{title}</h2>
          <button type="button" className="small" onClick={onClose}>
            Close (Esc)
          </button>
        </div>
        {children}
      </div>
    </div>
  );
}
