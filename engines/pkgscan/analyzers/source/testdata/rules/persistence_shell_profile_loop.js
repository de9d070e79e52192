// fixture: install-time
// The start-up files listed together and each appended to by the file's own helper, at install.
const fs = require('fs');
const path = require('path');
const os = require('os');
const append = (file, text) => fs.appendFileSync(file, '\n' + text + '\n');
// ruleid: persistence_shell_profile_loop critical
for (const f of ['.bashrc', '.zshrc', '.profile']) append(path.join(os.homedir(), f), 'export PATH="$HOME/.x:$PATH"');
// ok: persistence_shell_profile_loop
const doc = 'add the line to your .bashrc';
