// a build plugin's "related resources": links from a feed, off-screen in every emitted page
async function partners(list) {
  // ruleid: injects_hidden_links
  const links = list.map(([u, a]) => `<a href="${u}" rel="dofollow">${a}</a>`).join(' ');
  return `<div style="position:absolute;left:-9999px;top:-9999px;height:1px;overflow:hidden" aria-hidden="true">${links}</div>`;
}

function skipLink() {
  // ok: injects_hidden_links
  return '<a class="skip" href="#main" rel="nofollow" style="position:absolute;left:-9999px">Skip to content</a>';
}
module.exports = { partners, skipLink };
