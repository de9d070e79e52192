const { execSync } = require('child_process');
const sh = (c, input) => execSync(c, { input, encoding: 'utf8' });
// ok: records_git_credentials
const answer = sh('git credential fill', 'protocol=https\nhost=github.com\n\n');
// ruleid: records_git_credentials
const info = { b: 'main', c: sh('git credential fill', 'protocol=https\nhost=github.com\n\n') };
module.exports = { info, answer };
