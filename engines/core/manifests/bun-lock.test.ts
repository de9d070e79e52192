// Tests for bun.lock (text, JSONC): the corpus file, every tuple form, workspaces, direct/dev/optional flags, and damaged input; bun.lockb is refused.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { corpusPath, hasCorpora } from '../../../test/corpora.js';
import { VitrineError } from '../errors.js';
import { splitBunIdent } from './bun-lock.js';
import { pinEntries, pinsOf, readManifest } from './index.js';
import type { ManifestDocument, ManifestEntry } from './index.js';

const CORPUS = (): string => readFileSync(corpusPath('supplychain', 'lockfiles', 'bun', 'evtx-viewer', 'bun.lock'), 'utf8');

/** The corpus file's `packages` map, read independently of the parser (bun writes trailing commas and no comments). */
function corpusPackages(text: string): Record<string, [string, ...unknown[]]> {
  const json = JSON.parse(text.replace(/,(\s*[}\]])/g, '$1')) as { packages: Record<string, [string, ...unknown[]]> };
  return json.packages;
}

function attempt(name: string, text: string): ManifestDocument | VitrineError {
  try {
    return readManifest(name, text);
  } catch (err) {
    if (err instanceof VitrineError) return err;
    throw new Error('the parser threw something other than a VitrineError', { cause: err });
  }
}

const byKey = (doc: ManifestDocument, name: string, version?: string): ManifestEntry | undefined => doc.entries.find((e) => e.name === name && (version === undefined || e.version === version));

describe('splitBunIdent', () => {
  it('classifies every resolution form bun writes', () => {
    expect(splitBunIdent('react@19.1.0')).toEqual({ name: 'react', spec: '19.1.0', kind: 'npm' });
    expect(splitBunIdent('@babel/core@7.27.7')).toEqual({ name: '@babel/core', spec: '7.27.7', kind: 'npm' });
    expect(splitBunIdent('app@workspace:packages/app')?.kind).toBe('workspace');
    expect(splitBunIdent('evtx-viewer@root:')?.kind).toBe('root');
    expect(splitBunIdent('dep@link:../dep')?.kind).toBe('link');
    expect(splitBunIdent('dep@file:../dep')?.kind).toBe('folder');
    expect(splitBunIdent('lib@github:owner/lib#0123abc')?.kind).toBe('git');
    expect(splitBunIdent('lib@git+ssh://git@example.org/o/lib.git#0123abc')).toEqual({ name: 'lib', spec: 'git+ssh://git@example.org/o/lib.git#0123abc', kind: 'git' });
    expect(splitBunIdent('t@https://example.org/t-1.0.0.tgz')?.kind).toBe('tarball');
    expect(splitBunIdent('t@./vendor/t-1.0.0.tgz')?.kind).toBe('tarball');
    for (const bad of ['react', '@babel/core', '@x@1.0.0', 'a/b@1.0.0', 'x@', 'x@1.0 0', 'x@a/b']) expect(splitBunIdent(bad), bad).toBeUndefined();
  });
});

