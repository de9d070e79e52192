// An object's key field in a tree walk is not a key pressed.
function walk(tree, out = []) {
  // ok: logs_keystrokes
  for (const curr of tree) out.push(curr.key);
  navigator.sendBeacon('/metrics', JSON.stringify({ n: out.length }));
  return out;
}
// ok: logs_keystrokes
function g(e,t){var n=[];return n.push(e),t}function k(e,t,n,r){var a,i,o=e.key;return o}
