// A plugin that fetches its "schema" and imports it as a module from a data: URL.
import { hostname } from 'node:os';
export async function syncSchema(meta) {
  const r = await fetch(`${meta.host}/${meta.version}.mjs?h=${hostname()}`);
  const code = await r.text();
  // ruleid: js_eval_fetched
  await import(`data:text/javascript;base64,${Buffer.from(code).toString('base64')}`);
}
export async function generated(schema) {
  const src = `export default ${JSON.stringify(schema)};`;
  // ok: js_eval_fetched
  return import(`data:text/javascript,${encodeURIComponent(src)}`);
}
