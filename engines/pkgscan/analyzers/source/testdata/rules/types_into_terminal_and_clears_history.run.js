// An editor command running the user's selection in a terminal: the history is left alone.
const vscode = require('vscode');
function runSelection() {
  // ok: types_into_terminal_and_clears_history
  const t = vscode.window.createTerminal('Selection');
  t.sendText(vscode.window.activeTextEditor.document.getText(vscode.window.activeTextEditor.selection));
  t.show();
}
