// A shortcut library keeps the sequence of keys to match bindings and sends nothing.
const seq = [];
document.addEventListener('keydown', (e) => {
  // ok: logs_keystrokes
  seq.push(e.key);
  if (seq.join(' ') === 'g i') location.hash = '#/inbox';
});
