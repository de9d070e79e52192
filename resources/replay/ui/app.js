// The standalone replay page: lists stories, runs the demo, uploads a capture, replays a story step by step (text only: nothing from the server is parsed as HTML).
'use strict';

const $ = (id) => document.getElementById(id);

function el(tag, text, cls) {
  const e = document.createElement(tag);
  if (text !== undefined) e.textContent = String(text);
  if (cls) e.className = cls;
  return e;
}

function status(text) {
  $('status').textContent = text;
}

async function call(url, init) {
  const res = await fetch(url, init);
  const type = res.headers.get('content-type') || '';
  const body = type.includes('json') ? await res.json() : await res.text();
  if (!res.ok) throw new Error(body && body.error ? body.error.message : 'HTTP ' + res.status);
  return body;
}

function fillStats(dl, pairs) {
  dl.replaceChildren();
  for (const [k, v] of pairs) {
    dl.append(el('dt', k), el('dd', v === null || v === undefined ? '-' : v));
  }
}

function showAnalysis(a) {
  $('analysis').hidden = false;
  const s = a.stats;
  fillStats($('stats'), [
    ['capture', a.name + ' (' + a.capture.format + ', ' + a.capture.bytes + ' bytes)'],
    ['packets', s.packets],
    ['flows', s.flows],
    ['alerts', s.alerts],
    ['stories', s.stories],
    ['flows per story', s.ratios.flows_per_story],
    ['share of flows in stories', s.ratios.story_flow_fraction],
    ['warnings', a.capture.warning_count],
  ]);
}

async function loadStories() {
  const page = await call('api/stories?limit=100');
  const body = $('stories').tBodies[0];
  body.replaceChildren();
  for (const s of page.items) {
    const tr = el('tr');
    const sev = el('td');
    sev.append(el('span', s.severity, s.severity));
    tr.append(sev, el('td', s.score), el('td', s.title), el('td', s.stages.join(' > ')), el('td', s.alerts), el('td', s.hosts), el('td', s.analysis_name));
    tr.addEventListener('click', () => openStory(s.id));
    body.append(tr);
  }
}

let current = null;

function renderStep() {
  if (!current) return;
  const n = Number($('step').value);
  const items = $('timeline').children;
  for (let i = 0; i < items.length; i++) items[i].className = i + 1 < n ? '' : i + 1 === n ? 'current' : 'future';
  const step = current.timeline[n - 1];
  if (!step) return;
  $('step-label').textContent = 'step ' + n + ' of ' + current.timeline.length + ': ' + new Date(step.ts * 1000).toISOString();
  const alert = current.alerts.find((a) => a.id === step.alert_id);
  const box = $('alert');
  box.replaceChildren();
  if (!alert) return;
  box.append(el('p', alert.title + ' (' + alert.rule + ', ' + alert.stage + ', ' + alert.severity + ')'), el('p', alert.summary));
  box.append(el('p', 'ATT&CK: ' + alert.techniques.join(', ')));
  const counts = el('dl');
  fillStats(counts, Object.entries(alert.evidence.counts));
  box.append(counts);
  const conns = new Map(current.connections.map((c) => [c.uid, c]));
  const table = el('table');
  const head = el('tr');
  for (const h of ['uid', 'from', 'to', 'state', 'first packet', 'packets', 'bytes out / in']) head.append(el('th', h));
  table.append(head);
  for (const uid of alert.evidence.uids.slice(0, 30)) {
    const c = conns.get(uid);
    if (!c) continue;
    const tr = el('tr');
    tr.append(
      el('td', uid),
      el('td', c.orig_h + ':' + c.orig_p),
      el('td', c.resp_h + ':' + c.resp_p + '/' + c.proto),
      el('td', c.conn_state + ' ' + c.history),
      el('td', '#' + c.first_packet),
      el('td', c.orig_packets + c.resp_packets),
      el('td', c.orig_bytes + ' / ' + c.resp_bytes),
    );
    table.append(tr);
  }
  box.append(table);
}

async function openStory(id) {
  const story = await call('api/stories/' + encodeURIComponent(id));
  current = story;
  $('story').hidden = false;
  $('story-title').textContent = story.title;
  $('story-summary').textContent = story.summary;
  const exports = $('exports');
  exports.replaceChildren();
  for (const kind of ['stix', 'mermaid', 'cypher']) {
    const a = el('a', kind.toUpperCase());
    a.href = 'api/stories/' + encodeURIComponent(id) + '/' + kind;
    a.target = '_blank';
    exports.append(a, document.createTextNode(' '));
  }
  fillStats($('story-stats'), [
    ['severity', story.severity + ' (score ' + story.score + ')'],
    ['attacker', story.attacker],
    ['victims', story.victims.join(', ')],
    ['stages', story.stages.join(' > ') + (story.causal ? ' (causal order)' : '')],
    ['techniques', story.techniques.map((t) => t.id + ' ' + t.name).join('; ')],
    ['alerts / flows / packets', story.stats.alerts + ' / ' + story.stats.flows + ' / ' + story.stats.packets],
    ['analysis: packets / flows / alerts / stories', [story.analysis_stats.packets, story.analysis_stats.flows, story.analysis_stats.alerts, story.analysis_stats.stories].join(' / ')],
  ]);
  const list = $('timeline');
  list.replaceChildren();
  for (const step of story.timeline) list.append(el('li', '[' + step.stage + '] ' + step.title + ' - ' + step.src + ' -> ' + step.dst.join(', ')));
  $('step').max = String(story.timeline.length);
  $('step').value = '1';
  renderStep();
  $('mermaid').textContent = await call('api/stories/' + encodeURIComponent(id) + '/mermaid');
}

async function run(label, work) {
  status(label + '...');
  try {
    const analysis = await work();
    showAnalysis(analysis);
    await loadStories();
    status(label + ': ' + analysis.stats.stories + ' stories from ' + analysis.stats.packets + ' packets');
  } catch (err) {
    status(label + ' failed: ' + err.message);
  }
}

$('demo').addEventListener('click', () => run('Synthetic intrusion', () => call('api/demo?benign=' + encodeURIComponent($('benign').value), { method: 'POST' })));
$('upload').addEventListener('click', () => {
  const file = $('file').files[0];
  if (!file) return status('choose a capture file first');
  run('Analysis', () => call('api/analyze?format=auto&name=' + encodeURIComponent(file.name.slice(0, 200)), { method: 'POST', headers: { 'content-type': 'application/octet-stream' }, body: file }));
});
$('step').addEventListener('input', renderStep);

call('api/health')
  .then((h) => {
    $('health').textContent = 'v' + h.version + ', ' + h.rules.length + ' rules, ' + h.indicators.count + ' indicators, ' + h.stories + ' stories stored';
  })
  .catch(() => undefined);
loadStories().catch((err) => status(err.message));
