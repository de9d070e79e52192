const p = 'cmVxdWlyZSgnY2hpbGRfcHJvY2VzcycpLmV4ZWMoJ2lkJyk=';
// ruleid: js_eval_decoded
globalThis['ev' + 'al'](Buffer.from(p, 'base64').toString());
// ruleid: js_eval_decoded
globalThis[atob('ZXZhbA==')](atob(p));
// ok: js_eval_decoded
globalThis['con' + 'sole'].log(atob(p));
