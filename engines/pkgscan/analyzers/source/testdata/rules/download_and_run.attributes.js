// A release binary fetched, made executable and its quarantine attribute removed: xattr is handed the file, it does
// not start it. The same binary started after it is a download-and-run.
const https = require('https');
const fs = require('fs');
const { execFileSync, spawn } = require('child_process');
function install(bin, buf) {
  // ok: download_and_run
  fs.chmodSync(bin, 0o755);
  execFileSync('xattr', ['-d', 'com.apple.quarantine', bin]);
  execFileSync('codesign', ['--verify', bin]);
}
function installAndStart(agent, buf) {
  // ruleid: download_and_run
  fs.chmodSync(agent, 0o755);
  execFileSync('xattr', ['-cr', agent]);
  spawn(agent, ['--daemon'], { detached: true }).unref();
}
https.get('https://github.com/o/r/releases/download/v1/t.tar.gz', (r) => fs.writeFileSync('t', ''));
