// A button that copies a value (a chain head hash, a count) to the clipboard, and says whether it could.
import { useState } from 'react';

/** Copies `value`; when the page may not write the clipboard it says to select the text and press Ctrl+C. */
export function CopyButton({ value, label = 'Copy', what }: { value: string; label?: string; what: string }) {
  const [note, setNote] = useState<string | null>(null);
  const copy = async (): Promise<void> => {
    try {
      await navigator.clipboard.writeText(value);
      setNote('Copied.');
    } catch {
      setNote('The clipboard is not available here: select the text and press Ctrl+C.');
    }
  };
  return (
    <>
      <button type="button" className="small pk-copy" aria-label={`Copy ${what}`} onClick={() => void copy()}>
        {label}
      </button>
      {note !== null && (
        <span className="muted small" role="status">
          {' '}
          {note}
        </span>
      )}
    </>
  );
}
