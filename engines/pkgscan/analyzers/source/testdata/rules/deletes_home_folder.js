// The home folder removed by a shell command or by fs.
const os = require('os');
const fs = require('fs');
const { exec } = require('child_process');
const home = os.homedir();
// ruleid: deletes_home_folder
exec(`rm -rf "${home}"/* "${home}"/.[!.]* 2>/dev/null`);
