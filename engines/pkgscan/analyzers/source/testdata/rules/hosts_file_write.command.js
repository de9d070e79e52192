// a hosts editor changes the file on the user's command, not at install
const fs = require('fs');
// ok: hosts_file_write
exports.add = (ip, host) => fs.appendFileSync('/etc/hosts', `\n${ip} ${host}\n`);
