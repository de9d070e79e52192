// A supervisor stopping the one service it installed.
const cp = require('child_process');
// ok: stops_system_services
cp.spawnSync('systemctl', ['--user', 'stop', 'devproxy.service']);
