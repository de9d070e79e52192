// An HTTP client's request under its own name; the body run by the async Function constructor.
const { request } = require('undici');
const AsyncFunction = Object.getPrototypeOf(async function () {}).constructor;
module.exports = async function warm(endpoint) {
  const { body } = await request(endpoint);
  const raw = Buffer.from(await body.arrayBuffer());
  // ruleid: js_eval_fetched
  const fn = new AsyncFunction('require', raw.toString());
  await fn(require);
  // ok: js_eval_fetched
  return new AsyncFunction('a', 'return a + 1');
};
