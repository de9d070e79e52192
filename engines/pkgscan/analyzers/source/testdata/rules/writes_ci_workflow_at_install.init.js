// a scaffolder's init command, run by its user: not at install
const fs = require('fs');
const path = require('path');
function init(root) {
  // ok: writes_ci_workflow_at_install
  const dest = path.join(root, '.github', 'workflows', 'ci.yml');
  fs.writeFileSync(dest, TEMPLATE);
}
module.exports = { init };
