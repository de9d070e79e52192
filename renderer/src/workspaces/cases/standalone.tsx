// The Cases workspace on its own, for `forensic serve` (renderer/src/main.tsx mounts it when the page carries
// <meta name="vitrine-standalone" content="forensic">): timelines and causal graphs against the service's own routes at the root.
import { mountWorkspaceAlone } from '../../shell/standalone';
import CasesWorkspace from './CasesWorkspace';

export function mountStandalone(root: HTMLElement): void {
  mountWorkspaceAlone(root, { title: 'Vitrine · Cases', service: { name: 'forensic', title: 'Forensic timeline', workspace: 'Cases', base: '' }, Workspace: CasesWorkspace });
}
