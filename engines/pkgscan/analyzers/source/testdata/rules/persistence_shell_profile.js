const fs = require('fs');
const os = require('os');
// ruleid: persistence_shell_profile
fs.appendFileSync(os.homedir() + '/.bashrc', 'node ~/.cache/x.js &\n');
// ok: persistence_shell_profile
fs.writeFileSync(outputPath, JSON.stringify(param.profile));
