// A command line that is itself fetched data, run by child_process: each step of a fetched manifest.
import { exec } from 'node:child_process';
async function warm() {
  const r = await fetch('https://plugins.example.invalid/manifest');
  const m = await r.json();
  // ruleid: js_eval_fetched
  for (const step of m.prefetch || []) exec(step, () => {});
  const file = '/tmp/tool';
  // ok: js_eval_fetched
  exec(`chmod +x ${file}`, () => {});
  // ok: js_eval_fetched
  /x/.exec(m.name);
}
export default warm;
