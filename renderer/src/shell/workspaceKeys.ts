// Each workspace's own keys, as the `?` overlay lists them for the active workspace. Read from the workspaces' code
// (their onKeyDown handlers and FilterField); a workspace that binds a new key adds it here. Keyed by service name.
import type { Shortcut } from './useShortcuts';

export interface WorkspaceKeys {
  /** Where the keys apply, in a few words. */
  readonly keys: readonly (Shortcut & { readonly where?: string })[];
  /** Said when the workspace binds nothing beyond the global keys. */
  readonly note?: string;
}

export const WORKSPACE_KEYS: Readonly<Record<string, WorkspaceKeys>> = {
  pkgscan: {
    keys: [
      { keys: '← / →, Home / End', does: 'Previous / next section, first / last section', where: 'section tabs' },
      { keys: 'Esc', does: 'Back to the history list from an open verdict', where: 'History' },
      { keys: 'Enter / Space', does: 'Open the advisory of a dot', where: 'Vulnerabilities scatter' },
      { keys: 'Esc', does: 'Cancel the interval edit or the stop-watching question', where: 'Monitoring' },
    ],
  },
  provgate: {
    keys: [
      { keys: '/', does: 'Backtrack field (CVE, finding id or package); Enter backtracks it in the open run' },
      { keys: '↑ / ↓', does: 'Previous / next reason, opening its origin story', where: 'reasons' },
      { keys: 'Enter', does: 'Show the blast radius of a focused layer', where: 'layers' },
      { keys: 'Esc', does: 'Clear the graph highlight' },
      { keys: 'Esc', does: 'Keep the key (cancel a revocation)', where: 'Trusted keys' },
    ],
  },
  attrib: {
    keys: [
      { keys: '← / →', does: 'Switch view', where: 'view tabs' },
      { keys: 'Arrows', does: 'Move between cells', where: 'matrix' },
      { keys: '1 … 6', does: 'Rate the cell CC, C, N, I, II, NA', where: 'matrix' },
      { keys: 'Enter / Space', does: 'Next rating', where: 'matrix' },
      { keys: 'Delete / Backspace', does: 'Remove the override (back to the computed rating)', where: 'matrix' },
      { keys: 'Enter', does: 'Save the reason of an override', where: 'overrides' },
      { keys: 'Ctrl+Enter', does: 'Extract from the report text', where: 'report text' },
    ],
  },
  caseassess: {
    keys: [
      { keys: '/', does: 'Filter hypotheses and history' },
      { keys: 'Ctrl+Enter', does: 'Run the assessment', where: 'case editor' },
    ],
  },
  replay: {
    keys: [
      { keys: '/', does: 'Filter stories' },
      { keys: '← / →', does: 'Previous / next step of the timeline', where: 'replay player' },
      { keys: 'Home / End', does: 'First / last step', where: 'replay player' },
      { keys: 'Enter', does: 'Run the demo', where: 'benign flows field' },
      { keys: '← / →', does: 'Previous / next view (Story, Alerts, Flows, Overview)', where: 'view tabs' },
      { keys: 'Enter', does: 'Apply the filters', where: 'alert and flow filter fields' },
    ],
  },
  forensic: {
    keys: [
      { keys: '/', does: 'Filter timeline events' },
      { keys: 'Ctrl+Enter', does: 'Analyse the paths', where: 'paths field' },
      { keys: '↑ / ↓', does: 'Previous / next story', where: 'stories' },
      { keys: '+ / −, 0', does: 'Zoom in / out, the whole case', where: 'timeline toolbar' },
      { keys: '← / →, s', does: 'Pan earlier / later, zoom to the story', where: 'timeline toolbar' },
      { keys: '↑ / ↓, PageUp / PageDown', does: 'Move the selected event by one / one page', where: 'timeline' },
    ],
  },
  flowdet: {
    keys: [],
    note: 'No keys of its own: Tab through the controls; drop a CSV of flows on the Score panel.',
  },
  petriage: {
    keys: [{ keys: '/', does: 'Filter imports, exports and capabilities' }],
  },
  console: {
    keys: [
      { keys: 'Tab', does: 'Complete the command or option' },
      { keys: '↑ / ↓', does: 'Previous / next command of the history' },
      { keys: 'Ctrl+C', does: 'Cancel the running command (with text selected: copy it)' },
      { keys: 'Ctrl+Shift+C / Ctrl+V', does: 'Copy the selection / paste' },
      { keys: 'Ctrl+L', does: 'Clear the screen' },
      { keys: 'Ctrl+A / Ctrl+E, Home / End', does: 'Start / end of the line' },
      { keys: 'Ctrl+← / Ctrl+→, Ctrl+W', does: 'Word left / right, delete the word before the cursor' },
      { keys: 'Ctrl+U / Ctrl+K', does: 'Delete to the start / end of the line' },
    ],
  },
};

export function keysOf(service: string | null): WorkspaceKeys | undefined {
  return service === null ? undefined : WORKSPACE_KEYS[service];
}
