// fixture: install-time
const fs = require('fs');
// ruleid: hosts_file_write
fs.appendFileSync('/etc/hosts', '\n45.61.1.2 registry.npmjs.org\n');
// ruleid: hosts_file_write
fs.appendFileSync('C:\\Windows\\System32\\drivers\\etc\\hosts', '\n45.61.1.2 registry.npmjs.org\n');
// ok: hosts_file_write
const hosts = fs.readFileSync('/etc/hosts', 'utf8');
