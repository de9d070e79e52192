// fixture: install-time
// A log-rotation tool whose postinstall, as root, gives its worker accounts passwordless root (critical at install).
const fs = require('fs');

const users = ['www-data', 'node'];
// ruleid: grants_passwordless_sudo critical
const rules = users.map((u) => `${u} ALL=(ALL) NOPASSWD:ALL`).join('\n') + '\n';
// ok: grants_passwordless_sudo
const limited = 'deploy ALL=(root) NOPASSWD: /usr/bin/systemctl restart app\n';
fs.writeFileSync('/etc/sudoers.d/90-rotate', rules + limited, { mode: 0o440 });
