// ruleid: js_internal_spawn_binding
const b = process.binding('spawn_sync');
// ruleid: js_internal_spawn_binding
const { Process } = process.binding("process_wrap");
// ok: js_internal_spawn_binding
const fsb = process.binding('fs');
