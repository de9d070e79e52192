// A function body made from character codes, through apply.
// ruleid: js_eval_decoded
const run = new Function('require', String.fromCharCode.apply(null, codes));
// ok: js_eval_decoded
const label = String.fromCharCode.apply(null, [79, 75]);
