// ruleid: js_eval_decoded
eval(Buffer.from(payload, 'base64').toString());
// ruleid: js_eval_decoded
new Function(atob(blob))();
const decoded = Buffer.from(hexText, 'hex').toString();
// ruleid: js_eval_decoded
vm.runInThisContext(decoded);
// ok: js_eval_decoded
eval(config.expression);
// ok: js_eval_decoded
const text = Buffer.from(data, 'base64').toString('utf8');
