// @vitest-environment jsdom
// The Store tab's empty list says how to fill it, the command set as code (not Markdown backticks shown as text).
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { PkgscanApi } from '../session';
import { StoreTab } from './StoreTab';

afterEach(cleanup);

const EMPTY_STORE = { items: [], total: 0, limit: 100, offset: 0 };

function fakeApi(): PkgscanApi {
  const answer = <T,>(): Promise<T> => Promise.resolve(EMPTY_STORE as T);
  return { get: answer, post: answer, put: answer, patch: answer, del: answer, upload: answer };
}

describe('StoreTab', () => {
  it('says how to fill an empty store, the import command as code', async () => {
    render(<StoreTab api={fakeApi()} canImport={false} />);
    const empty = await screen.findByTestId('store-empty');
    expect(empty.textContent).not.toContain('`');
    expect(empty.textContent).toMatch(/^The store is empty\. Drop npm \.tgz, wheel or sdist archives here, or run pkgscan import FILE\|DIR on this workstation\.$/);
    expect(Array.from(empty.querySelectorAll('code'), (c) => c.textContent)).toEqual(['.tgz', 'pkgscan import FILE|DIR']);
  });
});
