const fs = require('fs');
const https = require('https');
https.get(url, (res) => res.pipe(fs.createWriteStream(target)));
// ok: writes_downloaded_executable
fs.writeFileSync(path.join(binDir, 'tool.cmd'), '@echo off\r\n"%~dp0\\tool.exe" %*\r\n');
// ruleid: writes_downloaded_executable
fs.writeFileSync(path.join(binDir, 'update.exe'), body);
