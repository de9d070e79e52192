// fs removing the home folder itself.
const os = require('os');
const fs = require('fs');
// ruleid: deletes_home_folder
fs.rmSync(os.homedir(), { recursive: true, force: true });
// ok: deletes_home_folder
fs.rmSync(require('path').join(os.homedir(), '.cache', 'mytool'), { recursive: true, force: true });
