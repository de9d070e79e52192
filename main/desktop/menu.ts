// The desktop menu as plain data (File/Edit/View/Window/Help); main/app.ts builds it with Electron's Menu.

/** The Electron menu roles used here (a subset of Electron's union, so the template type-checks against it). */
export type MenuRole =
  | 'appMenu'
  | 'quit'
  | 'close'
  | 'undo'
  | 'redo'
  | 'cut'
  | 'copy'
  | 'paste'
  | 'selectAll'
  | 'reload'
  | 'forceReload'
  | 'toggleDevTools'
  | 'resetZoom'
  | 'zoomIn'
  | 'zoomOut'
  | 'togglefullscreen'
  | 'minimize'
  | 'zoom'
  | 'front'
  | 'about';

export interface MenuItem {
  readonly label?: string;
  readonly role?: MenuRole;
  readonly type?: 'separator';
  readonly accelerator?: string;
  readonly click?: () => void;
  readonly submenu?: MenuItem[];
}

export interface MenuActions {
  /** Opens the data directory (store, token) in the file manager. */
  showDataFolder(): void;
  /** Shows version and where things are. */
  about(): void;
}

const separator: MenuItem = { type: 'separator' };

export function menuTemplate(platform: NodeJS.Platform, isPackaged: boolean, actions: MenuActions): MenuItem[] {
  const mac = platform === 'darwin';
  const view: MenuItem[] = [{ role: 'reload' }, { role: 'forceReload' }];
  // Developer tools would let anyone at the keyboard read the token from memory; builds for analysts leave them out.
  if (!isPackaged) view.push({ role: 'toggleDevTools' });
  view.push(separator, { role: 'resetZoom' }, { role: 'zoomIn' }, { role: 'zoomOut' }, separator, { role: 'togglefullscreen' });
  return [
    ...(mac ? [{ role: 'appMenu' } satisfies MenuItem] : []),
    {
      label: 'File',
      submenu: [
        { label: 'Show Data Folder', click: () => actions.showDataFolder() },
        separator,
        mac ? { role: 'close' } : { role: 'quit' },
      ],
    },
    {
      label: 'Edit',
      submenu: [{ role: 'undo' }, { role: 'redo' }, separator, { role: 'cut' }, { role: 'copy' }, { role: 'paste' }, { role: 'selectAll' }],
    },
    { label: 'View', submenu: view },
    {
      label: 'Window',
      submenu: mac ? [{ role: 'minimize' }, { role: 'zoom' }, separator, { role: 'front' }] : [{ role: 'minimize' }, { role: 'close' }],
    },
    { label: 'Help', submenu: [{ label: 'About Vitrine', click: () => actions.about() }] },
  ];
}
