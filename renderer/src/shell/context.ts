// React access to the shell store and the API client.
import { createContext, useContext } from 'react';
import { useStore } from 'zustand';
import type { StoreApi } from 'zustand/vanilla';
import type { ApiClient } from '../api/client';
import type { ShellState } from '../store';

export interface ShellContextValue {
  readonly store: StoreApi<ShellState>;
  readonly client: ApiClient | null;
  /** Re-checks the gateway now. */
  readonly retry: () => void;
}

export const ShellContext = createContext<ShellContextValue | null>(null);

export function useShellContext(): ShellContextValue {
  const v = useContext(ShellContext);
  if (!v) throw new Error('ShellContext missing');
  return v;
}

export function useShell<T>(selector: (s: ShellState) => T): T {
  return useStore(useShellContext().store, selector);
}
