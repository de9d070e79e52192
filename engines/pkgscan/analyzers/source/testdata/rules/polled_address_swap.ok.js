'use strict';
// a wallet console: reads a line, checks it is an address and echoes it to another stream; it polls a balance
const ADDR = /^0x[a-fA-F0-9]{40}$/;
function onLine(input, output) {
  // ok: polled_address_swap
  const line = input.read();
  if (ADDR.test(line)) output.write(line);
}
setInterval(() => refreshBalance(), 30000);
module.exports = { onLine };
