// @vitest-environment jsdom
// Every overlay keeps the keyboard inside it: focus in on open, back on close, Tab and Shift+Tab wrap around its controls.
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useRef, useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { useDialogFocus, useFocusWhenLost } from './useDialogFocus';

afterEach(cleanup);

function Dialog({ onClose }: { readonly onClose: () => void }) {
  const panel = useRef<HTMLDivElement>(null);
  const onKey = useDialogFocus(panel);
  return (
    <div role="dialog" aria-modal="true" tabIndex={-1} ref={panel} onKeyDown={onKey} data-testid="panel">
      <button type="button" onClick={onClose}>
        Close
      </button>
      <button type="button" disabled>
        Off
      </button>
      <input aria-label="Title" />
      <button type="button">Send</button>
    </div>
  );
}

function Page() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Open
      </button>
      <button type="button">Behind</button>
      {open && <Dialog onClose={() => setOpen(false)} />}
    </>
  );
}

describe('useDialogFocus', () => {
  it('focuses the panel, wraps Tab and Shift+Tab around its enabled controls, and gives focus back on close', () => {
    render(<Page />);
    const opener = screen.getByText('Open');
    opener.focus();
    fireEvent.click(opener);
    const panel = screen.getByTestId('panel');
    expect(document.activeElement).toBe(panel);
    // Shift+Tab from the panel itself goes to its last control, not to the page behind.
    fireEvent.keyDown(panel, { key: 'Tab', shiftKey: true });
    expect(document.activeElement).toBe(screen.getByText('Send'));
    // Tab from the last control goes round to the first.
    fireEvent.keyDown(screen.getByText('Send'), { key: 'Tab' });
    expect(document.activeElement).toBe(screen.getByText('Close'));
    fireEvent.keyDown(screen.getByText('Close'), { key: 'Tab', shiftKey: true });
    expect(document.activeElement).toBe(screen.getByText('Send'));
    // Closing gives focus back to the opener.
    fireEvent.click(screen.getByText('Close'));
    expect(document.activeElement).toBe(opener);
  });
});

function Work() {
  const [done, setDone] = useState(false);
  const [busy, setBusy] = useState(false);
  const result = useRef<HTMLHeadingElement>(null);
  useFocusWhenLost(result, done ? 'r1' : null);
  return (
    <>
      <button type="button" disabled={busy} onClick={() => setBusy(true)}>
        Run
      </button>
      <button type="button" onClick={() => setDone(true)}>
        Finish
      </button>
      <input aria-label="Elsewhere" />
      {done && (
        <h2 tabIndex={-1} ref={result}>
          Result
        </h2>
      )}
    </>
  );
}

describe('useFocusWhenLost', () => {
  it('gives focus to the result when the work left it on the page, and leaves it where the user put it otherwise', () => {
    const { unmount } = render(<Work />);
    (document.activeElement as HTMLElement | null)?.blur();
    fireEvent.click(screen.getByText('Finish'));
    expect(document.activeElement).toBe(screen.getByText('Result'));
    unmount();
    // Focus on a control the work disabled counts as lost (the browser has not moved it yet when the effect runs).
    const again = render(<Work />);
    const run = screen.getByText('Run');
    run.focus();
    fireEvent.click(run);
    expect((run as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByText('Finish'));
    expect(document.activeElement).toBe(screen.getByText('Result'));
    again.unmount();
    render(<Work />);
    screen.getByLabelText('Elsewhere').focus();
    fireEvent.click(screen.getByText('Finish'));
    expect(document.activeElement).toBe(screen.getByLabelText('Elsewhere'));
  });
});
