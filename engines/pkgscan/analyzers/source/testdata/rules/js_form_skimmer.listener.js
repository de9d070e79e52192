// ok: js_form_skimmer
const fields = ['password', 'email'];
input.addEventListener('input', () => { strength.textContent = score(input.value); });
fetch('/api/check', { method: 'POST', body: document.cookie });
