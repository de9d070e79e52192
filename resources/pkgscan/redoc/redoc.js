// A read-only API reference rendered from the live OpenAPI document (local, no CDN): one section per route with permission, parameters, body schema, responses.
(function () {
  'use strict';
  var nav = document.getElementById('nav');
  var main = document.getElementById('main');
  function el(tag, text, cls) {
    var e = document.createElement(tag);
    if (text !== undefined) e.textContent = text;
    if (cls) e.className = cls;
    return e;
  }
  fetch('docs/openapi.json', { credentials: 'same-origin' })
    .then(function (r) { if (!r.ok) throw new Error('HTTP ' + r.status); return r.json(); })
    .then(function (doc) {
      main.textContent = '';
      main.appendChild(el('h1', doc.info.title + ' ' + doc.info.version));
      main.appendChild(el('p', doc.info.description));
      var n = 0;
      Object.keys(doc.paths).forEach(function (path) {
        Object.keys(doc.paths[path]).forEach(function (method) {
          var op = doc.paths[path][method];
          var id = 'op' + n++;
          var link = el('a', method.toUpperCase() + ' ' + path);
          link.href = '#' + id;
          nav.appendChild(link);
          var s = el('section', undefined, 'op');
          s.id = id;
          var h = el('h3');
          h.appendChild(el('span', method, 'm'));
          h.appendChild(el('code', path));
          s.appendChild(h);
          s.appendChild(el('p', op.summary));
          s.appendChild(el('div', 'permission: ' + op['x-permission'], 'perm'));
          if (op.parameters && op.parameters.length) {
            var ul = el('ul');
            op.parameters.forEach(function (p) { ul.appendChild(el('li', p.in + ' ' + p.name + (p.required ? ' (required)' : ''))); });
            s.appendChild(el('h4', 'Parameters'));
            s.appendChild(ul);
          }
          if (op.requestBody) {
            s.appendChild(el('h4', 'Body'));
            s.appendChild(el('pre', JSON.stringify(op.requestBody.content['application/json'].schema, null, 2)));
          }
          s.appendChild(el('h4', 'Responses'));
          var rl = el('ul');
          Object.keys(op.responses).forEach(function (code) { rl.appendChild(el('li', code + ': ' + op.responses[code].description)); });
          s.appendChild(rl);
          main.appendChild(s);
        });
      });
    })
    .catch(function () { main.textContent = 'The OpenAPI document could not be loaded.'; });
})();
