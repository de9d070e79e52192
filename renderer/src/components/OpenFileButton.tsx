// A button that opens the file picker of a hidden input (the input stays out of the tab order); the picked
// file goes to `onFile` and the input is cleared, so picking the same file again is seen again.
import { useRef, type ReactNode } from 'react';

export interface OpenFileButtonProps {
  readonly label: ReactNode;
  readonly onFile: (file: File) => void;
  /** The picker's file-type hint; any file when omitted. */
  readonly accept?: string;
  /** The workspace's main action (primary style) rather than a small button. */
  readonly primary?: boolean;
  readonly disabled?: boolean;
  /** data-testid of the hidden input (tests set files on it). */
  readonly testId?: string;
  readonly buttonTestId?: string;
}

export function OpenFileButton({ label, onFile, accept, primary, disabled, testId, buttonTestId }: OpenFileButtonProps) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <button type="button" className={primary === true ? 'primary' : 'small'} onClick={() => input.current?.click()} disabled={disabled} data-testid={buttonTestId}>
        {label}
      </button>
      <input
        ref={input}
        type="file"
        accept={accept}
        tabIndex={-1}
        aria-hidden="true"
        className="visually-hidden"
        data-testid={testId}
        onChange={(e) => {
          const f = e.target.files?.[0];
          if (f) onFile(f);
          e.target.value = '';
        }}
      />
    </>
  );
}
