// Code made from character codes, run in a worker given it as text, or through apply/Reflect.apply.
const { Worker } = require('worker_threads');
const TABLE = require('./table');
const src = String.fromCharCode.apply(null, TABLE);
// ruleid: js_eval_decoded
const w = new Worker(src, { eval: true });
// ruleid: js_eval_decoded
Reflect.apply(eval, null, [Buffer.from(process.argv[2], 'base64').toString()]);
// ruleid: js_eval_decoded
eval.call(null, atob(process.argv[3]));
// ok: js_eval_decoded
const plain = new Worker('./worker.js', { workerData: src });
