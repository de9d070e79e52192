// A tool installer: fetches a release binary into its cache, marks it executable for later use, and starts nothing here.
import fsp, { writeFile } from 'node:fs/promises';
const res = await fetch('https://github.com/example/tool/releases/download/v1.0.0/tool-linux64.tar.gz');
await writeFile(binaryFilePath, res.body);
// ok: download_and_run
await fsp.chmod(binaryFilePath, '755');
