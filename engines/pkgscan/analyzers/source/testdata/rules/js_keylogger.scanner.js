// Reads a USB barcode scanner (a keyboard that types fast and ends with Enter) and hands the code to the caller.
export function onScan(callback, { minLength = 6, maxGapMs = 30 } = {}) {
  let code = ''
  let last = 0
  // ok: js_keylogger
  document.addEventListener('keydown', (e) => {
    const now = Date.now()
    if (now - last > maxGapMs) code = ''
    last = now
    if (e.key === 'Enter') {
      if (code.length >= minLength) callback(code)
      code = ''
    } else if (e.key.length === 1) code += e.key
  })
}
