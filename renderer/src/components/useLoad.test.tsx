// @vitest-environment jsdom
// useLoad: the answer to the newest inputs wins whatever order answers arrive in, nothing lands after unmount, a
// reset forgets the last item, a delay waits for the inputs to settle, null loads nothing.
import { act, cleanup, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useLoad } from './useLoad';

/** Promises the test settles by hand, by key. */
function deferred() {
  const pending = new Map<string, { resolve: (v: string) => void; reject: (e: unknown) => void }>();
  const load = (key: string): Promise<string> =>
    new Promise<string>((resolve, reject) => {
      pending.set(key, { resolve, reject });
    });
  return { load, pending };
}

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('useLoad', () => {
  it('keeps the answer to the newest inputs when an older one arrives later', async () => {
    const { load, pending } = deferred();
    const { result, rerender } = renderHook(({ id }) => useLoad(() => load(id), [id]), { initialProps: { id: 'a' } });
    expect(result.current.loading).toBe(true);
    rerender({ id: 'b' });
    await act(async () => pending.get('b')!.resolve('B'));
    expect(result.current).toMatchObject({ data: 'B', loading: false, error: null });
    await act(async () => pending.get('a')!.resolve('A'));
    expect(result.current.data).toBe('B');
  });

  it('keeps the last value while the next loads, unless told to reset; keeps the value when a load fails', async () => {
    const { load, pending } = deferred();
    const kept = renderHook(({ id }) => useLoad(() => load(`k${id}`), [id]), { initialProps: { id: '1' } });
    await act(async () => pending.get('k1')!.resolve('one'));
    kept.rerender({ id: '2' });
    expect(kept.result.current).toMatchObject({ data: 'one', loading: true });
    await act(async () => pending.get('k2')!.reject(new Error('down')));
    expect(kept.result.current.data).toBe('one');
    expect(kept.result.current.error).not.toBeNull();
    expect(kept.result.current.loading).toBe(false);

    const reset = renderHook(({ id }) => useLoad(() => load(`r${id}`), [id], { reset: true }), { initialProps: { id: '1' } });
    await act(async () => pending.get('r1')!.resolve('one'));
    reset.rerender({ id: '2' });
    expect(reset.result.current).toMatchObject({ data: null, error: null, loading: true });
  });

  it('lands nothing after unmount, loads nothing for null, and loads again on reload', async () => {
    const { load, pending } = deferred();
    const gone = renderHook(() => useLoad(() => load('x'), []));
    gone.unmount();
    await act(async () => pending.get('x')!.resolve('late'));
    expect(gone.result.current.data).toBeNull();

    const calls: string[] = [];
    const { result, rerender } = renderHook(({ on }) => useLoad(() => (on ? (calls.push('load'), load('y')) : null), [on]), { initialProps: { on: false } });
    expect(result.current).toMatchObject({ data: null, loading: false });
    expect(calls).toEqual([]);
    rerender({ on: true });
    await act(async () => pending.get('y')!.resolve('Y'));
    act(() => result.current.reload());
    expect(calls).toEqual(['load', 'load']);
  });

  it('with a delay, loads once the inputs have stopped changing', async () => {
    vi.useFakeTimers();
    const seen: string[] = [];
    const { result, rerender } = renderHook(({ text }) => useLoad(() => (seen.push(text), Promise.resolve(text.toUpperCase())), [text], { delayMs: 300 }), { initialProps: { text: 'a' } });
    rerender({ text: 'ab' });
    act(() => void vi.advanceTimersByTime(200));
    rerender({ text: 'abc' });
    expect(seen).toEqual([]);
    await act(async () => void (await vi.advanceTimersByTimeAsync(300)));
    expect(seen).toEqual(['abc']);
    expect(result.current.data).toBe('ABC');
  });
});
