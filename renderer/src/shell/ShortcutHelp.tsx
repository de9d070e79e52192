// The `?` overlay: every keyboard shortcut, closable with Esc; focus returns where it was.
import { useEffect, useRef } from 'react';
import { useShell } from './context';
import { SHORTCUTS } from './useShortcuts';

export function ShortcutHelp() {
  const open = useShell((s) => s.overlay === 'help');
  const close = useShell((s) => s.closeOverlay);
  const panel = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return undefined;
    const before = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    panel.current?.focus();
    return () => before?.focus();
  }, [open]);
  if (!open) return null;
  return (
    <div className="overlay" onMouseDown={(e) => e.target === e.currentTarget && close()}>
      <div className="overlay__panel" role="dialog" aria-modal="true" aria-labelledby="shortcuts-title" tabIndex={-1} ref={panel} data-testid="shortcut-help">
        <div className="overlay__head">
          <h2 id="shortcuts-title">Keyboard shortcuts</h2>
          <button type="button" className="small" onClick={close}>
            Close (Esc)
          </button>
        </div>
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
      </div>
    </div>
  );
}