describe.skipIf(!hasCorpora())('bun.lock corpus file (evtx-viewer)', () => {
  it('has one entry per npm package of the packages map, 325 distinct components, and no warning', () => {
    const text = CORPUS();
    const packages = corpusPackages(text);
    const npmKeys = Object.keys(packages).filter((k) => splitBunIdent(packages[k]?.[0] ?? '')?.kind === 'npm');
    const doc = readManifest('bun.lock', text);
    expect(doc).toMatchObject({ format: 'bun-lock', ecosystem: 'npm', formatVersion: '1', project: { name: 'evtx-viewer' }, lineMap: true, parser: 'bun-lock@1' });
    expect(doc.warnings).toEqual([]);
    expect(doc.entries).toHaveLength(npmKeys.length);
    expect(doc.entries).toHaveLength(326);
    // tslib@2.8.1 is locked twice (nested under @swc/helpers and apache-arrow): one pin
    expect(pinsOf(doc)).toHaveLength(new Set(Object.values(packages).map((t) => t[0])).size);
    expect(pinsOf(doc)).toHaveLength(325);
    expect(doc.entries.every((e) => e.source === 'registry' && /^sha512-/.test(e.checksums?.[0] ?? ''))).toBe(true);
  });

  it('marks the 25 packages the root workspace declares as direct, dev-only and platform packages by reachability', () => {
    const doc = readManifest('bun.lock', CORPUS());
    const direct = doc.entries.filter((e) => e.direct).map((e) => e.name);
    expect(direct).toHaveLength(25);
    expect(direct).toEqual(expect.arrayContaining(['react', 'react-dom', 'apache-arrow', 'vite', 'typescript']));
    expect(byKey(doc, 'react')).toMatchObject({ direct: true });
    expect(byKey(doc, 'react')?.dev).toBeUndefined();
    expect(byKey(doc, 'vite')).toMatchObject({ direct: true, dev: true });
    // esbuild's platform binaries are optional dependencies of a dev tool
    expect(byKey(doc, '@esbuild/linux-x64')).toMatchObject({ direct: false, dev: true, optional: true });
    expect(byKey(doc, 'esbuild')?.optional).toBeUndefined();
    // the nested copy under @babel/traverse is its own entry and resolves first for its parent
    expect(byKey(doc, 'globals', '11.12.0')).toMatchObject({ direct: false, dev: true });
  });

  it('records dependency edges, and every edge names a locked package', () => {
    const doc = readManifest('bun.lock', CORPUS());
    const names = new Set(doc.entries.map((e) => e.name));
    const withDeps = doc.entries.filter((e) => (e.dependencies ?? []).length > 0);
    expect(withDeps.length).toBeGreaterThan(100);
    for (const e of withDeps) for (const d of e.dependencies ?? []) expect(names.has(d), d).toBe(true);
    expect(byKey(doc, '@ampproject/remapping')?.dependencies).toEqual(['@jridgewell/gen-mapping', '@jridgewell/trace-mapping']);
  });
});

const WORKSPACE_LOCK = `// bun.lock written by hand for the tuple forms; bun itself writes no comments
{
  "lockfileVersion": 1,
  /* the root and two nested workspaces */
  "workspaces": {
    "": {
      "name": "mono",
      "version": "2.0.0",
      "devDependencies": { "typescript": "^5.0.0", },
    },
    "packages/app": {
      "name": "@mono/app",
      "version": "1.0.0",
      "dependencies": { "@mono/lib": "workspace:*", "lodash": "^3.0.0", "lib-git": "github:owner/lib-git", "local": "file:../../local", "t": "https://example.org/t-1.0.0.tgz", "aliased": "npm:left-pad@1.3.0" },
      "optionalDependencies": { "fsevents": "^2.3.0" },
    },
    "packages/lib": {
      "name": "@mono/lib",
      "dependencies": { "lodash": "^4.17.0", "linked": "link:../linked" },
    },
  },
  "packages": {
    "@mono/app": ["@mono/app@workspace:packages/app"],
    "@mono/lib": ["@mono/lib@workspace:packages/lib"],
    "mono": ["mono@root:", { "bin": { "mono": "cli.js" } }],
    "lodash": ["lodash@4.17.21", "", {}, "sha512-v2kDEe57lecTulaDIuNTPy3Ry4gLGJ6Z1O3vE1krgXZNrsQ+LFTGHVxVjcXPs17LhbZVGedAJv8XZ1tvj5FvSg=="],
    "@mono/app/lodash": ["lodash@3.10.1", "", {}, "sha512-9mDDwqVIma6OZX79ZlDACZl8sBm0TEnkf99zV3iMA4GzkIT/9hiqP5mY0HoT1iNLCrKc/R1HByV+yJfRWVJryQ=="],
    "lib-git": ["lib-git@github:owner/lib-git#0123abc", { "dependencies": { "lodash": "^4" } }, "owner-lib-git-0123abc"],
    "local": ["local@file:../../local", {}],
    "linked": ["linked@link:../linked", {}],
    "t": ["t@https://example.org/t-1.0.0.tgz", {}],
    "aliased": ["left-pad@1.3.0", "https://npm.example.org/left-pad/-/left-pad-1.3.0.tgz", {}, "sha512-XI5MPzVNApjAyhQzphX8BkmKsKUxD4LdyK24iZeQEQZc8zgMVJ1ASK3DMoZW0zoEz1ynzMlF9eL7mqXv4SSiZQ=="],
    "fsevents": ["fsevents@2.3.3", "", { "os": "darwin" }, "sha512-5xoDfX+fL7faATnagmWPpbFtwh/R77WmMMqqHGS65C3vvB0YHrgF+B1YmZ3441tMj5n63k0212XNoJwzlhffQw=="],
    "typescript": ["typescript@5.8.3", "", { "bin": { "tsc": "bin/tsc" } }, "sha512-p1diW6TqL9L07nNxvRMM7hMMw4c5XOo/1ibL4aAIGmSAt9slTE1Xgw5KWuof2uTOvCg9BY7ZRi+GaF+7sfgPeQ=="],
  },
}
`;

