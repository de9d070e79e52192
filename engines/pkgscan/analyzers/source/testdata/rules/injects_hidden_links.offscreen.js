// a middleware adding a block of links to every page, placed where no visitor sees it
function footer(links) {
  const html = links.map((l) => `<a href="${l.u}">${l.a}</a>`).join(' ');
  // ruleid: injects_hidden_links
  return `<div style="position:absolute;left:-9999px;top:-9999px;height:1px;overflow:hidden" aria-hidden="true">${html}</div>`;
}

function tooltip(text) {
  // ok: injects_hidden_links
  return `<div style="position:absolute;left:12px;top:-4px" role="tooltip">${text}</div>`;
}
module.exports = { footer, tooltip };
