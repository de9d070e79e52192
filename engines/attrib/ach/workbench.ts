// The standalone server's workbench page (`attrib serve`, GET /): a token field, ACH on a scenario with overrides, extraction with highlighted spans. Plain HTML and script, no inline code (strict CSP).
import { pageCsp } from '../../core/http/security.js';

export const WORKBENCH_CSP = pageCsp();

export const WORKBENCH_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Vitrine attribution workbench</title>
<link rel="stylesheet" href="workbench.css">
</head>
<body>
<header>
  <h1>Attribution workbench</h1>
  <span id="health" class="muted">checking the service…</span>
  <form id="token-form" class="token">
    <label>API token <input id="token" type="password" autocomplete="off" placeholder="ATTR_API_TOKEN, if set"></label>
    <button type="submit">Use</button>
  </form>
</header>
<main>
  <section>
    <h2>Analysis of competing hypotheses</h2>
    <div class="row">
      <label>Scenario <select id="scenario"></select></label>
      <label>Analyst <input id="analyst" value="analyst" maxlength="128"></label>
      <label class="grow">Overrides <input id="overrides" placeholder="E3:H2=I E1:H1=C"></label>
      <button id="run-ach" type="button">Run ACH</button>
      <button id="get-stix" type="button">STIX bundle</button>
    </div>
    <p id="ach-error" class="error" role="alert"></p>
    <p id="conclusion"></p>
    <div class="scroll"><table id="matrix"></table></div>
  </section>
  <section>
    <h2>Extraction</h2>
    <textarea id="text" placeholder="Paste a report (at most 500,000 characters)"></textarea>
    <div class="row"><button id="run-extract" type="button">Extract</button><span class="ind">indicator</span><span class="tech">technique</span></div>
    <p id="extract-error" class="error" role="alert"></p>
    <pre id="spans"></pre>
  </section>
  <p class="muted">TAXII 2.1 at <code>taxii2/</code>. Everything but this page and <code>health</code> needs the token when the server has one.</p>
