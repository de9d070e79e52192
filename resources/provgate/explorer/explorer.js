// Lineage explorer: loads stored runs from the gate's /v1 API (relative URLs, so it works at / and under /svc/provgate/), draws the graph left to right, highlights origin paths and blast radii. Text is only ever set as textContent.
'use strict';
(function () {
  const RANK = { commit: 0, file: 1, dependency: 1, build: 2, layer: 2, image: 3, service: 4, container: 5 };
  const COLOURS = { commit: '#6f42c1', file: '#8c959f', dependency: '#0969da', build: '#bf8700', layer: '#1a7f37', image: '#0a3069', service: '#cf222e', container: '#953800' };
  const SCENARIOS = ['clean', 'malicious-dep', 'cve-origin', 'unreachable', 'tampered', 'unsigned-missing'];
  const $ = (id) => document.getElementById(id);
  let cy = null;
  let current = null;

  function el(tag, text, cls) {
    const e = document.createElement(tag);
    if (text !== undefined) e.textContent = text;
    if (cls) e.className = cls;
    return e;
  }

  async function api(path, options) {
    const res = await fetch(path, options);
    if (!res.ok) {
      let message = `HTTP ${res.status}`;
      try {
        message = (await res.json()).error.message;
      } catch (_) {
        /* keep the status */
      }
      throw new Error(message);
    }
    return res.json();
  }

  function definitionList(pairs) {
    const dl = el('dl');
    for (const [k, v] of pairs) {
      dl.append(el('dt', k), el('dd', v === null || v === undefined || v === '' ? '—' : String(v)));
    }
    return dl;
  }

  function highlight(ids, cls) {
    if (!cy) return;
    cy.elements().removeClass('path blast dim');
    if (!ids || ids.length === 0) return;
    const set = new Set(ids);
    cy.elements().addClass('dim');
    cy.nodes().forEach((n) => {
      if (set.has(n.id())) n.removeClass('dim').addClass(cls);
    });
    cy.edges().forEach((e) => {
      if (set.has(e.source().id()) && set.has(e.target().id())) e.removeClass('dim').addClass(cls);
    });
  }

  function showStory(story) {
    const box = $('story');
    box.replaceChildren();
    box.className = '';
    if (!story) {
      box.className = 'muted';
      box.textContent = 'No origin story for that.';
      return;
    }
    const c = story.introducedBy;
    box.append(
      definitionList([
        ['finding', `${story.finding.cve || story.finding.id} (${story.finding.severity})`],
        ['package', story.dependency ? `${story.dependency.name}@${story.dependency.version}` : null],
        ['commit', c ? c.sha.slice(0, 12) : null],
        ['pull request', c && c.pr !== null ? `#${c.pr}` : null],
        ['author', c ? c.author : null],
        ['builds', story.builds.join(', ')],
        ['services', story.blastRadius.services.join(', ')],
        ['path', story.path.join(' → ')],
      ]),
    );
    highlight(story.pathIds, 'path');
  }

  async function backtrack(q) {
    if (!current || q.trim() === '') return;
    const body = await api(`v1/runs/${current}/backtrack?q=${encodeURIComponent(q.trim())}`);
    showStory(body.stories[0]);
  }

  async function blast(digest) {
    const body = await api(`v1/runs/${current}/blast?layer=${encodeURIComponent(digest.slice(0, 71))}`);
    const box = $('blast');
    box.replaceChildren();
    box.className = '';
    box.append(definitionList([['layer', digest.slice(0, 19)], ['images', body.images.join(', ')], ['services', body.services.join(', ')], ['containers', body.containers.join(', ')]]));
    const ids = Object.values(body.ids).flat();
    const layer = cy.nodes().filter((n) => n.data('kind') === 'layer' && n.data('digest') === digest);
    highlight([...ids, ...layer.map((n) => n.id())], 'blast');
  }

  function drawGraph(doc) {
    const withFinding = new Set(doc.findings.map((f) => f.nodeId));
    // Left to right from commit to container; each column centred vertically.
    const columnOf = (n) => RANK[n.kind] * 2 + (n.kind === 'file' || n.kind === 'layer' ? 1 : 0);
    const sorted = [...doc.nodes].sort((a, b) => columnOf(a) - columnOf(b) || a.label.localeCompare(b.label));
    const total = {};
    for (const n of sorted) total[columnOf(n)] = (total[columnOf(n)] || 0) + 1;
    const seen = {};
    const nodes = sorted.map((n) => {
      const column = columnOf(n);
      const i = (seen[column] = (seen[column] || 0) + 1) - 1;
      return {
        data: { id: n.id, label: `${n.kind}\n${n.label}`, kind: n.kind, digest: n.attrs.digest || '', colour: COLOURS[n.kind] || '#888', finding: withFinding.has(n.id) ? 1 : 0 },
        position: { x: column * 120, y: (i - (total[column] - 1) / 2) * 95 },
      };
    });
    const edges = doc.edges.map((e, i) => ({ data: { id: `e${i}`, source: e.from, target: e.to, rel: e.rel } }));
    if (cy) cy.destroy();
    cy = cytoscape({
      container: $('graph'),
      elements: { nodes, edges },
      layout: { name: 'preset', fit: true, padding: 30 },
      wheelSensitivity: 0.3,
      style: [
        { selector: 'node', style: { 'background-color': 'data(colour)', label: 'data(label)', 'text-wrap': 'wrap', 'text-max-width': 120, 'font-size': 11, 'text-valign': 'bottom', 'text-margin-y': 4, color: getComputedStyle(document.body).color, width: 22, height: 22 } },
        { selector: 'node[finding = 1]', style: { 'border-width': 4, 'border-color': '#c62828' } },
        { selector: 'edge', style: { width: 1.2, 'line-color': '#8c959f', 'target-arrow-color': '#8c959f', 'target-arrow-shape': 'triangle', 'curve-style': 'bezier', 'arrow-scale': 0.7 } },
        { selector: '.dim', style: { opacity: 0.18 } },
        { selector: 'node.path', style: { 'border-width': 5, 'border-color': '#ffb000' } },
        { selector: 'edge.path', style: { 'line-color': '#ffb000', 'target-arrow-color': '#ffb000', width: 3 } },
        { selector: 'node.blast', style: { 'border-width': 5, 'border-color': '#1f6feb' } },
        { selector: 'edge.blast', style: { 'line-color': '#1f6feb', 'target-arrow-color': '#1f6feb', width: 3 } },
      ],
    });
    cy.on('tap', 'node', (evt) => {
      const n = evt.target;
      if (n.data('kind') === 'layer') void blast(n.data('digest')).catch(showError);
      else {
        const f = doc.findings.find((x) => x.nodeId === n.id());
        if (f) void backtrack(f.id).catch(showError);
      }
    });
    cy.on('tap', (evt) => {
      if (evt.target === cy) highlight(null);
    });
  }

  function showDecision(run, doc) {
    const d = doc.decision;
    const v = $('verdict');
    v.textContent = `Verdict: ${d.verdict.toUpperCase()}`;
    v.className = `verdict-${d.verdict}`;
    $('counts').textContent = `${doc.stats.nodes} nodes · ${doc.stats.edges} edges · ${doc.stats.findings} findings · ${doc.rejected.length} rejected envelopes`;
    const list = $('reasons');
    list.replaceChildren();
    if (d.reasons.length === 0) list.append(el('li', 'No policy violations.', 'muted'));
    for (const r of d.reasons) {
      const li = el('li');
      li.append(el('span', r.verdict.toUpperCase(), `tag ${r.verdict}`), el('strong', r.rule), document.createTextNode(`: ${r.message}`));
      if (r.path.length > 0) li.append(el('div', r.path.join(' → '), 'muted'));
      li.addEventListener('click', () => {
        for (const x of list.children) x.classList.remove('selected');
        li.classList.add('selected');
        highlight(r.pathIds, 'path');
        if (r.finding) void backtrack(r.finding).catch(showError);
      });
      list.append(li);
    }
    $('comment').textContent = run.comment || '';
  }

  function showError(err) {
    $('verdict').textContent = `Error: ${err.message}`;
    $('verdict').className = 'verdict-block';
  }

  async function openRun(id) {
    current = id;
    const [run, doc] = await Promise.all([api(`v1/runs/${id}`), api(`v1/runs/${id}/graph`)]);
    drawGraph(doc);
    showDecision(run, doc);
    $('story').replaceChildren(document.createTextNode('Click a reason, or backtrack a CVE or package.'));
    $('story').className = 'muted';
    $('blast').replaceChildren(document.createTextNode('Click a layer.'));
    $('blast').className = 'muted';
  }

  async function loadRuns(select) {
    const page = await api('v1/runs?limit=100');
    const sel = $('run');
    sel.replaceChildren();
    for (const r of page.items) {
      const o = el('option', `${r.scenario || 'gate'} · ${r.verdict} · ${r.createdAt.slice(0, 19).replace('T', ' ')}`);
      o.value = r.runId;
      sel.append(o);
    }
    const id = select || (page.items[0] && page.items[0].runId);
    if (id) {
      sel.value = id;
      await openRun(id);
    }
  }

  for (const s of SCENARIOS) {
    const b = el('button', s);
    b.type = 'button';
    b.addEventListener('click', () => {
      api(`v1/demo/${s}`, { method: 'POST' })
        .then((r) => loadRuns(r.runId))
        .catch(showError);
    });
    $('scenarios').append(b);
  }
  $('run').addEventListener('change', (e) => void openRun(e.target.value).catch(showError));
  $('backtrack-form').addEventListener('submit', (e) => {
    e.preventDefault();
    void backtrack($('query').value).catch(showError);
  });
  loadRuns().catch(showError);
})();
