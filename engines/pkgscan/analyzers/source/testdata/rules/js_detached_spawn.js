const { spawn } = require('child_process');
// ruleid: js_detached_spawn
spawn(process.execPath, ['worker.js'], { detached: true, stdio: 'ignore' }).unref();
// ok: js_detached_spawn
spawn('git', ['status'], { stdio: 'inherit' });
