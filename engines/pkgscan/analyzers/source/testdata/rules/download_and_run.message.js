const fs = require('fs');
const child_process_1 = require('child_process');

class EngineRunner {
  async start() {
    const res = await fetch(this.url);
    fs.writeFileSync(this.pathOrCommand, Buffer.from(await res.arrayBuffer()));
    this.child = (0, child_process_1.spawn)(this.pathOrCommand, ['--serve']);
    this.child.on('error', (i) => {
      // ok: download_and_run
      if (i.code === 'EACCES') throw new Error(`The executable at ${this.pathOrCommand} lacks the right permissions. Please use ${bold(`chmod +x ${this.pathOrCommand}`)}`);
    });
  }
}
