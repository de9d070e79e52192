// The Users tab: filter users by role, active flag and e-mail; change a role or deactivate; register a user.
import { useState, type FormEvent } from 'react';
import type { Me, PageOf, Role, User } from '../../../../../engines/core/contracts/pkgscan';
import { ErrorNote } from '../../../components/ErrorNote';
import { useLoad } from '../../../components/useLoad';
import { useAction } from '../common/hooks';
import { PAGE, when } from '../common/format';
import type { PkgscanApi } from '../session';
import { counted } from '../../../components/wording';
import { FilterSelect } from '../common/ui';

const ROLE_NAMES: readonly Role[] = ['admin', 'security_analyst', 'developer', 'auditor', 'read_only'];

export function UsersTab({ api, me }: { api: PkgscanApi; me: Me }) {
  const [role, setRole] = useState('');
  const [active, setActive] = useState('');
  const [email, setEmail] = useState('');
  const action = useAction();
  const users = useLoad(
    () => api.get<PageOf<User>>('/users', { role: role || undefined, active: active || undefined, email: email.trim() || undefined, limit: PAGE }),
    [api, role, active, email],
  );
  const [newEmail, setNewEmail] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const [newRole, setNewRole] = useState<Role>('read_only');

  const patch = async (id: string, body: { role?: Role; active?: boolean }): Promise<void> => {
    await action.run(async () => {
      await api.patch(`/users/${id}`, body);
      users.reload();
    });
  };
  const register = async (e: FormEvent): Promise<void> => {
    e.preventDefault();
    await action.run(async () => {
      await api.post('/auth/register', { email: newEmail.trim(), password: newPassword, role: newRole });
      setNewEmail('');
      setNewPassword('');
      users.reload();
    });
  };

  return (
    <div className="packages__cols">
      <div className="panel">
        <div className="packages__filters">
          <h2>Users</h2>
          <FilterSelect label="Filter by role" value={role} onChange={setRole} any="any role" options={ROLE_NAMES} />
          <FilterSelect label="Filter by active flag" value={active} onChange={setActive} any="active or not" options={[['true', 'active'], ['false', 'deactivated']]} />
          <input aria-label="E-mail contains" placeholder="e-mail contains" value={email} onChange={(e) => setEmail(e.target.value)} maxLength={254} />
        </div>
        {users.error && <ErrorNote error={users.error} />}
        {action.error && <ErrorNote error={action.error} title="The change was refused" />}
        <table className="packages__table">
          <thead>
            <tr>
              <th>E-mail</th>
              <th>Role</th>
              <th>Active</th>
              <th>Created</th>
            </tr>
          </thead>
          <tbody>
            {(users.data?.items ?? []).map((u) => (
              <tr key={u.id} data-testid="user-row">
                <td>
                  {u.email}
                  {u.id === me.id && <span className="muted"> (you)</span>}
                </td>
                <td>
                  <select aria-label={`Role of ${u.email}`} value={u.role} onChange={(e) => void patch(u.id, { role: e.target.value as Role })}>
                    {ROLE_NAMES.map((r) => (
                      <option key={r}>{r}</option>
                    ))}
                  </select>
                </td>
                <td>
                  <label>
                    <input type="checkbox" checked={u.active} onChange={(e) => void patch(u.id, { active: e.target.checked })} /> {u.active ? 'active' : 'deactivated'}
                  </label>
                </td>
                <td className="muted">{when(u.created_at)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <div className="muted small">{users.data ? counted(users.data.total, 'user') : ''}</div>
      </div>
      <form className="panel packages__form" onSubmit={(e) => void register(e)} aria-label="Register a user">
        <h2>Register a user</h2>
        <label>
          E-mail
          <input type="email" value={newEmail} onChange={(e) => setNewEmail(e.target.value)} required maxLength={254} />
        </label>
        <label>
          Password (at least 12 characters)
          <input type="password" autoComplete="new-password" value={newPassword} onChange={(e) => setNewPassword(e.target.value)} required minLength={12} maxLength={1024} />
        </label>
        <label>
          Role
          <select value={newRole} onChange={(e) => setNewRole(e.target.value as Role)}>
            {ROLE_NAMES.map((r) => (
              <option key={r}>{r}</option>
            ))}
          </select>
        </label>
        <button type="submit" className="primary">
          Register
        </button>
      </form>
    </div>
  );
}
