// The workspaces the shell knows, keyed by service name. A workspace plugs in with one entry of WORKSPACES: its
// label, slot, screens, keys, and the item links it answers; the sidebar, the `?` overlay, the search box and the
// address-fragment routes (shell/hashRoute.ts) all read it from here.
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import type { ServiceInfo } from '../../../engines/core/contracts/gateway';
import type { ApiClient } from '../api/client';
import type { Shortcut } from '../shell/useShortcuts';

export interface WorkspaceProps {
  readonly service: ServiceInfo;
  readonly client: ApiClient;
}

/** A workspace's screens: a lazy chunk, which the shell can start fetching before it renders it. */
export type WorkspaceScreens = LazyExoticComponent<ComponentType<WorkspaceProps>> & { readonly preload: () => void };

/** The screens a dynamic import gives, fetched once whether preloaded or rendered first. */
export function screens(load: () => Promise<{ default: ComponentType<WorkspaceProps> }>): WorkspaceScreens {
  let pending: Promise<{ default: ComponentType<WorkspaceProps> }> | null = null;
  const once = (): Promise<{ default: ComponentType<WorkspaceProps> }> => (pending ??= load());
  return Object.assign(lazy(once), {
    preload: () => {
      // A failed fetch is left for the render to meet and report (the workspace's error boundary).
      once().catch(() => undefined);
    },
  });
}

/** A workspace's own keys, as the `?` overlay lists them while it is active. */
export interface WorkspaceKeys {
  /** Read from the workspace's code (its onKeyDown handlers and FilterField); `where` says where a key applies. */
  readonly keys: readonly (Shortcut & { readonly where?: string })[];
  /** Said when the workspace binds nothing beyond the global keys. */
  readonly note?: string;
}

/** Item links into a workspace: `#/<word>/<kind>/<id>` in the address and the search box's hits. */
export interface WorkspaceLinks {
  /** Words a link may use for the workspace besides its service name (lower case: links are read case-insensitively). */
  readonly aliases: readonly string[];
  /**
   * Kinds of item the workspace selects by id (it calls useOpenRequest and handles them). Declared here rather than
   * at mount, since workspaces load lazily and the search box must know before the first one mounts. A link to any
   * other kind still opens the workspace, with a note that it cannot select the item.
   */
  readonly opens: readonly string[];
  /** Items inside another: `#/<word>/<parent kind>/<parent id>/<child kind>/<id>`, by parent kind, the child kinds. */
  readonly nested?: Readonly<Record<string, readonly string[]>>;
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
  readonly component?: WorkspaceScreens;
  /** Tied to no service (the Console, under /api/console): shown whenever the gateway answers. */
  readonly standalone?: boolean;
  /** Its own keys for the `?` overlay (an empty list with a note when it binds none). */
  readonly keys: WorkspaceKeys;
  /** The item links it answers; without it, no link names the workspace. */
  readonly links?: WorkspaceLinks;
}