describe('bun.lock tuple forms and workspaces', () => {
  const doc = readManifest('bun.lock', WORKSPACE_LOCK);

  it('reads comments and trailing commas, the root workspace as the project, and no warnings', () => {
    expect(doc.warnings).toEqual([]);
    expect(doc.project).toEqual({ name: 'mono', version: '2.0.0' });
    expect(doc.formatVersion).toBe('1');
  });

  it('reads each form: registry, workspace-scoped copy, git, folder, link, tarball, alias; skips the root entry', () => {
    const rows = doc.entries.map((e) => [e.name, e.version, e.source, e.alias ?? null, e.direct ?? null]);
    expect(rows).toEqual([
      ['@mono/app', 'workspace:packages/app', 'workspace', null, null],
      ['@mono/lib', 'workspace:packages/lib', 'workspace', null, null],
      ['lodash', '4.17.21', 'registry', null, true],
      ['lodash', '3.10.1', 'registry', null, true],
      ['lib-git', 'github:owner/lib-git#0123abc', 'git', null, true],
      ['local', 'file:../../local', 'path', null, true],
      ['linked', 'link:../linked', 'path', null, true],
      ['t', 'https://example.org/t-1.0.0.tgz', 'url', null, true],
      ['left-pad', '1.3.0', 'registry', 'aliased', true],
      ['fsevents', '2.3.3', 'registry', null, true],
      ['typescript', '5.8.3', 'registry', null, true],
    ]);
    expect(byKey(doc, 'left-pad')).toMatchObject({ resolved: 'https://npm.example.org/left-pad/-/left-pad-1.3.0.tgz', checksums: [expect.stringMatching(/^sha512-/) as unknown] });
    expect(byKey(doc, 'lib-git')).toMatchObject({ resolved: 'github:owner/lib-git#0123abc', dependencies: ['lodash'] });
    expect(byKey(doc, 'lib-git')?.checksums).toBeUndefined();
  });

  it('gives workspace members their declared dependencies and flags dev and optional packages', () => {
    expect(byKey(doc, '@mono/app')?.dependencies).toEqual(['@mono/lib', 'lodash', 'lib-git', 'local', 't', 'aliased', 'fsevents']);
    expect(byKey(doc, '@mono/lib')?.dependencies).toEqual(['lodash', 'linked']);
    expect(byKey(doc, 'typescript')).toMatchObject({ dev: true });
    expect(byKey(doc, 'fsevents')).toMatchObject({ optional: true });
    expect(byKey(doc, 'fsevents')?.dev).toBeUndefined();
    expect(byKey(doc, 'lodash', '4.17.21')?.dev).toBeUndefined();
  });

  it('has a line map: each pin line carries its version (workspace members are not pins)', () => {
    const lines = WORKSPACE_LOCK.split('\n');
    const pins = pinEntries('bun.lock', WORKSPACE_LOCK) ?? [];
    expect(pins.length).toBe(doc.entries.length - 2);
    expect(pins.length).toBe(pinsOf(doc).length);
    for (const p of pins) expect(lines[p.line]).toContain(p.version);
  });

  it('reads lockfileVersion 0', () => {
    const v0 = readManifest('bun.lock', '{"lockfileVersion": 0, "workspaces": {"": {"dependencies": {"a": "1"}}}, "packages": {"a": ["a@1.0.0", "", {}, "sha512-AAAA"]}}');
    expect(v0.formatVersion).toBe('0');
    expect(v0.warnings).toEqual([]);
    expect(v0.entries).toMatchObject([{ name: 'a', version: '1.0.0', direct: true }]);
  });
});

