// The Replay workspace on its own, for `replay serve` (renderer/src/main.tsx mounts it when the page carries
// <meta name="vitrine-standalone" content="replay">): captures in, attack stories out, against the service's own routes at the root.
import { mountWorkspaceAlone } from '../../shell/standalone';
import ReplayWorkspace from './ReplayWorkspace';

export function mountStandalone(root: HTMLElement): void {
  mountWorkspaceAlone(root, { title: 'Vitrine · Replay', service: { name: 'replay', title: 'Capture replay', workspace: 'Replay', base: '' }, Workspace: ReplayWorkspace });
}
