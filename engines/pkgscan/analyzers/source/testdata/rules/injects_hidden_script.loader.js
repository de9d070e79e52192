// A loader for a documented asset writes its address out.
function loadMaps(key) {
  // ok: injects_hidden_script
  const s = document.createElement('script');
  s.src = 'https://maps.googleapis.com/maps/api/js?key=' + encodeURIComponent(key);
  s.integrity = 'sha384-...';
  document.head.appendChild(s);
}
// ok: injects_hidden_script
const PROTOCOLS = ['http', 'https', 'file', 'blob'];
const el = document.createElement('script');
