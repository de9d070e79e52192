// fixture: install-time
const { spawn, exec } = require('child_process');
// ruleid: starts_windows_executable critical
spawn(path.join(__dirname, 'Installer.exe'), { detached: true });
// ok: starts_windows_executable
spawn(process.execPath, [path.join(__dirname, 'build.js')]);
// ruleid: starts_windows_executable critical
exec('start update.bat');
