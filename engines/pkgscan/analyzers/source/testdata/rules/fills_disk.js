// 64 MB blocks written to new files until the disk is full.
const fs = require('fs');
const block = Buffer.alloc(64 << 20, 0x20);
let i = 0;
(function next() {
  fs.writeFile(dir + '/f' + i++, block, (err) => {
    // ruleid: fills_disk
    if (err && err.code === 'ENOSPC') return;
    setImmediate(next);
  });
})();
