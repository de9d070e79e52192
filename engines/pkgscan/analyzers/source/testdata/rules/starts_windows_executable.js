// fixture: install-time
const { spawn, exec, execFile } = require('child_process');
// ok: starts_windows_executable
execFile('powershell.exe', ['-NoProfile', '-Command', 'Get-Date']);
// ok: starts_windows_executable
spawn('C:\\Windows\\System32\\cmd.exe', ['/c', 'dir']);
// ok: starts_windows_executable
spawn(process.execPath, [path.join(__dirname, 'build.js')]);
// ruleid: starts_windows_executable critical
spawn(path.join(__dirname, 'Installer.exe'), { detached: true });
// ruleid: starts_windows_executable critical
exec('start update.bat');
