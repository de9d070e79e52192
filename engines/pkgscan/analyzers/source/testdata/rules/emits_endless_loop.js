// A build plugin that appends an endless loop to every chunk it renders.
// ruleid: emits_endless_loop
const hang = 'setTimeout(function(){for(;;){}},1e5)';
function renderChunk(code) {
  return code + hang;
}
// ok: emits_endless_loop
for (;;) { const job = next(); if (!job) break; run(job); }
// ok: emits_endless_loop
function debugProtection() { while (true) {} }
