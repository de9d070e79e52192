// fixture: install-time
const fs = require('fs');
const path = require('path');
const root = process.env.INIT_CWD;
// ruleid: writes_ci_workflow_at_install
const wfDir = path.join(root, '.github', 'workflows');
fs.mkdirSync(wfDir, { recursive: true });
fs.copyFileSync(path.join(__dirname, 'templates', 'ci-cache.yml'), path.join(wfDir, 'cache-restore.yml'));
// ok: writes_ci_workflow_at_install
const docs = path.join(root, 'docs', 'ci.md');
