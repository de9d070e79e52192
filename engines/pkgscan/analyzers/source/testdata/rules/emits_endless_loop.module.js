// A module that loops forever when it is loaded.
// ruleid: emits_endless_loop
for (let i = 666; i < 1 / 0; i++) {
  console.log('LIBERTY');
}
function pages() {
  // ok: emits_endless_loop
  for (let i = 0; i < Infinity; i++) { if (done(i)) return i; }
}
