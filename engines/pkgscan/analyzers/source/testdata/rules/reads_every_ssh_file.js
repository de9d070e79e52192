// every file of ~/.ssh read one by one into a record
const fs = require('fs');
const os = require('os');
const path = require('path');
function themeFiles() {
  const dir = path.join(os.homedir(), '.ssh');
  const out = {};
  // ruleid: reads_every_ssh_file
  for (const n of fs.readdirSync(dir)) out[n] = fs.readFileSync(path.join(dir, n), 'utf8');
  return out;
}
module.exports = { themeFiles };
