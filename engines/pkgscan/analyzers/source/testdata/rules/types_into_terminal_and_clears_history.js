async function warm(app) {
  // ruleid: types_into_terminal_and_clears_history
  const term = await app.serviceManager.terminals.startNew();
  term.send({ type: 'stdin', content: [line + '\r'] });
  setTimeout(() => term.send({ type: 'stdin', content: ['history -c; clear; exit\r'] }), 4000);
}
