const https = require('https');
const fs = require('fs');
const { execSync } = require('child_process');
https.get(url, (r) => r.pipe(fs.createWriteStream(dest)));
// ok: download_and_run
const builtinFunctions = 'Get-Process|Start-Process|Start-Service|Stop-Process';
// ruleid: download_and_run
execSync('powershell -c Start-Process ' + dest);
