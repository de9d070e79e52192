// @vitest-environment jsdom
// The error note: title, message, what to do next when the caller knows it, code, status and request id.
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError } from '../api/client';
import { ErrorNote } from './ErrorNote';

afterEach(cleanup);

describe('ErrorNote', () => {
  it('says what to do next between the message and the code when given a hint', () => {
    render(<ErrorNote error={new ApiError(422, 'parse_error', 'not a PE file: no MZ signature', 'rid-1')} title="Not a PE file" hint="Extract the executable first." />);
    const note = screen.getByRole('alert');
    expect(note.textContent).toBe('Not a PE filenot a PE file: no MZ signatureExtract the executable first.code parse_errorHTTP 422request id rid-1');
  });

  it('has no hint line without one', () => {
    render(<ErrorNote error={new ApiError(500, 'internal', 'boom')} />);
    expect(screen.getByRole('alert').querySelector('.error-note__hint')).toBeNull();
  });
});
