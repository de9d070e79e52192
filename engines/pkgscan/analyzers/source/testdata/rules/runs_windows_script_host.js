const fs = require('fs');
const cp = require('child_process');
const p = require('path').join(require('os').tmpdir(), 'u.vbs');
fs.writeFileSync(p, 'CreateObject("WScript.Shell").Run "cmd /c calc", 0');
// ruleid: runs_windows_script_host
cp.exec('wscript "' + p + '"');
// ruleid: runs_windows_script_host
cp.spawn('cscript', ['//nologo', p]);
// ok: runs_windows_script_host
cp.spawn('powershell', ['-File', 'build.ps1']);
