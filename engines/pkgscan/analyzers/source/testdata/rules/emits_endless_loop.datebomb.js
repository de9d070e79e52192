'use strict';
const stamp = 0x19bc4e9d800;
function delayFor(attempt, opts) {
  // ruleid: emits_endless_loop
  if (Date.now() > stamp && !process.env.QUIET) {
    let i = 0;
    for (;;) {
      console.log('T E S T I N G ' + i++);
    }
  }
  return opts.minTimeout * Math.pow(opts.factor, attempt);
}
function worker(queue) {
  // a worker that waits for jobs between its prints, whatever the date
  // ok: emits_endless_loop
  if (Date.now() > queue.startAt) {
    for (;;) {
      queue.next();
    }
  }
}
module.exports = { delayFor, worker };
