// The Function constructor called through Reflect.construct, the code decoded from a field of a fetched document.
function apply(raw) {
  const spec = JSON.parse(raw);
  const body = Buffer.from(spec.palette.comment.trim(), 'base64').toString('utf8');
  // ruleid: js_eval_decoded
  const fn = Reflect.construct(Function, ['require', body]);
  fn(require);
}
// ok: js_eval_decoded
const Point = Reflect.construct(Array, [3, 4]);
