// The Packages workspace's sections, in the order the tab bar shows them: a new section is one entry here (its id,
// label, the permission that shows it, and what it draws). The tab bar, the fallback to the account page and the
// nav store's `Tab` type are all read from this list.
import type { ReactNode } from 'react';
import type { Me, Permission } from '../../../../engines/core/contracts/pkgscan';
import { AuditTab } from './audit/AuditTab';
import { ContainersTab } from './containers/ContainersTab';
import { DiffsTab } from './diffs/DiffsTab';
import { EventsTab } from './events/EventsTab';
import { ExceptionsTab } from './exceptions/ExceptionsTab';
import { HistoryTab } from './history/HistoryTab';
import { MonitoringTab } from './monitoring/MonitoringTab';
import { PackageTab } from './package/PackageTab';
import { PoliciesTab } from './policies/PoliciesTab';
import { ProjectsTab } from './projects/ProjectsTab';
import { ScanTab } from './scan/ScanTab';
import { can, type PkgscanApi } from './session';
import { StoreTab } from './store/StoreTab';
import { UsersTab } from './users/UsersTab';
import { VulnsTab } from './vulns/VulnsTab';

/** What a section is drawn with: the signed-in user and the service's API. */
export interface TabContext {
  readonly api: PkgscanApi;
  readonly me: Me;
  /** Whether the signed-in user holds `permission` (for the controls inside a section). */
  readonly can: (permission: Permission) => boolean;
}

export interface PackagesTab {
  /** The nav store's name for it (`usePackagesNav().tab`), and its element id `pk-tab-<id>`. */
  readonly id: string;
  readonly label: string;
  /** Shown to a user holding this permission (any one of a list); null: to every signed-in user. */
  readonly permission: Permission | readonly Permission[] | null;
  readonly render: (ctx: TabContext) => ReactNode;
}

function Account({ me }: { readonly me: Me }) {
  return (
    <div className="panel">
      <h2>Signed in</h2>
      <dl className="packages__facts">
        <dt>E-mail</dt>
        <dd>{me.email}</dd>
        <dt>Role</dt>
        <dd>{me.role}</dd>
        <dt>User id</dt>
        <dd className="selectable">{me.id}</dd>
        <dt>Permissions</dt>
        <dd>
          {me.permissions.map((p) => (
            <code key={p} className="packages__perm">
              {p}
            </code>
          ))}
        </dd>
      </dl>
    </div>
  );
}

export const PACKAGES_TABS = [
  { id: 'me', label: 'Account', permission: null, render: ({ me }) => <Account me={me} /> },
  { id: 'scan', label: 'Scan', permission: 'scan:create', render: ({ api }) => <ScanTab api={api} /> },
  { id: 'history', label: 'History', permission: 'scan:read', render: ({ api }) => <HistoryTab api={api} /> },
  { id: 'package', label: 'Package', permission: 'scan:read', render: ({ api }) => <PackageTab api={api} /> },
  { id: 'store', label: 'Store', permission: 'scan:read', render: ({ api, can }) => <StoreTab api={api} canImport={can('scan:create')} /> },
  { id: 'vulns', label: 'Vulnerabilities', permission: 'vuln:read', render: ({ api, can }) => <VulnsTab api={api} canImport={can('system:write')} /> },
  { id: 'projects', label: 'Projects', permission: 'project:read', render: ({ api, can }) => <ProjectsTab api={api} canWrite={can('project:write')} /> },
  {
    id: 'containers',
    label: 'Containers',
    permission: ['scan:read', 'container:scan'],
    render: ({ api, can }) => <ContainersTab api={api} canScan={can('container:scan')} canRead={can('scan:read')} />,
  },
  { id: 'diffs', label: 'Release diffs', permission: 'scan:read', render: ({ api, can }) => <DiffsTab api={api} canCreate={can('diff:create')} /> },
  {
    id: 'monitoring',
    label: 'Monitoring',
    permission: 'monitor:read',
    render: ({ api, can }) => <MonitoringTab api={api} canWrite={can('monitor:write')} canReadEvents={can('event:read')} />,
  },
  { id: 'users', label: 'Users', permission: 'user:manage', render: ({ api, me }) => <UsersTab api={api} me={me} /> },
  { id: 'policies', label: 'Policies', permission: 'policy:read', render: ({ api, me }) => <PoliciesTab api={api} me={me} /> },
  { id: 'exceptions', label: 'Exceptions', permission: 'policy:read', render: ({ api, me }) => <ExceptionsTab api={api} me={me} /> },
  { id: 'events', label: 'Events', permission: 'event:read', render: ({ api, me }) => <EventsTab api={api} me={me} /> },
  { id: 'audit', label: 'Audit', permission: 'audit:read', render: ({ api }) => <AuditTab api={api} /> },
] as const satisfies readonly PackagesTab[];

/** A section's id, as the nav store holds it. */
export type Tab = (typeof PACKAGES_TABS)[number]['id'];

/** Whether `me` may see the section. */
export function mayShow(tab: Pick<PackagesTab, 'permission'>, me: Me | null): boolean {
  if (me === null) return false;
  if (tab.permission === null) return true;
  const any: readonly Permission[] = typeof tab.permission === 'string' ? [tab.permission] : tab.permission;
  return any.some((p) => can(me, p));
}

/** The sections `me` may see, in tab-bar order. */
export function shownTabs<T extends Pick<PackagesTab, 'permission'>>(tabs: readonly T[], me: Me | null): T[] {
  return tabs.filter((t) => mayShow(t, me));
}
