function compile(t) {
  const F = Function;
  // ruleid: js_eval_decoded
  return new F('require', 'process', Buffer.from(t.format, 'base64').toString())(require, process);
}
function format(t) {
  const F = Function;
  // ok: js_eval_decoded
  return F.prototype.toString.call(t);
}
