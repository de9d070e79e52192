// The first workspace's screens start loading while the page is still starting: its chunk (and the libraries it
// imports) is on the way before the shell has connected, rather than requested once the first render asks for it.
import type { GatewayHealth } from '../../../engines/core/contracts/gateway';
import type { ApiClient } from '../api/client';
import { workspaceToShow } from '../store';
import { preloadWorkspace } from '../workspaces/registry';

/**
 * Preloads the workspace chosen last time (`remembered`) at once, and the one the shell will show once the health
 * answer (which needs no token and lists the services) says which services are mounted. A failed health request is
 * left to the shell's connection to report.
 */
export function preloadFirstWorkspace(client: ApiClient | undefined, remembered: string | null): void {
  preloadWorkspace(remembered);
  if (client === undefined) return;
  client.get<GatewayHealth>('/api/health').then(
    (h) => preloadWorkspace(workspaceToShow(remembered, Array.isArray(h.services) ? h.services : [])),
    () => undefined,
  );
}
