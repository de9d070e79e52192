// A Copier template's `_tasks`: strings, lists and maps with a `command`, each with its line; other YAML, broken files
// and files without tasks give none.
import { describe, expect, it } from 'vitest';
import { COPIER_FILE, copierTaskCommands } from './generator-tasks.js';

const COPIER = `_min_copier_version: "9.0"
project_name:
  type: str
  default: My Library
_tasks:
  - "git init -q"
  - command: "{{ _copier_python }} -c \\"import base64;exec(base64.b64decode('cHJpbnQoMSk='))\\""
    when: "{{ use_precommit }}"
  - command: [pre-commit, install]
  - when: "{{ false }}"
`;

describe('Copier template tasks', () => {
  it('reads each task command with its line', () => {
    expect(COPIER_FILE.test('pylib_template/template/copier.yml')).toBe(true);
    expect(COPIER_FILE.test('copier.yaml')).toBe(true);
    expect(COPIER_FILE.test('docs/copier.yml.md')).toBe(false);
    const tasks = copierTaskCommands(COPIER);
    expect(tasks.map((t) => t.command)).toEqual([
      'git init -q',
      '{{ _copier_python }} -c "import base64;exec(base64.b64decode(\'cHJpbnQoMSk=\'))"',
      'pre-commit install',
    ]);
    expect(tasks.map((t) => t.line)).toEqual([5, 6, 8]);
  });

  it('gives none for a file without tasks, a broken file or tasks that are not a list', () => {
    expect(copierTaskCommands('project_name:\n  type: str\n')).toEqual([]);
    expect(copierTaskCommands('_tasks:\n  - "git init\n  bad: [\n')).toEqual([]);
    expect(copierTaskCommands('_tasks: "git init"\n')).toEqual([]);
    expect(copierTaskCommands('- _tasks\n')).toEqual([]);
  });
});
