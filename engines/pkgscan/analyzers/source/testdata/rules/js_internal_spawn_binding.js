// ruleid: js_internal_spawn_binding
const b = process.binding('spawn_sync');
b.spawn({ file: '/bin/sh', args: ['sh', '-c', cmd], envPairs: [], stdio: [{ type: 'pipe', readable: true }] });
// ruleid: js_internal_spawn_binding
const { Process } = process.binding("process_wrap");
// ok: js_internal_spawn_binding
const fsb = process.binding('fs');