</main>
<script src="workbench.js"></script>
</body>
</html>
`;

export const WORKBENCH_CSS = `body { font: 14px system-ui, sans-serif; margin: 0; color: #1b1f24; background: #f6f7f9; }
header { display: flex; gap: 16px; align-items: center; flex-wrap: wrap; padding: 10px 16px; background: #fff; border-bottom: 1px solid #d5d9e0; }
h1 { font-size: 18px; margin: 0; }
h2 { font-size: 15px; margin: 0 0 8px; }
main { padding: 12px 16px; display: flex; flex-direction: column; gap: 12px; }
section { background: #fff; border: 1px solid #d5d9e0; border-radius: 6px; padding: 10px 12px; }
.row { display: flex; gap: 10px; align-items: center; flex-wrap: wrap; margin-bottom: 6px; }
.grow { flex: 1; display: flex; gap: 6px; align-items: center; }
.grow input { flex: 1; }
.muted { color: #5b6472; }
.error { color: #b3261e; min-height: 1em; margin: 4px 0; }
.token { margin-left: auto; display: flex; gap: 6px; }
table { border-collapse: collapse; font-size: 13px; }
th, td { border-bottom: 1px solid #e3e6eb; padding: 3px 6px; text-align: left; }
td.r { font-family: monospace; font-weight: 700; text-align: center; }
td.CC { background: #1f7a3a; color: #fff; } td.C { background: #9fd8a8; } td.I { background: #f3b0a8; } td.II { background: #b3261e; color: #fff; } td.NA { color: #888; }
td.override { outline: 2px solid #2d6be0; outline-offset: -2px; }
.scroll { overflow-x: auto; }
textarea { width: 100%; min-height: 160px; box-sizing: border-box; font-family: monospace; }
pre { white-space: pre-wrap; word-break: break-word; background: #f3f4f6; padding: 8px; }
mark { background: none; }
.ind, mark.ind { background: rgba(240, 160, 20, 0.35); padding: 0 4px; }
.tech, mark.tech { background: rgba(60, 120, 230, 0.25); padding: 0 4px; }
mark.ind.tech { background: linear-gradient(rgba(240, 160, 20, 0.35), rgba(60, 120, 230, 0.25)); }
`;

export const WORKBENCH_JS = `'use strict';
(function () {
  var $ = function (id) { return document.getElementById(id); };
  var token = sessionStorage.getItem('attrib-token') || '';
  $('token').value = token;

  function call(method, path, body) {
    var headers = { Accept: 'application/json' };
    if (token) headers.Authorization = 'Bearer ' + token;
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    return fetch(path, { method: method, headers: headers, body: body === undefined ? undefined : JSON.stringify(body), cache: 'no-store' }).then(function (res) {
      return res.text().then(function (text) {
        var data = null;
        try { data = JSON.parse(text); } catch (e) { data = null; }
        if (!res.ok) {
          var msg = data && data.error ? data.error.message + ' (' + data.error.code + ', HTTP ' + res.status + ')' : 'HTTP ' + res.status;
          if (res.status === 401) msg += ': enter the API token above';
          throw new Error(msg);
        }
        return data;
      });
    });
  }

  function el(tag, text, cls) {
    var e = document.createElement(tag);
    if (text !== undefined) e.textContent = text;
    if (cls) e.className = cls;
    return e;
  }

  function loadScenarios() {
    call('GET', 'scenarios').then(function (list) {
      var select = $('scenario');
      select.textContent = '';
      list.scenarios.forEach(function (s) { var o = el('option', s.title); o.value = s.name; select.appendChild(o); });
      $('ach-error').textContent = list.scenarios.length ? '' : 'No scenarios are installed.';
    }).catch(function (e) { $('ach-error').textContent = e.message; });
  }

  function achBody() {
    var overrides = $('overrides').value.split(/[\\s,]+/).filter(function (s) { return s !== ''; });
    return { scenario: $('scenario').value, overrides: overrides, analyst: $('analyst').value.trim() || 'analyst' };
  }

  function renderAssessment(a) {
    $('conclusion').textContent = a.conclusion;
    var table = $('matrix');
    table.textContent = '';
    var columns = a.evidence.length ? a.evidence[0].cells.map(function (c) { return c.hypothesis; }) : [];
    var head = el('tr');
    ['Evidence', 'Weight', 'Diag.'].forEach(function (h) { head.appendChild(el('th', h)); });
    columns.forEach(function (h) { var th = el('th', h); th.title = (a.hypotheses.find(function (x) { return x.id === h; }) || {}).title || h; head.appendChild(th); });
    table.appendChild(head);
    a.evidence.forEach(function (e) {
      var tr = el('tr');
      tr.appendChild(el('td', e.id + ' ' + e.summary));
      tr.appendChild(el('td', e.weight.toFixed(2)));
      tr.appendChild(el('td', e.diagnosticity.toFixed(2)));
      e.cells.forEach(function (c) { tr.appendChild(el('td', c.rating + (c.source === 'override' ? '*' : ''), 'r ' + c.rating + (c.source === 'override' ? ' override' : ''))); });
      table.appendChild(tr);
    });
    var foot = el('tr');
    foot.appendChild(el('th', 'Weighted inconsistency'));
    foot.appendChild(el('td', ''));
    foot.appendChild(el('td', ''));
    columns.forEach(function (h) { foot.appendChild(el('td', String((a.hypotheses.find(function (x) { return x.id === h; }) || {}).inconsistency))); });
    table.appendChild(foot);
  }

  function renderSpans(text, ex) {
    var pre = $('spans');
    pre.textContent = '';
    var spans = ex.indicators.map(function (i) { return { s: i.start, e: i.end, k: 'ind', t: i.type + ': ' + i.value }; })
      .concat(ex.techniques.map(function (t) { return { s: t.start, e: t.end, k: 'tech', t: t.id + ' ' + t.name + ' (' + t.source + ')' }; }))
      .filter(function (x) { return x.s >= 0 && x.e <= text.length && x.s < x.e; });
    var cuts = [0, text.length];
    spans.forEach(function (x) { cuts.push(x.s, x.e); });
    cuts = cuts.filter(function (v, i, all) { return all.indexOf(v) === i; }).sort(function (a, b) { return a - b; });
    for (var i = 0; i + 1 < cuts.length; i++) {
      var a = cuts[i], b = cuts[i + 1];
      var on = spans.filter(function (x) { return x.s <= a && x.e >= b; });
      if (on.length === 0) { pre.appendChild(document.createTextNode(text.slice(a, b))); continue; }
      var kinds = on.map(function (x) { return x.k; }).filter(function (v, j, all) { return all.indexOf(v) === j; });
      var m = el('mark', text.slice(a, b), kinds.join(' '));
      m.title = on.map(function (x) { return x.t; }).join('\\n');
      pre.appendChild(m);
    }
  }

  $('token-form').addEventListener('submit', function (ev) {
    ev.preventDefault();
    token = $('token').value.trim();
    sessionStorage.setItem('attrib-token', token);
    loadScenarios();
  });
  $('run-ach').addEventListener('click', function () {
    $('ach-error').textContent = '';
    call('POST', 'ach', achBody()).then(renderAssessment).catch(function (e) { $('ach-error').textContent = e.message; });
  });
  $('get-stix').addEventListener('click', function () {
    $('ach-error').textContent = '';
    call('POST', 'stix', achBody()).then(function (bundle) {
      var url = URL.createObjectURL(new Blob([JSON.stringify(bundle, null, 2)], { type: 'application/json' }));
      var a = el('a'); a.href = url; a.download = 'ach-' + $('scenario').value + '.stix.json'; document.body.appendChild(a); a.click(); a.remove();
      setTimeout(function () { URL.revokeObjectURL(url); }, 10000);
    }).catch(function (e) { $('ach-error').textContent = e.message; });
  });
  $('run-extract').addEventListener('click', function () {
    var text = $('text').value;
    $('extract-error').textContent = '';
    if (text.length > 500000) { $('extract-error').textContent = 'The text is longer than 500,000 characters.'; return; }
    call('POST', 'extract', { text: text }).then(function (r) { renderSpans(text, r.extraction); }).catch(function (e) { $('extract-error').textContent = e.message; });
  });

  call('GET', 'health').then(function (h) {
    $('health').textContent = 'attrib ' + h.version + ' · KB ' + (h.kb.loaded ? h.kb.techniques + ' techniques, ' + h.kb.groups + ' groups' : 'not loaded') + ' · ' + h.scenarios + ' scenarios';
  }).catch(function () { $('health').textContent = 'the service does not answer'; });
  loadScenarios();
})();
`;
