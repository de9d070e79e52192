// Tests for the Cypher writer: escaping checked by a reference lexer, injection attempts, unicode, and idempotent MERGE scripts.
import { describe, expect, it } from 'vitest';
import { VitrineError } from './errors.js';
import { cypherIdentifier, cypherMap, cypherNumber, cypherString, cypherValue, toCypher, type CypherGraph } from './cypher.js';

type Token = { kind: 'string'; value: string } | { kind: 'name'; value: string } | { kind: 'code'; text: string } | { kind: 'comment'; text: string };

/** A small lexer following the Cypher manual's rules for strings, backtick names and comments: what Neo4j would read. */
function lex(script: string): Token[] {
  const tokens: Token[] = [];
  let code = '';
  const flush = (): void => {
    if (code !== '') tokens.push({ kind: 'code', text: code });
    code = '';
  };
  let i = 0;
  while (i < script.length) {
    const ch = script[i] ?? '';
    if (ch === "'" || ch === '"') {
      flush();
      let value = '';
      i++;
      for (;;) {
        if (i >= script.length) throw new Error('unterminated string');
        const c = script[i] ?? '';
        if (c === ch) {
          i++;
          break;
        }
        if (c === '\n' || c === '\r') throw new Error('raw line break inside a string');
        if (c === '\\') {
          const e = script[i + 1] ?? '';
          const simple: Record<string, string> = { '\\': '\\', "'": "'", '"': '"', t: '\t', b: '\b', n: '\n', r: '\r', f: '\f' };
          if (e in simple) {
            value += simple[e];
            i += 2;
          } else if (e === 'u') {
            const hex = script.slice(i + 2, i + 6);
            if (!/^[0-9a-fA-F]{4}$/.test(hex)) throw new Error('bad \\u escape');
            value += String.fromCharCode(parseInt(hex, 16));
            i += 6;
          } else throw new Error('unknown escape');
          continue;
        }
        value += c;
        i++;
      }
      tokens.push({ kind: 'string', value });
    } else if (ch === '`') {
      flush();
      let value = '';
      i++;
      for (;;) {
        if (i >= script.length) throw new Error('unterminated name');
        const c = script[i] ?? '';
        if (c === '`') {
          if (script[i + 1] === '`') {
            value += '`';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        value += c;
        i++;
      }
      tokens.push({ kind: 'name', value });
    } else if (script.startsWith('//', i)) {
      flush();
      const end = script.indexOf('\n', i);
      const stop = end === -1 ? script.length : end;
      tokens.push({ kind: 'comment', text: script.slice(i, stop) });
      i = stop;
    } else if (script.startsWith('/*', i)) {
      flush();
      const end = script.indexOf('*/', i + 2);
      const stop = end === -1 ? script.length : end + 2;
      tokens.push({ kind: 'comment', text: script.slice(i, stop) });
      i = stop;
    } else {
      code += ch;
      i++;
    }
  }
  flush();
  return tokens;
}

const strings = (script: string): string[] => lex(script).flatMap((t) => (t.kind === 'string' ? [t.value] : []));
const codeText = (script: string): string =>
  lex(script)
    .map((t) => (t.kind === 'code' ? t.text : t.kind === 'comment' ? t.text : ' '))
    .join('');

describe('cypherString', () => {
  it('quotes plain text as is', () => {
    expect(cypherString('hello world')).toBe("'hello world'");
    expect(cypherString('')).toBe("''");
  });

  it('escapes backslash and quotes', () => {
    expect(cypherString("O'Brien")).toBe("'O\\'Brien'");
    expect(cypherString('C:\\Windows\\System32')).toBe("'C:\\\\Windows\\\\System32'");
    expect(cypherString('say "hi"')).toBe("'say \\\"hi\\\"'");
    expect(cypherString("\\'")).toBe("'\\\\\\''");
  });

  it('writes control and line-separator characters as \\uXXXX', () => {
    expect(cypherString('a\nb\r\tc\u0000\u001b\u007f\u0085\u2028\u2029')).toBe("'a\\u000ab\\u000d\\u0009c\\u0000\\u001b\\u007f\\u0085\\u2028\\u2029'");
  });

  it('keeps unicode, and escapes only lone surrogates', () => {
    expect(cypherString('Ünïcödé 中文 😀 مرحبا')).toBe("'Ünïcödé 中文 😀 مرحبا'");
    expect(cypherString('a\ud800b\udc00')).toBe("'a\\ud800b\\udc00'");
  });

  it('round-trips every character through the reference lexer', () => {
    let all = '';
    for (let c = 0; c < 0x3000; c++) if (c < 0xd800 || c > 0xdfff) all += String.fromCharCode(c);
    all += "😀\\'\\\\'`";
    expect(strings(cypherString(all))).toEqual([all]);
    expect(cypherString(all)).not.toMatch(/[\n\r]/);
  });
});

describe('cypherIdentifier', () => {
  it('leaves plain names alone', () => {
    expect(cypherIdentifier('Actor')).toBe('Actor');
    expect(cypherIdentifier('_private9')).toBe('_private9');
  });

  it('quotes anything else, doubling backticks', () => {
    expect(cypherIdentifier('intrusion-set')).toBe('`intrusion-set`');
    expect(cypherIdentifier('has space')).toBe('`has space`');
    expect(cypherIdentifier('9lives')).toBe('`9lives`');
    expect(cypherIdentifier('a`b')).toBe('`a``b`');
    expect(cypherIdentifier('`')).toBe('````');
    expect(cypherIdentifier('Ünïcödé')).toBe('`Ünïcödé`');
    expect(cypherIdentifier('MATCH')).toBe('`MATCH`');
    expect(cypherIdentifier('delete')).toBe('`delete`');
  });

  it('keeps an injection attempt inside one name', () => {
    const evil = 'X`) DETACH DELETE n //';
    const quoted = cypherIdentifier(evil);
    const tokens = lex(`MATCH (n:${quoted}) RETURN n`);
    expect(tokens.filter((t) => t.kind === 'name')).toEqual([{ kind: 'name', value: evil }]);
    expect(tokens.some((t) => t.kind === 'comment')).toBe(false);
  });

  it('refuses empty names, backslashes (\\u0060 decoding) and NUL', () => {
    expect.hasAssertions();
    for (const bad of ['', 'a\\u0060b', 'a\\b', 'a\u0000b', 'x'.repeat(1025)]) expect(() => cypherIdentifier(bad)).toThrow(VitrineError);
  });
});

describe('cypherNumber and cypherValue', () => {
  it('writes numbers Cypher reads back the same', () => {
    expect(cypherNumber(42)).toBe('42');
    expect(cypherNumber(-7)).toBe('-7');
    expect(cypherNumber(-0)).toBe('0');
    expect(cypherNumber(1.5)).toBe('1.5');
    expect(cypherNumber(1e21)).toBe('1e21');
    expect(cypherNumber(1e-7)).toBe('1e-7');
    expect(cypherNumber(2 ** 53)).toBe('9007199254740992.0');
    expect(cypherNumber(Number.MAX_SAFE_INTEGER)).toBe('9007199254740991');
  });

  it('refuses non-finite numbers', () => {
    for (const n of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) expect(() => cypherNumber(n)).toThrow(VitrineError);
    expect(() => cypherMap({ score: Number.NaN })).toThrow(VitrineError);
  });

  it('writes scalars and homogeneous lists', () => {
    expect(cypherValue(null)).toBe('null');
    expect(cypherValue(true)).toBe('true');
    expect(cypherValue(['a', "b'c"])).toBe("['a', 'b\\'c']");
    expect(cypherValue([1, 2.5])).toBe('[1, 2.5]');
    expect(cypherValue([])).toBe('[]');
  });

  it('refuses nested, mixed and null-bearing lists, and objects', () => {
    expect.hasAssertions();
    const bad: unknown[] = [[['x']], [1, 'a'], [null], [{ a: 1 }], { a: 1 }, undefined];
    for (const v of bad) expect(() => cypherValue(v as never)).toThrow(VitrineError);
  });
});

describe('cypherMap', () => {
  it('sorts keys, quotes odd keys and skips undefined', () => {
    expect(cypherMap({ z: 1, a: 'x', 'first seen': '2024', skip: undefined, b: null })).toBe("{a: 'x', b: null, `first seen`: '2024', z: 1}");
    expect(cypherMap({})).toBe('{}');
  });

  it('refuses nested objects', () => {
    expect(() => cypherMap({ a: { b: 1 } as never })).toThrow('Cypher properties hold scalars or lists, not nested objects');
    expect(() => cypherMap([] as never)).toThrow(VitrineError);
  });
});

describe('toCypher', () => {
  const graph: CypherGraph = {
    nodes: [
      { id: 'G0006', labels: ['Actor'], properties: { name: 'APT1', aliases: ['Comment Crew'], score: 0.75 } },
      { id: 'T1059', labels: ['Technique', 'attack-pattern'], properties: { name: 'Command and Scripting Interpreter' } },
      { id: 7, labels: [] },
    ],
    edges: [
      { from: 'G0006', to: 'T1059', type: 'USES', properties: { weight: 2 } },
      { from: 'G0006', to: 7, type: 'related to', properties: { id: 'e1' } },
    ],
  };

  it('writes MERGE statements keyed on id', () => {
    expect(toCypher(graph, { header: 'case C-1\nsecond line' })).toBe(
      [
        '// case C-1 second line',
        "MERGE (n:Actor {id: 'G0006'}) SET n += {aliases: ['Comment Crew'], name: 'APT1', score: 0.75};",
        "MERGE (n:Technique:`attack-pattern` {id: 'T1059'}) SET n += {name: 'Command and Scripting Interpreter'};",
        'MERGE (n {id: 7});',
        "MATCH (a:Actor {id: 'G0006'}), (b:Technique:`attack-pattern` {id: 'T1059'}) MERGE (a)-[r:USES]->(b) SET r += {weight: 2};",
        "MATCH (a:Actor {id: 'G0006'}), (b {id: 7}) MERGE (a)-[r:`related to` {id: 'e1'}]->(b);",
        '',
      ].join('\n'),
    );
  });

  it('is deterministic, so running it twice merges the same things', () => {
    expect(toCypher(graph)).toBe(toCypher(graph));
    expect(toCypher({ nodes: [], edges: [] })).toBe('');
  });

  it('adds uniqueness constraints per label on request', () => {
    const script = toCypher(graph, { constraints: true });
    expect(script.split('\n').slice(0, 3)).toEqual([
      'CREATE CONSTRAINT IF NOT EXISTS FOR (n:Actor) REQUIRE n.id IS UNIQUE;',
      'CREATE CONSTRAINT IF NOT EXISTS FOR (n:Technique) REQUIRE n.id IS UNIQUE;',
      'CREATE CONSTRAINT IF NOT EXISTS FOR (n:`attack-pattern`) REQUIRE n.id IS UNIQUE;',
    ]);
  });

  it('keeps injection attempts in node names, ids, labels and types inside literals', () => {
    const evil = "'}) DETACH DELETE n //";
    const script = toCypher({
      nodes: [
        { id: evil, labels: ['Host', 'evil`) DETACH DELETE n //'], properties: { name: evil, path: 'C:\\evil\\\'; DROP', note: 'line1\n MATCH (m) DETACH DELETE m' } },
        { id: 'b\\', labels: ['Host'], properties: { name: '\\' } },
      ],
      edges: [{ from: evil, to: 'b\\', type: "REL']->() DELETE r //", properties: { why: evil } }],
    });
    const code = codeText(script);
    expect(code).not.toMatch(/DELETE|DROP|\/\//);
    expect(lex(script).some((t) => t.kind === 'comment')).toBe(false);
    expect(script.trim().split('\n')).toHaveLength(3);
    const values = strings(script);
    expect(values).toEqual(expect.arrayContaining([evil, 'C:\\evil\\\'; DROP', 'line1\n MATCH (m) DETACH DELETE m', 'b\\', '\\']));
    const names = lex(script).flatMap((t) => (t.kind === 'name' ? [t.value] : []));
    expect(names).toEqual(expect.arrayContaining(['evil`) DETACH DELETE n //', "REL']->() DELETE r //"]));
  });

  it('keeps a header from opening code', () => {
    const script = toCypher({ nodes: [{ id: 1, labels: ['A'] }], edges: [] }, { header: 'x\nMATCH (n) DETACH DELETE n' });
    expect(script.split('\n')[0]).toBe('// x MATCH (n) DETACH DELETE n');
    expect(codeText(script.split('\n').slice(1).join('\n'))).not.toContain('DELETE');
  });

  it('refuses duplicate ids, dangling edges and a conflicting id property', () => {
    expect(() => toCypher({ nodes: [{ id: 'a', labels: [] }, { id: 'a', labels: ['B'] }], edges: [] })).toThrow('two nodes share an id');
    expect(() => toCypher({ nodes: [{ id: 'a', labels: [] }], edges: [{ from: 'a', to: 'zz', type: 'R' }] })).toThrow('not in the graph');
    expect(() => toCypher({ nodes: [{ id: 'a', labels: [], properties: { id: 'b' } }], edges: [] })).toThrow(VitrineError);
    expect(toCypher({ nodes: [{ id: 'a', labels: [], properties: { id: 'a' } }], edges: [] })).toBe("MERGE (n {id: 'a'});\n");
    expect(() => toCypher({ nodes: [{ id: 'a', labels: [''] }], edges: [] })).toThrow(VitrineError);
  });

  it('tells string ids from numeric ids', () => {
    const script = toCypher({ nodes: [{ id: '1', labels: ['A'] }, { id: 1, labels: ['B'] }], edges: [{ from: 1, to: '1', type: 'R' }] });
    expect(script).toContain("MATCH (a:B {id: 1}), (b:A {id: '1'})");
  });

  it('writes properties named after Object.prototype members as properties (an own __proto__ from JSON included)', () => {
    const properties = JSON.parse('{"__proto__": ["x"], "constructor": "c", "name": "n"}') as Record<string, string | string[]>;
    const script = toCypher({ nodes: [{ id: 'a', labels: ['A'], properties }, { id: 'b', labels: ['B'] }], edges: [{ from: 'a', to: 'b', type: 'R', properties }] });
    expect(script).toBe(
      "MERGE (n:A {id: 'a'}) SET n += {__proto__: ['x'], constructor: 'c', name: 'n'};\n" +
        "MERGE (n:B {id: 'b'});\n" +
        "MATCH (a:A {id: 'a'}), (b:B {id: 'b'}) MERGE (a)-[r:R]->(b) SET r += {__proto__: ['x'], constructor: 'c', name: 'n'};\n",
    );
  });
});
