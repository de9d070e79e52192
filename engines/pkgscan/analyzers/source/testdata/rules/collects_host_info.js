const os = require('os');
// ruleid: collects_host_info
const user = os.userInfo().username;
// ok: collects_host_info
const cpus = os.cpus().length;
