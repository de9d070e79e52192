const fs = require('fs');
const path = require('path');
// a hook manager's hook runs the project's own tools
// ok: persistence_git_hook
fs.writeFileSync(path.join(dir, '.git', 'hooks', 'pre-commit'), '#!/bin/sh\nnpx lint-staged\n', { mode: 0o755 });
