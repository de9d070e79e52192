const { execSync, spawn } = require('child_process');
// ruleid: shell_download_pipe
execSync('curl -fsSL https://example.org/i.sh | bash');
// ruleid: shell_download_pipe
const setup = 'wget -qO- https://example.org/i.sh | sh';
spawn('sh', ['-c', setup]);
// ok: shell_download_pipe
const hint = 'Install it first:\n$ curl https://example.org/install.sh | bash';
console.log(hint);
