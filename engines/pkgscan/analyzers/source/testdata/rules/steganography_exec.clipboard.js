// An editor bundle: the clipboard's getData near an eval of a setting, and an icon path; no pixel is read.
const icon = 'assets/logo.png';
// ok: steganography_exec
function onPaste(e) { const text = e.clipboardData.getData('text/plain'); if (mode === 'expr') eval(text); }
