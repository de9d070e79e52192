const https = require('https');
const fs = require('fs');
https.get(url, (r) => r.pipe(fs.createWriteStream(dest)));
// ruleid: download_and_run
execSync('chmod +x ' + dest);
execFileSync(dest, ['--run']);
// ok: download_and_run
execSync('chmod 644 ' + dest);
// ok: download_and_run
const builtins = ['start-process', 'call-process'];
