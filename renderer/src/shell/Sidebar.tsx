// The workspace list: one button per mounted service, with its Alt+digit shortcut.
import { availableWorkspaces } from '../workspaces/registry';
import { useShell } from './context';
import './shell.css';
import { GlobalSearch } from './Search';

export function Sidebar() {
  const services = useShell((s) => s.services);
  const active = useShell((s) => s.active);
  const select = useShell((s) => s.select);
  const openOverlay = useShell((s) => s.openOverlay);
  const list = availableWorkspaces(services);
  return (
    <nav className="sidebar" aria-label="Workspaces">
      <div className="brand">
        <span className="brand__mark" aria-hidden="true" />
        Vitrine
      </div>
      <GlobalSearch />
      {list.length === 0 ? (
        <p className="sidebar__empty">Workspaces appear here as the gateway mounts their services.</p>
      ) : (
        <ul className="stack-list">
          {list.map((w) => (
            <li key={w.service}>
              <button
                type="button"
                className={`ws-item${w.service === active ? ' ws-item--active' : ''}`}
                aria-current={w.service === active ? 'page' : undefined}
                onClick={() => select(w.service)}
                title={`${w.purpose} (Alt+${w.slot})`}
                data-workspace={w.service}
              >
                <span className="ws-item__label">{w.label}</span>
                {w.slot <= 9 && <kbd className="ws-item__key">{w.slot}</kbd>}
              </button>
            </li>
          ))}
        </ul>
      )}
      <button type="button" className="ws-item sidebar__settings" onClick={() => openOverlay('settings')} title="Data folder, evidence root, sources, keys, theme (Ctrl+,)" data-testid="open-settings">
        <span className="ws-item__label">Settings</span>
        <kbd className="ws-item__key">Ctrl+,</kbd>
      </button>
    </nav>
  );
}
