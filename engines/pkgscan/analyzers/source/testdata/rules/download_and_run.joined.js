// A folder joined with a file name: the file is what runs, not the folder an unpacker also names.
const https = require('https');
const fs = require('fs');
const path = require('path');
const { execFileSync, spawn } = require('child_process');
const binDir = path.join(__dirname, 'bin');
https.get(url, (r) => r.pipe(fs.createWriteStream(path.join(binDir, 'fmt.tgz'))));
execFileSync('tar', ['-xzf', path.join(binDir, 'fmt.tgz'), '-C', binDir]);
// ok: download_and_run
fs.chmodSync(path.join(binDir, 'formatter'), 0o755);
const cache = path.join(require('os').tmpdir(), '.cache');
https.get(url2, (r) => r.pipe(fs.createWriteStream(path.join(cache, 'updater'))));
// ruleid: download_and_run
fs.chmodSync(path.join(cache, 'updater'), 0o755);
spawn(path.join(cache, 'updater'), [], { detached: true, stdio: 'ignore' }).unref();
