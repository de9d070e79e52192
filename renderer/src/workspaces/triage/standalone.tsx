// The Triage workspace on its own, for `petriage serve` (renderer/src/main.tsx mounts it when the page carries
// <meta name="vitrine-standalone" content="petriage">); the shell part is shell/standalone.tsx.
import { mountWorkspaceAlone } from '../../shell/standalone';
import TriageWorkspace from './TriageWorkspace';

export function mountStandalone(root: HTMLElement): void {
  mountWorkspaceAlone(root, { title: 'Vitrine · Triage', service: { name: 'petriage', title: 'Executable triage', workspace: 'Triage', base: '' }, Workspace: TriageWorkspace });
}
