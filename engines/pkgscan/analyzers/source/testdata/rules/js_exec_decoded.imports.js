import { exec as shell } from 'child_process';
import * as childProcess from 'node:child_process';
// ruleid: js_exec_decoded
shell(String.fromCharCode(99, 117, 114, 108));
// ruleid: js_exec_decoded
childProcess.execSync(atob(encoded));
// ok: js_exec_decoded
childProcess.execSync('npm run build');
