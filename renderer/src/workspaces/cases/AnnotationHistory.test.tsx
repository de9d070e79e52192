// @vitest-environment jsdom
// The versions of an event's annotation under its tags and note: collapsed to "N versions", opened newest first with what each changed, read page by page; a cleared annotation still offers its versions.
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../api/client';
import { AnnotationHistoryList, HISTORY_PAGE } from './AnnotationHistory';
import type { AnnotationHistory, AnnotationVersion } from './types';

afterEach(cleanup);

const EVENT = '0123456789abcdef';
const hash = (n: number): string => n.toString(16).padStart(64, '0');

function version(n: number, tags: string[], note: string): AnnotationVersion {
  return { version: n, tags, note, at: `2026-12-02T10:0${n % 10}:00Z`, actor: 'analyst (forensic 1.0.0)', seq: n * 2, hash: hash(n * 2), prevHash: hash(n * 2 - 1) };
}

/** A client holding `all` (oldest first) as the service pages them; it records each path read. */
function fakeClient(all: AnnotationVersion[], ok = true): { client: ApiClient; reads: string[] } {
  const reads: string[] = [];
  const get = <T,>(path: string): Promise<T> => {
    reads.push(path);
    const u = new URL(path, 'http://x');
    expect(u.pathname).toBe(`/svc/forensic/api/cases/c1/annotations/${EVENT}`);
    const limit = Number(u.searchParams.get('limit'));
    const offset = Number(u.searchParams.get('offset') ?? 0);
    expect(u.searchParams.get('order')).toBe('newest');
    const newest = [...all].reverse();
    const answer: AnnotationHistory = { eventId: EVENT, order: 'newest', items: newest.slice(offset, offset + limit), total: all.length, limit, offset, verification: { ok, count: all.length * 2, head: hash(0) } };
    return Promise.resolve(answer as T);
  };
  const no = (): Promise<never> => Promise.reject(new Error('not used'));
  return { client: { apiBase: 'http://x', get, post: no, put: no, patch: no, delete: no, open: no, upload: no }, reads };
}

const THREE = [version(1, ['lateral', 'T1021'], 'first look at the host'), version(2, ['lateral', 'confirmed'], 'first look at the host, checked with its owner'), version(3, [], '')];

async function settle(): Promise<void> {
  await act(async () => {
    await new Promise((r) => setTimeout(r, 0));
  });
}

function show(client: ApiClient, versions: number | null) {
  return render(<AnnotationHistoryList client={client} base="/svc/forensic" caseId="c1" eventId={EVENT} versions={versions} />);
}

describe('AnnotationHistoryList', () => {
  it('offers nothing for one version (the editor shows it) and reads nothing', async () => {
    const { client, reads } = fakeClient(THREE.slice(0, 1));
    const { container } = show(client, 1);
    await settle();
    expect(container.textContent).toBe('');
    expect(reads).toEqual([]);
  });

  it('is collapsed to "3 versions" by a focusable button, and opened lists them newest first with what each changed', async () => {
    const { client, reads } = fakeClient(THREE);
    show(client, 3);
    const toggle = screen.getByTestId('annotation-history-toggle');
    expect(toggle.tagName).toBe('BUTTON');
    expect(toggle.textContent).toContain('3 versions');
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryAllByTestId('annotation-version')).toHaveLength(0);
    expect(reads).toEqual([]);
    toggle.focus();
    expect(document.activeElement).toBe(toggle);
    fireEvent.click(toggle);
    await settle();
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    expect(document.getElementById(toggle.getAttribute('aria-controls') ?? '')?.hidden).toBe(false);
    expect(reads).toEqual([`/svc/forensic/api/cases/c1/annotations/${EVENT}?order=newest&limit=${HISTORY_PAGE + 1}&offset=0`]);
    const items = screen.getAllByTestId('annotation-version');
    expect(items.map((li) => li.dataset['version'])).toEqual(['3', '2', '1']);
    const [v3, v2, v1] = items as [HTMLElement, HTMLElement, HTMLElement];
    expect(v3.textContent).toContain('Version 3 (current)');
    expect(v3.textContent).toContain('Cleared: no tag and no note');
    expect(v3.textContent).toContain('2026-12-02 10:03:00 UTC');
    expect(v3.textContent).toContain('record 6, hash 000000000000…');
    expect(within(v2).getByText('Tags added:').querySelector('.annotation-tag--added')?.textContent).toBe('confirmed');
    expect(within(v2).getByText('Tags removed:').querySelector('.annotation-tag--removed')?.textContent).toBe('T1021');
    const diff = within(v2).getByTestId('annotation-note-diff');
    expect([...diff.querySelectorAll('ins')].map((e) => e.textContent)).toEqual([', checked with its owner']);
    expect(diff.querySelectorAll('del')).toHaveLength(0);
    expect(v1.textContent).toContain('First annotation: tags lateralT1021');
    expect(v1.textContent).toContain('first look at the host');
    // Closed again, nothing is read again.
    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(toggle);
    expect(reads).toHaveLength(1);
  });

  it('reads a long history page by page, each shown version with what it changed', async () => {
    const all = Array.from({ length: HISTORY_PAGE + 5 }, (_, i) => version(i + 1, [`t${i + 1}`], `note ${i + 1}`));
    const { client, reads } = fakeClient(all);
    show(client, all.length);
    fireEvent.click(screen.getByTestId('annotation-history-toggle'));
    await settle();
    expect(screen.getAllByTestId('annotation-version')).toHaveLength(HISTORY_PAGE);
    // The oldest shown one (version 6) knows its change from version 5, read as the page's extra version.
    const oldest = screen.getAllByTestId('annotation-version').at(-1) as HTMLElement;
    expect(oldest.dataset['version']).toBe('6');
    expect(oldest.textContent).toContain('Tags removed: t5');
    fireEvent.click(screen.getByTestId('annotation-history-more'));
    await settle();
    expect(reads[1]).toBe(`/svc/forensic/api/cases/c1/annotations/${EVENT}?order=newest&limit=${HISTORY_PAGE}&offset=${HISTORY_PAGE + 1}`);
    expect(screen.getAllByTestId('annotation-version').map((li) => li.dataset['version'])).toEqual(all.map((v) => String(v.version)).reverse());
    expect(screen.queryByTestId('annotation-history-more')).toBeNull();
  });

  it('an event whose annotation was cleared asks how many versions it had and offers them; one never annotated shows nothing', async () => {
    const { client } = fakeClient(THREE);
    show(client, null);
    await settle();
    expect(screen.getByTestId('annotation-history-toggle').textContent).toContain('3 versions (cleared)');
    cleanup();
    const none = fakeClient([]);
    const { container } = show(none.client, null);
    await settle();
    expect(none.reads).toHaveLength(1);
    expect(container.textContent).toBe('');
  });

  it('says so when the annotation ledger does not verify', async () => {
    show(fakeClient(THREE, false).client, 3);
    fireEvent.click(screen.getByTestId('annotation-history-toggle'));
    await settle();
    expect(screen.getByRole('alert').textContent).toContain('does not verify');
  });
});
