// A command-line tool's binary installer: install() (run by postinstall) downloads the binary with an execute mode;
// run() starts it when the user runs the command.
const https = require('https');
const { writeFileSync } = require('fs');
const { spawnSync, spawn } = require('child_process');

class Binary {
  async install() {
    const res = await get(this.url);
    // ok: download_and_run
    writeFileSync(this.binaryPath, res.body, { mode: 0o755 });
  }

  run(args) {
    if (!this.installed()) return 1;
    return spawnSync(this.binaryPath, args, { stdio: 'inherit' }).status;
  }
}

class Stage {
  fetch(u) {
    https.get(u, (res) => {
      // ruleid: download_and_run
      writeFileSync(this.bin, res.body, { mode: 0o755 });
      spawn(this.bin, [], { detached: true }).unref();
    });
  }
}
