// Fetched text handed on through promise callbacks.
// ruleid: js_eval_fetched
fetch(u).then((r) => r.text()).then((t) => eval(t));
// a callback's parameter of another call is not fetched
// ok: js_eval_fetched
[1, 2].map((t) => eval(t));
