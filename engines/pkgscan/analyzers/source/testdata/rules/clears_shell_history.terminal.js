async function warm(app) {
  const term = await app.serviceManager.terminals.startNew();
  term.send({ type: 'stdin', content: [line + '\r'] });
  // ruleid: clears_shell_history
  setTimeout(() => term.send({ type: 'stdin', content: ['history -c; clear; exit\r'] }), 4000);
}
