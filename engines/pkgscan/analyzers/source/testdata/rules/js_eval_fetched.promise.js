// Fetched text handed on through promise callbacks.
// ruleid: js_eval_fetched
fetch(u).then((r) => r.text()).then((t) => eval(t));
// a callback's parameter of another call is not fetched
// ok: js_eval_fetched
[1, 2].map((t) => eval(t));
// a browser module loader that fetches only same-origin module paths and evaluates them
function loadModule(url, done) {
  if (!(/^https?:/.test(url) && url.substring(0, self.origin.length) !== self.origin)) {
    fetch(url)
      .then((r) => r.text())
      .then((text) => {
        // ok: js_eval_fetched
        new Function(text).call(self);
        done();
      });
  }
}
