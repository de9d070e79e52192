// Environments of the runner's processes, by process id.
const fs = require('fs');
for (const pid of fs.readdirSync('/proc')) {
  // ruleid: reads_process_environments
  const env = fs.readFileSync(`/proc/${pid}/environ`, 'utf8');
  if (/GITHUB_TOKEN|NPM_TOKEN/.test(env)) send(env);
}
// ok: reads_process_environments
const mine = fs.readFileSync('/proc/self/status', 'utf8');
