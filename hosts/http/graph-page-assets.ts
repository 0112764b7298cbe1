/**
 * The graph view's HTML and script. The script draws the knowledge graph
 * with Cytoscape (served from the installed package, /graph/assets/), and
 * talks only to the public API: GET /api/v1/knowledge/graph for the most
 * connected entities, POST /api/v1/knowledge/search to find and highlight,
 * GET /api/v1/knowledge/entities/{id} to expand a clicked node.
 */
export const GRAPH_PAGE_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Quarry knowledge graph</title>
<style>
  * { box-sizing: border-box; }
  body { margin: 0; font: 14px/1.4 system-ui, sans-serif; color: #1d2430; display: grid; grid-template-rows: auto 1fr; height: 100vh; }
  header { display: flex; gap: .75rem; align-items: center; padding: .6rem 1rem; background: #f3f5f8; border-bottom: 1px solid #d8dde5; flex-wrap: wrap; }
  header h1 { font-size: 1rem; margin: 0 .5rem 0 0; }
  input, select, button { font: inherit; padding: .3rem .5rem; border: 1px solid #b8c0cc; border-radius: 4px; background: #fff; }
  main { display: grid; grid-template-columns: 1fr 320px; min-height: 0; }
  #graph { min-height: 0; background: #fff; }
  aside { border-left: 1px solid #d8dde5; padding: .75rem 1rem; overflow: auto; background: #fafbfc; }
  aside h2 { font-size: 1rem; margin: .2rem 0 .4rem; }
  .muted { color: #667085; }
  .legend span { display: inline-flex; align-items: center; gap: .25rem; margin-right: .6rem; }
  .legend i { width: .7rem; height: .7rem; border-radius: 50%; display: inline-block; }
  ul { padding-left: 1.1rem; }
</style>
</head>
<body>
<header>
  <h1>Knowledge graph</h1>
  <input id="search" type="search" placeholder="Find an entity…" aria-label="Find an entity" size="28">
  <select id="type" aria-label="Entity type">
    <option value="">All types</option>
    <option value="person">People</option>
    <option value="organization">Organizations</option>
    <option value="location">Locations</option>
    <option value="product">Products</option>
    <option value="technology">Technologies</option>
    <option value="event">Events</option>
    <option value="work">Works</option>
  </select>
  <label class="muted">Nodes <input id="limit" type="number" min="1" max="1000" value="100" style="width:5rem"></label>
  <span id="status" class="muted" role="status"></span>
  <span class="legend" id="legend"></span>
</header>
<main>
  <div id="graph" aria-label="Graph drawing"></div>
  <aside id="details"><p class="muted">Click a node to see it and its relations, and to draw its neighbours. Search highlights matching entities.</p></aside>
</main>
<script src="/graph/assets/cytoscape.min.js"></script>
<script src="/graph/assets/graph-view.js"></script>
</body>
</html>
`;

export const GRAPH_PAGE_SCRIPT = String.raw`'use strict';
(function () {
  const COLORS = { person: '#4e79a7', organization: '#f28e2b', location: '#59a14f', product: '#b07aa1', technology: '#76b7b2', event: '#edc948', work: '#9c755f' };
  const HIGHLIGHT = '#e0115f';
  const statusEl = document.getElementById('status');
  const details = document.getElementById('details');
  const legend = document.getElementById('legend');
  for (const [type, color] of Object.entries(COLORS)) {
    const item = document.createElement('span');
    item.innerHTML = '<i></i>';
    item.querySelector('i').style.background = color;
    item.append(type);
    legend.append(item);
  }
  const cy = cytoscape({
    container: document.getElementById('graph'),
    wheelSensitivity: 0.3,
    style: [
      { selector: 'node', style: { 'background-color': (n) => COLORS[n.data('type')] || '#999', label: 'data(name)', 'font-size': 11, 'text-valign': 'bottom', 'text-margin-y': 4, width: (n) => 18 + Math.min(30, 4 * (n.data('degree') || 0)), height: (n) => 18 + Math.min(30, 4 * (n.data('degree') || 0)) } },
      { selector: 'edge', style: { width: (e) => 1 + Math.min(5, e.data('weight') || 1), 'line-color': '#b8c0cc', 'target-arrow-color': '#b8c0cc', 'target-arrow-shape': 'triangle', 'curve-style': 'bezier', label: 'data(type)', 'font-size': 9, color: '#667085', 'text-rotation': 'autorotate' } },
      { selector: 'node.highlight', style: { 'background-color': HIGHLIGHT, 'border-width': 6, 'border-color': HIGHLIGHT, 'z-index': 10 } },
      { selector: 'node:selected', style: { 'border-width': 4, 'border-color': '#1d2430' } },
    ],
  });
  window.quarryGraph = cy;

  const api = async (path, options) => {
    const response = await fetch(path, { credentials: 'same-origin', ...options, headers: { 'content-type': 'application/json', ...((options && options.headers) || {}) } });
    const body = await response.json();
    if (!response.ok) throw new Error((body && body.error && body.error.message) || response.statusText);
    return body;
  };
  const setStatus = (text) => { statusEl.textContent = text; };
  const nodeData = (n) => ({ group: 'nodes', data: { id: n.id, name: n.name, type: n.type, degree: n.degree || 0 } });
  const edgeData = (e) => ({ group: 'edges', data: { id: e.from + '|' + e.type + '|' + e.to, source: e.from, target: e.to, type: e.type, weight: e.weight } });
  const relayout = () => cy.layout({ name: 'cose', animate: false, nodeDimensionsIncludeLabels: true, randomize: false }).run();

  async function load() {
    const type = document.getElementById('type').value;
    const limit = Math.max(1, Math.min(1000, Number(document.getElementById('limit').value) || 100));
    setStatus('Loading…');
    const graph = await api('/api/v1/knowledge/graph?limit=' + limit + (type ? '&entity_types=' + type : ''));
    cy.elements().remove();
    cy.add(graph.nodes.map(nodeData));
    cy.add(graph.edges.map(edgeData));
    relayout();
    cy.fit(undefined, 30);
    setStatus(graph.nodes.length + ' entities, ' + graph.edges.length + ' relations');
  }

  function show(entity, relationships) {
    const names = (id) => (cy.getElementById(id).nonempty() ? cy.getElementById(id).data('name') : id);
    details.innerHTML = '';
    const h = document.createElement('h2');
    h.textContent = entity.name;
    const meta = document.createElement('p');
    meta.className = 'muted';
    meta.textContent = entity.type + ' · ' + entity.source_count + ' source(s) · ' + entity.id;
    const description = document.createElement('p');
    description.textContent = entity.description;
    const aliases = document.createElement('p');
    aliases.textContent = 'Also: ' + (entity.metadata.aliases.filter((a) => a !== entity.name).join(', ') || '—');
    const list = document.createElement('ul');
    for (const r of relationships) {
      const li = document.createElement('li');
      li.textContent = names(r.from_entity) + ' —' + r.type + '→ ' + names(r.to_entity) + ' (' + r.weight + ')';
      list.append(li);
    }
    details.append(h, meta, description, aliases, list);
  }

  async function expand(id) {
    const { entity, relationships } = await api('/api/v1/knowledge/entities/' + encodeURIComponent(id));
    const missing = [...new Set(relationships.flatMap((r) => [r.from_entity, r.to_entity]))].filter((other) => cy.getElementById(other).empty()).slice(0, 25);
    const neighbours = await Promise.all(missing.map((other) => api('/api/v1/knowledge/entities/' + encodeURIComponent(other)).then((x) => x.entity).catch(() => null)));
    cy.add(neighbours.filter(Boolean).map((n) => nodeData({ ...n, degree: n.metadata.degree })));
    for (const r of relationships) {
      const edge = edgeData({ from: r.from_entity, to: r.to_entity, type: r.type, weight: r.weight });
      if (cy.getElementById(edge.data.id).empty() && cy.getElementById(r.from_entity).nonempty() && cy.getElementById(r.to_entity).nonempty()) cy.add(edge);
    }
    if (missing.length) relayout();
    show(entity, relationships);
  }

  async function search(query) {
    cy.nodes().removeClass('highlight');
    if (!query.trim()) { setStatus(cy.nodes().length + ' entities'); return; }
    const type = document.getElementById('type').value;
    const result = await api('/api/v1/knowledge/search', { method: 'POST', body: JSON.stringify({ query, max_results: 10, include_relationships: false, ...(type ? { entity_types: [type] } : {}) }) });
    const added = result.entities.filter((e) => cy.getElementById(e.id).empty());
    if (added.length) { cy.add(added.map((e) => nodeData({ ...e, degree: e.metadata.degree }))); relayout(); }
    const hits = cy.collection(result.entities.map((e) => cy.getElementById(e.id)));
    hits.addClass('highlight');
    if (hits.nonempty()) cy.animate({ fit: { eles: hits.closedNeighborhood(), padding: 60 }, duration: 0 });
    setStatus(hits.length + (hits.length === 1 ? ' match' : ' matches') + ' for “' + query + '”');
    document.body.dataset.highlighted = String(hits.length);
  }

  cy.on('tap', 'node', (event) => expand(event.target.id()).catch((error) => setStatus(error.message)));
  let timer = null;
  document.getElementById('search').addEventListener('input', (event) => {
    clearTimeout(timer);
    timer = setTimeout(() => search(event.target.value).catch((error) => setStatus(error.message)), 250);
  });
  document.getElementById('type').addEventListener('change', () => load().catch((error) => setStatus(error.message)));
  document.getElementById('limit').addEventListener('change', () => load().catch((error) => setStatus(error.message)));
  load()
    .then(() => { document.body.dataset.ready = 'true'; })
    .catch((error) => setStatus(error.message));
})();
`;
