// The workspaces the shell knows, keyed by service name: a new service's workspace plugs in with one entry here.
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import type { ServiceInfo } from '../../../engines/core/contracts/gateway';
import type { ApiClient } from '../api/client';

export interface WorkspaceProps {
  readonly service: ServiceInfo;
  readonly client: ApiClient;
}

export interface WorkspaceDef {
  /** The service whose presence in /api/services makes the workspace appear. */
  readonly service: string;
  /** Sidebar label. */
  readonly label: string;
  /** One line under the label: what an analyst does there. */
  readonly purpose: string;
  /** Alt/Ctrl + this digit selects it; fixed so muscle memory survives services coming and going. */
  readonly slot: number;
  /** Its screens; undefined while only the service has landed (the shell shows a generic page). */
  readonly component?: LazyExoticComponent<ComponentType<WorkspaceProps>>;
  /** Tied to no service (the Console, under /api/console): shown whenever the gateway answers. */
  readonly standalone?: boolean;
}

export const WORKSPACES: readonly WorkspaceDef[] = [
  {
    service: 'pkgscan',
    label: 'Packages',
    purpose: 'Admit packages, projects and images',
    slot: 1,
    component: lazy(() => import('./packages/PackagesWorkspace')),
  },
  {
    service: 'provgate',
    label: 'Lineage',
    purpose: 'Verify build events, trace a CVE to its commit',
    slot: 2,
    component: lazy(() => import('./lineage/LineageWorkspace')),
  },
  { service: 'attrib', label: 'ACH', purpose: 'Weigh hypotheses from reports', slot: 3, component: lazy(() => import('./ach/AchWorkspace')) },
  {
    service: 'caseassess',
    label: 'Assessment',
    purpose: 'Rank threat-actor hypotheses for a case',
    slot: 4,
    component: lazy(() => import('./assessment/AssessmentWorkspace')),
  },
  {
    service: 'replay',
    label: 'Replay',
    purpose: 'Turn a capture into attack stories',
    slot: 5,
    component: lazy(() => import('./replay/ReplayWorkspace')),
  },
  {
    service: 'forensic',
    label: 'Cases',
    purpose: 'Custody-sealed timelines and incident stories',
    slot: 6,
    component: lazy(() => import('./cases/CasesWorkspace')),
  },
  { service: 'flowdet', label: 'Flows', purpose: 'Train, attack and explain flow detectors', slot: 7, component: lazy(() => import('./flows/FlowsWorkspace')) },
  {
    service: 'petriage',
    label: 'Triage',
    purpose: 'Statically triage executables',
    slot: 8,
    component: lazy(() => import('./triage/TriageWorkspace')),
  },
  {
    service: 'console',
    label: 'Console',
    purpose: "Run the services' command lines (not a shell)",
    slot: 9,
    component: lazy(() => import('./console/ConsoleWorkspace')),
    standalone: true,
  },
];

const BY_SERVICE = new Map(WORKSPACES.map((w) => [w.service, w]));

export function workspaceFor(service: string): WorkspaceDef | undefined {
  return BY_SERVICE.get(service);
}

/** A workspace tied to no service (the Console): selectable whatever services the gateway mounts. */
export function isStandaloneWorkspace(name: string): boolean {
  return BY_SERVICE.get(name)?.standalone === true;
}

/** The service a workspace shows: the gateway's, or for a standalone one its own entry (base: its /api route). */
export function serviceFor(def: WorkspaceDef, services: readonly ServiceInfo[]): ServiceInfo | undefined {
  const found = services.find((s) => s.name === def.service);
  if (found || def.standalone !== true) return found;
  return { name: def.service, title: def.label, workspace: def.label, base: `/api/${def.service}` };
}

/** The workspaces whose services the gateway mounts, in slot order; unknown services get a generic entry after them. */
export function availableWorkspaces(services: readonly ServiceInfo[]): WorkspaceDef[] {
  const known = WORKSPACES.filter((w) => w.standalone === true || services.some((s) => s.name === w.service));
  const unknown = services
    .filter((s) => !BY_SERVICE.has(s.name))
    .map((s, i): WorkspaceDef => ({ service: s.name, label: s.workspace || s.title || s.name, purpose: s.title, slot: WORKSPACES.length + 1 + i }));
  return [...known, ...unknown];
}
