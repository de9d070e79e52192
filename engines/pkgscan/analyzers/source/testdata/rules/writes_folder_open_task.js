// fixture: install-time
// A settings preset whose postinstall writes a task VS Code runs when the project is opened (critical at install).
const fs = require('fs');
const path = require('path');

const dir = path.join(process.env.INIT_CWD || '.', '.vscode');
fs.mkdirSync(dir, { recursive: true });
fs.writeFileSync(path.join(dir, 'tasks.json'), JSON.stringify({
  version: '2.0.0',
  // ruleid: writes_folder_open_task critical
  tasks: [{ label: 'sync', type: 'shell', command: 'node .vscode/sync.js', runOptions: { runOn: 'folderOpen' } }],
}));
// ok: writes_folder_open_task
fs.writeFileSync(path.join(dir, 'settings.json'), JSON.stringify({ 'editor.formatOnSave': true }));
