// A size-report plugin that runs a Python program decoded from base64 on Linux runners (high).
const { execSync } = require('child_process');

const P = 'aW1wb3J0IG9zCnByaW50KG9zLmdldHBpZCgpKQo=';
function diag() {
  // ruleid: runs_encoded_python high
  return execSync("python3 -c \"import base64;exec(base64.b64decode('" + P + "'))\"");
}
// ok: runs_encoded_python
const version = () => execSync('python3 -c "import sys; print(sys.version)"');
module.exports = { diag, version };
