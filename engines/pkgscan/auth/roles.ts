// The role-to-permission matrix: which of the five roles holds each permission group of the spec (counts as the spec's table).
import { PERMISSIONS, ROLES, type Permission, type Role } from '../../core/contracts/pkgscan.js';

export { PERMISSIONS, ROLES, type Permission, type Role };

/** The spec's permission groups, each with the roles that hold it (documented in docs/pkgscan.md). */
export const PERMISSION_GROUPS: readonly { readonly permissions: readonly Permission[]; readonly roles: readonly Role[] }[] = [
  { permissions: ['scan:create', 'project:write', 'container:scan', 'diff:create'], roles: ['admin', 'security_analyst', 'developer'] },
  {
    permissions: ['scan:read', 'policy:read', 'event:read', 'monitor:read', 'ml:read', 'report:read', 'vuln:read'],
    roles: ['admin', 'security_analyst', 'developer', 'auditor', 'read_only'],
  },
  // Not in the spec's table ("not shown"): reading projects goes with reading scans, so every role.
  { permissions: ['project:read'], roles: ['admin', 'security_analyst', 'developer', 'auditor', 'read_only'] },
  { permissions: ['exception:request'], roles: ['admin', 'security_analyst', 'developer'] },
  { permissions: ['exception:approve', 'event:ack', 'monitor:write'], roles: ['admin', 'security_analyst'] },
  { permissions: ['audit:read', 'system:read'], roles: ['admin', 'auditor'] },
  { permissions: ['policy:write', 'user:manage', 'system:write'], roles: ['admin'] },
];

const MATRIX: ReadonlyMap<Role, ReadonlySet<Permission>> = new Map(
  ROLES.map((role) => [role, new Set(PERMISSION_GROUPS.filter((g) => g.roles.includes(role)).flatMap((g) => g.permissions))]),
);

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

export function hasPermission(role: Role, permission: Permission): boolean {
  return MATRIX.get(role)?.has(permission) ?? false;
}

/** The permissions of a role, in the order of PERMISSIONS. */
export function permissionsOf(role: Role): Permission[] {
  return PERMISSIONS.filter((p) => hasPermission(role, p));
}
