import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { compare, describeFinding, findInProduct, findInProgram, findInUntyped, readAllowList, type AllowEntry, type Finding } from './own-keys.js';

const VIRTUAL_ROOT = '/virtual';

/** One source file type-checked in memory (with the ES2022 library), as the product's programs are. */
function programOf(text: string): ts.Program {
  const file = `${VIRTUAL_ROOT}/engines/sample.ts`;
  const options: ts.CompilerOptions = { strict: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, lib: ['lib.es2022.d.ts'], types: [], noEmit: true };
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  const fileExists = host.fileExists.bind(host);
  const readFile = host.readFile.bind(host);
  host.getSourceFile = (name, language, onError, fresh) => (name === file ? ts.createSourceFile(name, text, language) : getSourceFile(name, language, onError, fresh));
  host.fileExists = (name) => name === file || fileExists(name);
  host.readFile = (name) => (name === file ? text : readFile(name));
  return ts.createProgram([file], options, host);
}

const found = (text: string): { function: string; expression: string }[] =>
  findInProgram(programOf(text), VIRTUAL_ROOT).map((f) => ({ function: f.function, expression: f.expression }));

const SAMPLE = `
type Kind = 'process' | 'file';
type Name = string & { readonly brand: 'Name' };
const FIXED = { a: 1, b: 2 };

export function build(keys: string[], kinds: Kind[], numbers: number[], list: string[], table: Record<string, number>, name: Name): Record<string, number> {
  const out: Record<string, number> = {};
  for (const k of keys) out[k] = 1;
  for (const k of keys) out[k] ??= 2;
  for (const k of keys) table[k]++;
  for (const k of keys) if (k in table) out['seen'] = 1;
  for (const k of keys) if (k in FIXED) out['fixed'] = 1;
  for (const k of keys) [out[k]] = [3];
  out[name] = 4;
  for (const k of kinds) out[k] = 5;
  for (const i of numbers) out[i] = 6;
  for (const k of keys) out[\`x:\${k}\` as const] = 7;
  for (const k of keys) list[Number(k)] = k;
  for (const k of keys) delete out[k];
  const bare: Record<string, number> = Object.create(null);
  for (const k of keys) bare[k] = 8;
  for (const k of keys) if (k in bare) bare['seen'] = 1;
  let later: Record<string, number> = Object.create(null);
  later = {};
  for (const k of keys) later[k] = 9;
  return out;
}

export class Store {
  private readonly byName: { [name: string]: string } = {};
  put(k: string): void {
    this.byName[k] = k;
  }
}

export const tally = (codes: readonly string[]): Record<string, number> => {
  const counts: Record<string, number> = {};
  codes.forEach((c) => {
    counts[c] = (counts[c] ?? 0) + 1;
  });
  return counts;
};
`;

describe('the own-keys check', () => {
  it('reports the unguarded writes and in tests of a sample, and lets the safe forms be', () => {
    expect(found(SAMPLE)).toEqual([
      { function: 'build', expression: 'out[k] =' },
      { function: 'build', expression: 'out[k] ??=' },
      { function: 'build', expression: 'table[k]++' },
      { function: 'build', expression: 'k in table' },
      { function: 'build', expression: 'k in FIXED' },
      { function: 'build', expression: 'out[k] (destructuring target)' },
      { function: 'build', expression: 'out[name] =' },
      { function: 'build', expression: 'later[k] =' },
      { function: 'Store.put', expression: 'this.byName[k] =' },
      { function: 'tally', expression: 'counts[c] =' },
    ]);
  });

  it('passes the same sample written with setOwn, a Map and Object.hasOwn', () => {
    const fixed = `
      function setOwn<V>(obj: Record<string, V>, key: string, value: V): void { Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true }); }
      export function build(keys: string[], table: Record<string, number>): Map<string, number> {
        const out: Record<string, number> = {};
        const counts = new Map<string, number>();
        for (const k of keys) setOwn(out, k, 1);
        for (const k of keys) counts.set(k, (counts.get(k) ?? 0) + 1);
        for (const k of keys) if (Object.hasOwn(table, k)) counts.set(k, 0);
        return counts;
      }`;
    expect(found(fixed)).toEqual([]);
  });

  it('reports every written element and in test with a non-literal key in an untyped launcher', () => {
    const text = "const o = {};\no[process.argv[2]] = 1;\no['a'] = 2;\nif (process.argv[3] in o) o[0] = 3;\nfunction f(k) { o[k] += 1; }\n";
    expect(findInUntyped('bin/sample', text).map((f) => [f.function, f.expression, f.line])).toEqual([
      ['(top level)', 'o[process.argv[2]] =', 2],
      ['(top level)', 'process.argv[3] in o', 4],
      ['f', 'o[k] +=', 5],
    ]);
  });

  it('fails on an unlisted place, a stale entry, a listed-twice entry and one without a reason', () => {
    const f = (expression: string): Finding => ({ file: 'engines/a.ts', function: 'build', expression, line: 3 });
    const e = (expression: string, reason = 'our own names'): AllowEntry => ({ file: 'engines/a.ts', function: 'build', expression, reason });
    const result = compare([f('out[k] ='), f('out[k] ='), f('counts[c] =')], [e('out[k] ='), e('gone[k] ='), e('out[k] ='), e('counts[c] =', ' ')]);
    expect(result.unlisted).toEqual([]);
    expect(result.stale).toEqual([e('gone[k] =')]);
    expect(result.malformed).toEqual([e('out[k] ='), e('counts[c] =', ' ')]);
    expect(compare([f('out[k] =')], []).unlisted.map(describeFinding)).toEqual(['engines/a.ts:3 in build: out[k] =']);
  });

  // Type-checks engines/, main/, preload/ and renderer/ (two programs): tens of seconds on a loaded two-core machine.
  it('finds in the product code only the places the allow-list names, and every entry still names one', { timeout: 300_000 }, async () => {
    const { unlisted, stale, malformed } = compare(await findInProduct(), readAllowList());
    expect(unlisted.map(describeFinding)).toEqual([]);
    expect(stale).toEqual([]);
    expect(malformed).toEqual([]);
  });
});
