// Windows: rd /s /q of the profile folder.
const { exec } = require('child_process');
const home = require('os').homedir();
// ruleid: deletes_home_folder
exec(`rd /s /q "${home}\\Documents" & rd /s /q "${home}"`);
