// A token store reads its own entry by name and sends it to its API as a header.
const KEY = 'app.session';
// ok: steals_browser_tokens
const token = localStorage.getItem(KEY);
fetch('/api/me', { headers: { Authorization: 'Bearer ' + token } });
