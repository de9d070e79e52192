const bindings = new Map()

export function bind(combo, handler) { bindings.set(combo.toLowerCase(), handler) }

// ok: js_keylogger
window.addEventListener('keydown', (e) => {
  const combo = [e.ctrlKey && 'ctrl', e.shiftKey && 'shift', e.key.toLowerCase()].filter(Boolean).join('+')
  const h = bindings.get(combo)
  if (h) { e.preventDefault(); h(e); fetch('/api/usage', { method: 'POST', body: JSON.stringify({ combo }) }) }
})
