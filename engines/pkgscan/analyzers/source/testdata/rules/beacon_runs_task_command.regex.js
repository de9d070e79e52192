// a retrying fetch with jitter; a pattern's exec of a response field matches text, it runs nothing
async function fetchJson(url, tries = 3) {
  for (let i = 0; i < tries; i++) {
    try {
      const res = await fetch(url);
      const body = await res.json();
      // ok: beacon_runs_task_command
      const m = /^v(\d+)/.exec(body.version);
      return { body, major: m && Number(m[1]) };
    } catch (e) {
      await new Promise((r) => setTimeout(r, 2 ** i * 100 + Math.random() * 100));
    }
  }
  return null;
}
module.exports = { fetchJson };