export const WORKSPACES: readonly WorkspaceDef[] = [
  {
    service: 'pkgscan',
    label: 'Packages',
    purpose: 'Admit packages, projects and images',
    slot: 1,
    component: screens(() => import('./packages/PackagesWorkspace')),
    keys: {
      keys: [
        { keys: '← / →, Home / End', does: 'Previous / next section, first / last section', where: 'section tabs' },
        { keys: 'Esc', does: 'Back to the history list from an open verdict', where: 'History' },
        { keys: 'Enter / Space', does: 'Open the advisory of a dot', where: 'Vulnerabilities scatter' },
        { keys: 'Esc', does: 'Cancel the interval edit or the stop-watching question', where: 'Monitoring' },
      ],
    },
    // A scan's verdict (History), a package page (id `ecosystem:name`), a release diff, a project scan (parent: the
    // project), a container scan (packages/common/open.ts).
    links: { aliases: ['packages'], opens: ['scan', 'package', 'diff', 'project-scan', 'container-scan'] },
  },
  {
    service: 'provgate',
    label: 'Lineage',
    purpose: 'Verify build events, trace a CVE to its commit',
    slot: 2,
    component: screens(() => import('./lineage/LineageWorkspace')),
    keys: {
      keys: [
        { keys: '/', does: 'Backtrack field (CVE, finding id or package); Enter backtracks it in the open run' },
        { keys: '↑ / ↓', does: 'Previous / next reason, opening its origin story', where: 'reasons' },
        { keys: 'Enter', does: 'Show the blast radius of a focused layer', where: 'layers' },
        { keys: 'Esc', does: 'Clear the graph highlight' },
        { keys: '+ / −, arrows', does: 'Zoom in / out, pan', where: 'graph toolbar' },
        { keys: 's, 0', does: 'The highlight (or the graph) readable, the whole graph', where: 'graph toolbar' },
        { keys: 'Esc', does: 'Keep the key (cancel a revocation)', where: 'Trusted keys' },
      ],
    },
    // A gate run.
    links: { aliases: ['lineage'], opens: ['run'] },
  },
  {
    service: 'attrib',
    label: 'ACH',
    purpose: 'Weigh hypotheses from reports',
    slot: 3,
    component: screens(() => import('./ach/AchWorkspace')),
    keys: {
      keys: [
        { keys: '← / →', does: 'Switch view', where: 'view tabs' },
        { keys: 'Arrows', does: 'Move between cells (in your matrix, to the row and column names too)', where: 'matrix' },
        { keys: 'C / I / N / A', does: 'Rate the cell consistent, inconsistent, neutral, not applicable (Shift+C, Shift+I: very)', where: 'matrix' },
        { keys: '1 … 6', does: 'Rate the cell CC, C, N, I, II, NA', where: 'matrix' },
        { keys: 'Enter / Space', does: 'Next rating; on a row or column name of your matrix, edit it', where: 'matrix' },
        { keys: 'Delete / Backspace', does: 'Remove the override or your rating (back to the computed one)', where: 'matrix' },
        { keys: 'Ctrl+Enter', does: 'Run your matrix; in its evidence form, add the row', where: 'your matrix' },
        { keys: 'Enter', does: 'Save the reason of an override', where: 'overrides' },
        { keys: 'Ctrl+Enter', does: 'Extract from the report text', where: 'report text' },
      ],
    },
    // A stored matrix by its uuid (TAXII report hits, kind `report`, only open the workspace).
    links: { aliases: ['ach'], opens: ['matrix'] },
  },
  {
    service: 'caseassess',
    label: 'Assessment',
    purpose: 'Rank threat-actor hypotheses for a case',
    slot: 4,
    component: screens(() => import('./assessment/AssessmentWorkspace')),
    keys: {
      keys: [
        { keys: '/', does: 'Filter hypotheses and history' },
        { keys: 'Ctrl+Enter', does: 'Run the assessment', where: 'case editor' },
      ],
    },
    // A stored assessment (History) or a stored case (the editor).
    links: { aliases: ['assessment'], opens: ['assessment', 'case'] },
  },
  {
    service: 'replay',
    label: 'Replay',
    purpose: 'Turn a capture into attack stories',
    slot: 5,
    component: screens(() => import('./replay/ReplayWorkspace')),
    keys: {
      keys: [
        { keys: '/', does: 'Filter stories' },
        { keys: '← / →', does: 'Previous / next step of the timeline', where: 'replay player' },
        { keys: 'Home / End', does: 'First / last step', where: 'replay player' },
        { keys: 'Enter', does: 'Run the demo', where: 'benign flows field' },
        { keys: '← / →', does: 'Previous / next view (Story, Alerts, Flows, Overview)', where: 'view tabs' },
        { keys: 'Enter', does: 'Apply the filters', where: 'alert and flow filter fields' },
      ],
    },
    // An analysis, a story, an alert rule in an analysis (`#/replay/analysis/<id>/alert/<rule>`) shown in the Alerts tab.
    links: { aliases: [], opens: ['analysis', 'story', 'alert'], nested: { analysis: ['alert'] } },
  },
  {
    service: 'forensic',
    label: 'Cases',
    purpose: 'Custody-sealed timelines and incident stories',
    slot: 6,
    component: screens(() => import('./cases/CasesWorkspace')),
    keys: {
      keys: [
        { keys: '/', does: 'Filter timeline events' },
        { keys: 'Ctrl+Enter', does: 'Analyse the paths', where: 'paths field' },
        { keys: '↑ / ↓', does: 'Previous / next story', where: 'stories' },
        { keys: '+ / −, 0', does: 'Zoom in / out, the whole case', where: 'timeline toolbar' },
        { keys: '← / →, s', does: 'Pan earlier / later, zoom to the story', where: 'timeline toolbar' },
        { keys: '↑ / ↓, PageUp / PageDown', does: 'Move the selected event by one / one page', where: 'timeline' },
        { keys: '+ / −, arrows', does: 'Zoom in / out, pan', where: 'graph toolbar' },
        { keys: 's, 0, f, Esc', does: 'The story readable, the whole graph, over the whole window and back', where: 'graph toolbar' },
      ],
    },
    // A case, a story in it, an event in it (`#/forensic/case/<case>/story/<id>`, what Send to… writes).
    links: { aliases: ['cases'], opens: ['case', 'story', 'event'], nested: { case: ['story', 'event'] } },
  },
  {
    service: 'flowdet',
    label: 'Flows',
    purpose: 'Train, attack and explain flow detectors',
    slot: 7,
    component: screens(() => import('./flows/FlowsWorkspace')),
    keys: { keys: [{ keys: 'Ctrl+Enter', does: 'Score the pasted flows', where: 'flows text' }] },
    // Selects nothing by id: a link opens the workspace.
    links: { aliases: ['flows'], opens: [] },
  },
  {
    service: 'petriage',
    label: 'Triage',
    purpose: 'Statically triage executables',
    slot: 8,
    component: screens(() => import('./triage/TriageWorkspace')),
    keys: {
      keys: [
        { keys: '/', does: 'Filter imports, exports and capabilities' },
        { keys: '← / →', does: 'Previous / next result tab', where: 'result tabs' },
        { keys: '↓, Esc', does: 'To the first row, clear the box', where: 'History filter (file name or SHA-256)' },
        { keys: '↑ / ↓, Home / End, Enter', does: 'Move between stored analyses, open one', where: 'History rows' },
      ],
    },
    // A stored analysis (History), or the newest stored analysis of a SHA-256 (`#/petriage/history/<sha256>`).
    links: { aliases: ['triage'], opens: ['analysis', 'history'] },
  },
  {
    service: 'console',
    label: 'Console',
    purpose: "Run the services' command lines (not a shell)",
    slot: 9,
    component: screens(() => import('./console/ConsoleWorkspace')),
    standalone: true,
    keys: {
      keys: [
        { keys: 'Tab', does: 'Complete the command or option' },
        { keys: 'Shift+Tab', does: 'Leave the terminal for the buttons above it' },
        { keys: '↑ / ↓', does: 'Previous / next command of the history' },
        { keys: 'Ctrl+C', does: 'Cancel the running command (with text selected: copy it)' },
        { keys: 'Ctrl+Shift+C / Ctrl+V', does: 'Copy the selection / paste' },
        { keys: 'Ctrl+L', does: 'Clear the screen' },
        { keys: 'Ctrl+A / Ctrl+E, Home / End', does: 'Start / end of the line' },
        { keys: 'Ctrl+← / Ctrl+→, Ctrl+W', does: 'Word left / right, delete the word before the cursor' },
        { keys: 'Ctrl+U / Ctrl+K', does: 'Delete to the start / end of the line' },
      ],
    },
  },
];

