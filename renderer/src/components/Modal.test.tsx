// @vitest-environment jsdom
// The shared dialog: title and Close (Esc), Esc handled once and kept from the page's own key handlers, the dialog's own
// keys first, a press on the dimmed overlay closes, focus handed to the data-first field and back to the opener on close.
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Modal } from './Modal';

afterEach(cleanup);

function Page({ onClose, onKey, first }: { readonly onClose?: () => void; readonly onKey?: (key: string) => boolean; readonly first?: boolean }) {
  const [open, setOpen] = useState(false);
  const close = (): void => {
    onClose?.();
    setOpen(false);
  };
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Open
      </button>
      {open && (
        <Modal title="A dialog" onClose={close} testId="dialog" {...(onKey ? { onKey: (e) => onKey(e.key) } : {})}>
          <button type="button">Inside</button>
          <input aria-label="Name" {...(first === true ? { 'data-first': '' } : {})} />
        </Modal>
      )}
    </>
  );
}

function openFrom(): HTMLElement {
  const opener = screen.getByText('Open');
  opener.focus();
  fireEvent.click(opener);
  return opener;
}

describe('Modal', () => {
  it('is a labelled modal dialog: focus on the panel, Esc closes it once without reaching the page, focus back on the opener', () => {
    const onClose = vi.fn();
    const page = vi.fn();
    window.addEventListener('keydown', page);
    try {
      render(<Page onClose={onClose} />);
      const opener = openFrom();
      const dialog = screen.getByRole('dialog', { name: 'A dialog' });
      expect(dialog.getAttribute('aria-modal')).toBe('true');
      expect(dialog.getAttribute('data-testid')).toBe('dialog');
      expect(document.activeElement).toBe(dialog);
      fireEvent.keyDown(screen.getByText('Inside'), { key: 'Escape' });
      expect(onClose).toHaveBeenCalledTimes(1);
      expect(page).not.toHaveBeenCalled();
      expect(screen.queryByTestId('dialog')).toBeNull();
      expect(document.activeElement).toBe(opener);
    } finally {
      window.removeEventListener('keydown', page);
    }
  });

  it('closes from Close (Esc) and from a press on the overlay, not from a press inside the panel', () => {
    const onClose = vi.fn();
    render(<Page onClose={onClose} />);
    openFrom();
    fireEvent.mouseDown(screen.getByText('Inside'));
    expect(screen.queryByTestId('dialog')).not.toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Close (Esc)' }));
    expect(onClose).toHaveBeenCalledTimes(1);
    openFrom();
    const overlay = screen.getByTestId('dialog').parentElement!;
    expect(overlay.className).toBe('overlay');
    fireEvent.mouseDown(overlay);
    expect(onClose).toHaveBeenCalledTimes(2);
    expect(screen.queryByTestId('dialog')).toBeNull();
  });

  it("reads the dialog's own keys first: a key it handles does not close it", () => {
    const onClose = vi.fn();
    render(<Page onClose={onClose} onKey={(key) => key === 'Escape'} />);
    openFrom();
    fireEvent.keyDown(screen.getByTestId('dialog'), { key: 'Escape' });
    expect(onClose).not.toHaveBeenCalled();
  });

  it('hands focus to the data-first field and keeps Tab inside', () => {
    render(<Page first />);
    openFrom();
    const name = screen.getByLabelText('Name');
    expect(document.activeElement).toBe(name);
    fireEvent.keyDown(name, { key: 'Tab' });
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Close (Esc)' }));
  });
});
