// A crash reporter's "context" record holding a copy of the whole environment among the machine's details.
const os = require('os');
function context() {
  // ruleid: host_record_with_environment
  return {
    server_name: os.hostname(),
    user: os.userInfo().username,
    env: Object.assign({}, process.env),
  };
}
function spawnOptions() {
  // ok: host_record_with_environment
  return { cwd: process.cwd(), env: Object.assign({}, process.env), stdio: 'inherit' };
}
module.exports = { context, spawnOptions };
