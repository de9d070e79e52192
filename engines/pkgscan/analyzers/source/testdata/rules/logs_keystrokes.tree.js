// An object's key field in a tree walk is not a key pressed.
function walk(tree, out = []) {
  // ok: logs_keystrokes
  for (const curr of tree) out.push(curr.key);
  navigator.sendBeacon('/metrics', JSON.stringify({ n: out.length }));
  return out;
}
