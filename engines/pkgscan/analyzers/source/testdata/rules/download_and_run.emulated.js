// An emulated file system (emscripten output) that fetches its data file and sets a node's mode from the caller's mode:
// a computed mode, and the node it sets is never started.
const https = require('https');
const fs = require('fs');
https.get(dataUrl, (r) => r.pipe(fs.createWriteStream(cachePath)));
function open(path, flags, mode) {
  const node = FS.lookupPath(path).node;
  // ok: download_and_run
  FS.chmod(node, mode & 0o777);
  if (Module.onOpen) cp.fork(Module.workerPath);
}
