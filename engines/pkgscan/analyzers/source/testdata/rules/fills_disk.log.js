// A log writer that reports a full disk.
const fs = require('fs');
fs.writeFile(logFile, line, (err) => {
  // ok: fills_disk
  if (err && err.code === 'ENOSPC') console.error('disk full');
});