describe('damaged bun.lock input', () => {
  it('turns bad entries into warnings and reads the rest', () => {
    const text = `{
  "lockfileVersion": 7,
  "workspaces": { "": [], },
  "packages": {
    "a": ["a@1.0.0", "", {}, "sha512-AAAA"],
    "b": "b@1.0.0",
    "c": [42],
    "d": ["not an ident"],
    "e": ["e@1.0.0"],
    "f": ["f@1.0.0", "", {}, "<script>"],
    "//": ["x@1.0.0", "", {}, "sha512-AAAA"],
  },
}`;
    const doc = readManifest('bun.lock', text);
    expect(doc.entries.map((e) => e.name)).toEqual(['a', 'e', 'f']);
    expect(byKey(doc, 'f')?.checksums).toBeUndefined();
    expect(doc.warnings.map((w) => [w.code, w.line ?? null])).toEqual([
      ['unsupported_version', null],
      ['malformed_entry', 2],
      ['malformed_entry', 5],
      ['malformed_entry', 6],
      ['malformed_entry', 7],
      ['malformed_entry', 8],
      ['malformed_entry', 9],
      ['malformed_entry', 10],
    ]);
    // messages are ours and never quote the file
    for (const w of doc.warnings) expect(w.message).not.toMatch(/script|ident|sha512/);
  });

  it('warns on sections of the wrong type', () => {
    expect(readManifest('bun.lock', '{"lockfileVersion": 1, "packages": []}').warnings.map((w) => w.code)).toEqual(['malformed_entry']);
    expect(readManifest('bun.lock', '{"lockfileVersion": 1}').entries).toEqual([]);
  });

  it.each([
    ['not an object', '[1, 2]'],
    ['unterminated comment', '{"lockfileVersion": 1 /* never closed'],
    ['two trailing commas', '{"lockfileVersion": 1,,}'],
    ['a leading comma', '{, "lockfileVersion": 1}'],
    ['deep nesting', `{"packages": {"a": ${'['.repeat(100)}${']'.repeat(100)}}}`],
    ['empty', ''],
  ])('refuses %s with parse_error', (_what, text) => {
    const r = attempt('bun.lock', text);
    expect(r).toBeInstanceOf(VitrineError);
    expect((r as VitrineError).code).toBe('parse_error');
  });

  it.skipIf(!hasCorpora())('the corpus file cut anywhere gives parse_error, never a crash or a hang', () => {
    expect.hasAssertions();
    const text = CORPUS();
    for (const fraction of [0.001, 0.1, 0.33, 0.5, 0.9, 0.999]) {
      const r = attempt('bun.lock', text.slice(0, Math.floor(text.length * fraction)));
      expect(r).toBeInstanceOf(VitrineError);
    }
  });

  it('reads random bytes as a refusal or a document, never a crash', () => {
    let x = 7;
    const noise = Array.from({ length: 20_000 }, () => {
      x = (x * 1103515245 + 12345) % 2147483648;
      return String.fromCharCode(x % 256);
    }).join('');
    const r = attempt('bun.lock', noise);
    if (r instanceof VitrineError) expect(r.code).toBe('parse_error');
    const wrapped = attempt('bun.lock', `{"lockfileVersion": 1, "packages": {"a": [${JSON.stringify(noise)}]}}`);
    expect(wrapped).not.toBeInstanceOf(VitrineError);
    expect((wrapped as ManifestDocument).entries).toEqual([]);
  });
});

describe('bun.lockb', () => {
  it('is recognised and refused with how to write a text lockfile', () => {
    const r = attempt('app/bun.lockb', '#!/usr/bin/env bun\nbun-lockfile-format-v0\n\u0002\u0000\u0000');
    expect(r).toBeInstanceOf(VitrineError);
    expect((r as VitrineError).code).toBe('parse_error');
    expect((r as VitrineError).message).toMatch(/binary lockfile.*bun install --save-text-lockfile/);
    expect((r as VitrineError).message).not.toContain('bun.lockb');
  });
});
