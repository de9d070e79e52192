// @vitest-environment jsdom
// The text field with its counter: heading, the panel's controls, "n / limit characters (note)", Ctrl+Enter, the over-limit note.
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CountedText, overLimit, TooLongNote } from './CountedText';

afterEach(cleanup);

function Panel({ onSubmit, note }: { readonly onSubmit?: () => void; readonly note?: string }) {
  const [text, setText] = useState('');
  return (
    <section>
      <CountedText
        title="Report"
        value={text}
        onChange={setText}
        limit={1000}
        label="Report text"
        testId="text"
        className="field"
        placeholder="Paste"
        actions={<button type="button">Open file…</button>}
        {...(note === undefined ? {} : { counterNote: note })}
        {...(onSubmit === undefined ? {} : { onSubmit })}
      />
      <TooLongNote text={text} limit={1000} />
    </section>
  );
}

// The counter reads numbers in the page's locale.
const n = (x: number): string => x.toLocaleString();

describe('CountedText', () => {
  it('counts the characters against the limit, with the note in brackets, and says when the text is too long', () => {
    render(<Panel note="shared with Extraction" />);
    const head = screen.getByRole('heading', { name: 'Report' }).parentElement!;
    expect(head.textContent).toBe(`ReportOpen file…0 / ${n(1000)} characters (shared with Extraction)`);
    const field = screen.getByLabelText('Report text') as HTMLTextAreaElement;
    expect(field.dataset['testid']).toBe('text');
    expect(field.className).toBe('field');
    expect(field.placeholder).toBe('Paste');
    fireEvent.change(field, { target: { value: 'x'.repeat(1000) } });
    expect(head.textContent).toContain(`${n(1000)} / ${n(1000)} characters`);
    expect(screen.queryByText('The text is longer than the service takes.')).toBeNull();
    fireEvent.change(field, { target: { value: 'x'.repeat(1001) } });
    expect(head.textContent).toContain(`${n(1001)} / ${n(1000)} characters`);
    expect(screen.getByText('The text is longer than the service takes.').className).toBe('field-error');
  });

  it('has no brackets without a note', () => {
    render(<Panel />);
    expect(screen.getByText(/characters/).textContent).toBe(`0 / ${n(1000)} characters`);
  });

  it('runs the action on Ctrl+Enter or Cmd+Enter, not on Enter alone', () => {
    const onSubmit = vi.fn();
    render(<Panel onSubmit={onSubmit} />);
    const field = screen.getByLabelText('Report text');
    fireEvent.keyDown(field, { key: 'Enter' });
    expect(onSubmit).not.toHaveBeenCalled();
    fireEvent.keyDown(field, { key: 'Enter', ctrlKey: true });
    fireEvent.keyDown(field, { key: 'Enter', metaKey: true });
    expect(onSubmit).toHaveBeenCalledTimes(2);
  });

  it('overLimit is strictly longer than the limit', () => {
    expect(overLimit('abc', 3)).toBe(false);
    expect(overLimit('abcd', 3)).toBe(true);
  });
});
