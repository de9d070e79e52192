// Command lines written as argument lists (`["curl", "-s", "-F", "f=@" + zip, url]`, `spawn('security',
// ['find-generic-password', '-wa', 'Chrome'])`): the literals of a list that starts with a program's name are read
// joined by spaces, as the command line they make, so the rules written against command lines read them too.
import type { Edit } from './aliases.js';
import { stringLiterals } from './glue.js';

/** Programs whose command lines the rules read (a path before the name, or `.exe` after it, allowed). */
const PROGRAM = /^(?:[\w.:\\/-]{0,80}[\\/])?(?:curl|wget|security|osascript|ditto|xattr|launchctl|codesign|spctl|chflags|tccutil|defaults|PlistBuddy|dscl|sh|bash|zsh|nohup|powershell|pwsh|cmd|reg|schtasks|sc|net|netsh|systemctl|crontab|sqlite3|scp|rsync|nc|ncat|base64|openssl|certutil|bitsadmin|mshta|rundll32|regsvr32|wmic|taskkill|kubectl|aws|gcloud|az|git|docker|sudo|killall|pkill|open|screencapture|networksetup|profiles|python3?|node|perl|ruby)(?:\.exe)?$/i;
/** The running interpreter named as a list's program, just before its first literal. */
const INTERPRETER = /\b(sys\.executable|process\.execPath)\s*,\s*(?:\[\s*)?$/;
const MAX_EDITS = 200;
const PROCESS_CALL = /\b(?:subprocess|Popen|spawn\w*|exec\w*|execFile\w*|check_output|check_call|getoutput|system|popen|run)\s*\(|\bsubprocess\b/;

/** The edits that write each argument list of a program's literals as one literal, quoted as the first was. */
export function argvEdits(code: string, language: 'javascript' | 'python'): Edit[] {
  // only files that start processes hand argument lists to them
  if (!PROCESS_CALL.test(code) || !/['"`]\s*,\s*['"`]/.test(code)) return [];
  const lits = stringLiterals(code, language);
  const edits: Edit[] = [];
  for (let i = 0; i < lits.length && edits.length < MAX_EDITS; i++) {
    const first = lits[i]!;
    const before = code.slice(Math.max(0, first.start - 40), first.start);
    // the list's first item: after `[` or `(` (a program and its arguments: `spawn('security', [...])` reads the
    // program and the list's first item as neighbours too)
    if (!/[[(,]\s*$/.test(before) || first.quote === '`' || /[rRbBfF]/.test(first.prefix)) continue;
    const body = code.slice(first.bodyStart, first.bodyEnd);
    // `[sys.executable, '-m', 'twine', 'upload']`, `spawn(process.execPath, ['-e', code])`: the running interpreter
    const self = INTERPRETER.exec(before)?.[1];
    if (self === undefined && !PROGRAM.test(body)) continue;
    const parts = self === undefined ? [body] : [self === 'sys.executable' ? 'python' : 'node', body];
    let last = first;
    let j = i + 1;
    for (; j < lits.length; j++) {
      const next = lits[j]!;
      const gap = code.slice(last.end, next.start);
      // `'security', ['find-generic-password', ...` : a program and its list, or the next item of the same list
      const g = gap.replace(/\s+/g, '');
      if ((g !== ',' && g !== ',[') || next.quote === '`' || /[rRbBfF]/.test(next.prefix)) break;
      const b = code.slice(next.bodyStart, next.bodyEnd);
      if (b.includes('\n')) break;
      parts.push(b);
      last = next;
    }
    if (parts.length < (self === undefined ? 2 : 3)) continue;
    const joined = parts.join(' ');
    if (joined.includes(first.quote) && !/\\/.test(joined)) continue;
    // the brackets the run crossed stay balanced: a `[` opened between a program and its list is kept before it
    const opened = (code.slice(first.end, last.start).match(/\[/g) ?? []).length;
    // a list that goes on with values (`'-o', b, url]`) reads as a command line built on with them: `'curl -o ' + b`
    const more = /^\s*,/.test(code.slice(last.end, last.end + 20));
    edits.push({ at: first.start, end: last.end, text: `${'['.repeat(opened)}${first.quote}${joined}${more ? ' ' : ''}${first.quote}` });
    i = j - 1;
  }
  return edits;
}
