// The `?` overlay (a Modal): the global shortcuts, then the active workspace's own keys (its `keys` in workspaces/registry.ts);
// Esc closes it and focus returns where it was.
import { Modal } from '../components/Modal';
import { availableWorkspaces, keysOf } from '../workspaces/registry';
import { useShell } from './context';
import { SHORTCUTS } from './useShortcuts';

export function ShortcutHelp() {
  const open = useShell((s) => s.overlay === 'help');
  const close = useShell((s) => s.closeOverlay);
  const active = useShell((s) => s.active);
  const services = useShell((s) => s.services);
  if (!open) return null;
  const ws = availableWorkspaces(services).find((w) => w.service === active);
  const own = keysOf(active);
  return (
    <Modal title="Keyboard shortcuts" onClose={close} testId="shortcut-help">
      <h3 className="shortcuts__group">Everywhere</h3>
      <table className="shortcuts">
        <tbody>
          {SHORTCUTS.map((s) => (
            <tr key={s.keys}>
              <th scope="row">
                <kbd>{s.keys}</kbd>
              </th>
              <td>{s.does}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {ws && (
        <section aria-labelledby="shortcuts-ws" data-testid="workspace-keys" data-workspace-keys={ws.service}>
          <h3 className="shortcuts__group" id="shortcuts-ws">
            In {ws.label}
          </h3>
          {own === undefined || own.keys.length === 0 ? (
            <p className="muted">{own?.note ?? 'No keys of its own beyond the ones above.'}</p>
          ) : (
            <table className="shortcuts">
              <tbody>
                {own.keys.map((s, i) => (
                  <tr key={`${s.keys}-${i}`}>
                    <th scope="row">
                      <kbd>{s.keys}</kbd>
                    </th>
                    <td>
                      {s.does}
                      {s.where !== undefined && <span className="muted"> ({s.where})</span>}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </section>
      )}
    </Modal>
  );
}