/** What the shell asks of the workspace list; built from the entries, never kept beside them. */
export interface WorkspaceIndex {
  workspaceFor(service: string): WorkspaceDef | undefined;
  /** A workspace tied to no service (the Console): selectable whatever services the gateway mounts. */
  isStandaloneWorkspace(name: string): boolean;
  /** The workspaces whose services the gateway mounts, in slot order; unknown services get a generic entry after them. */
  availableWorkspaces(services: readonly ServiceInfo[]): WorkspaceDef[];
  /** The service a link word names (its service name or an alias, any case), when its workspace takes links. */
  linkTarget(word: string): WorkspaceDef | undefined;
  /** Whether the workspace of `service` selects an item of `kind` by id. */
  opensKind(service: string, kind: string): boolean;
  /** The workspace's own keys for the `?` overlay. */
  keysOf(service: string | null): WorkspaceKeys | undefined;
}

export function indexWorkspaces(defs: readonly WorkspaceDef[]): WorkspaceIndex {
  const byService = new Map(defs.map((w) => [w.service, w]));
  const byWord = new Map<string, WorkspaceDef>();
  for (const w of defs) {
    if (w.links === undefined) continue;
    for (const word of [w.service, ...w.links.aliases]) byWord.set(word.toLowerCase(), w);
  }
  return {
    workspaceFor: (service) => byService.get(service),
    isStandaloneWorkspace: (name) => byService.get(name)?.standalone === true,
    availableWorkspaces(services) {
      const known = defs.filter((w) => w.standalone === true || services.some((s) => s.name === w.service));
      const unknown = services
        .filter((s) => !byService.has(s.name))
        .map((s, i): WorkspaceDef => ({ service: s.name, label: s.workspace || s.title || s.name, purpose: s.title, slot: defs.length + 1 + i, keys: { keys: [] } }));
      return [...known, ...unknown];
    },
    linkTarget: (word) => byWord.get(word.toLowerCase()),
    opensKind: (service, kind) => byService.get(service)?.links?.opens.includes(kind) ?? false,
    keysOf: (service) => (service === null ? undefined : byService.get(service)?.keys),
  };
}

export const { workspaceFor, isStandaloneWorkspace, availableWorkspaces, linkTarget, opensKind, keysOf } = indexWorkspaces(WORKSPACES);

/** Starts fetching the screens of `service`'s workspace (the one about to be shown), if it has any. */
export function preloadWorkspace(service: string | null): void {
  if (service !== null) workspaceFor(service)?.component?.preload();
}

/** The service a workspace shows: the gateway's, or for a standalone one its own entry (base: its /api route). */
export function serviceFor(def: WorkspaceDef, services: readonly ServiceInfo[]): ServiceInfo | undefined {
  const found = services.find((s) => s.name === def.service);
  if (found || def.standalone !== true) return found;
  return { name: def.service, title: def.label, workspace: def.label, base: `/api/${def.service}` };
}
