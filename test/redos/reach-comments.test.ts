/**
 * provgate reach: the readers of pip-compile's `# via` comments answer what their old patterns answered, over generated
 * lines that mix blanks, lone line terminators, `#` and `via`; the attack shape (a long blank run before a lone \r)
 * runs in a child with a generous deadline (a hang check, not a timing assertion).
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { indentedComment, inlineVia } from '../../engines/provgate/reach.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const OLD_INLINE = /#\s*via\s+(.+)$/;
const OLD_COMMENT = /^\s+#\s*(.*)$/;
const OLD_REQ = /^([A-Za-z0-9][A-Za-z0-9._-]*)\s*(?:\[[^\]]*\])?\s*==/;
const NEW_REQ = /^([A-Za-z0-9][A-Za-z0-9._-]*)\s*(?:\[[^\]]*\]\s*)?==/;

describe('reach comment readers', () => {
  it('answer what the old patterns answered', () => {
    let s = 17;
    const next = (): number => { s = (s * 1103515245 + 12345) & 0x7fffffff; return s; };
    const pieces = [' ', '\t', '\r', '\u2028', '#', 'via', 'a', ',', 'x=', '==', '[b]', 'vi'];
    const lines = ['    # via', '    # via a', 'a==1  # via b, c', 'a==1 # via  ', 'a==1 # via \r', '  #  via x\r', '# via \rx', '#via\t\t'];
    for (let i = 0; i < 60_000; i++) {
      let t = '';
      const n = next() % 9;
      for (let j = 0; j < n; j++) t += pieces[next() % pieces.length] as string;
      lines.push(t);
    }
    for (const line of lines) {
      expect(inlineVia(line), JSON.stringify(line)).toBe(OLD_INLINE.exec(line)?.[1]);
      expect(indentedComment(line), JSON.stringify(line)).toBe(OLD_COMMENT.exec(line)?.[1]);
      expect(NEW_REQ.exec(line)?.[1], JSON.stringify(line)).toBe(OLD_REQ.exec(line)?.[1]);
    }
  });

  it('finish on a long blank run before text that a lone \\r ends', () => {
    const script = `import { inlineVia, indentedComment } from './engines/provgate/reach.ts';
import { readFileSync } from 'node:fs';
const t = readFileSync(0, 'utf8');
process.stdout.write(String(inlineVia('# via' + t)) + ' ' + String(indentedComment(' #' + t)));`;
    const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: ROOT, input: ' '.repeat(150_000) + 'x\r', encoding: 'utf8', timeout: 15_000 });
    expect(r.error).toBeUndefined();
    expect(r.stdout).toBe('undefined undefined');
  }, 60_000);
});
