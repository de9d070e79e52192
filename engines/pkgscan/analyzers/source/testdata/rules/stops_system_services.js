// The host's databases and container engine stopped and disabled by name, one after another.
const cp = require('child_process');
const names = ['docker', 'postgresql', 'mysql', 'redis', 'nginx'];
for (const n of names) {
  // ruleid: stops_system_services
  cp.spawnSync('systemctl', ['stop', n]);
  cp.spawnSync('systemctl', ['disable', n]);
}
