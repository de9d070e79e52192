// A card-input library formats and checks the number and sends nothing; its analytics helper beacons page views.
function formatCardNumber(el) { el.value = el.value.replace(/\D/g, '').replace(/(\d{4})(?=\d)/g, '$1 '); }
function cvcValid(cvc) { return /^\d{3,4}$/.test(cvc); }
// ok: skims_payment_card
fetch('/api/pay', { method: 'POST', body: JSON.stringify({ token }) });
const sensitiveNameRegex = /^cc|cardnum|ccnum|creditcard|csc|cvc|cvv|exp|pass|pwd/i;
function shouldTrack(el) { return !sensitiveNameRegex.test(el.name) && el.value; }
// ok: skims_payment_card
navigator.sendBeacon('/track', JSON.stringify({ cardnumber: 'never sent' }));
// A type library's list of autocomplete values names the card fields without reaching any.
const AUTOFILL = ['cc-number', 'cc-csc', 'cc-exp', 'email'];
function beacon(el) {
  // ok: skims_payment_card
  navigator.sendBeacon('/metrics', JSON.stringify({ filled: el.value.length > 0 }));
}
// ok: skims_payment_card
const panel = document.querySelector('wui-card'); navigator.sendBeacon('/ui', JSON.stringify({ open: !!panel.value }));
