// The format registry: which file names each parser reads, its ecosystem, and the parser itself (after syft's catalogers).
import { parseBunLock, refuseBunLockb } from './bun-lock.js';
import { parseCargoLock } from './cargo-lock.js';
import type { ParseContext } from './context.js';
import { parseGoMod } from './go-mod.js';
import { parseGoSum } from './go-sum.js';
import { parsePackageLock } from './package-lock.js';
import { parsePipfileLock } from './pipfile-lock.js';
import { parsePnpmLock } from './pnpm-lock.js';
import { parsePoetryLock } from './poetry-lock.js';
import { parseRequirements } from './requirements.js';
import type { DeclaredRequirement, Ecosystem, ManifestFormat, ManifestInclude, ManifestOption, ParseOptions } from './types.js';
import { parseUvLock } from './uv-lock.js';
import { parseYarnLock } from './yarn-lock.js';

/** What a format parser hands back before the library assembles the document. */
export interface FormatParse {
  readonly ctx: ParseContext;
  readonly formatVersion?: string;
  readonly lineMap: boolean;
  readonly project?: { readonly name?: string; readonly version?: string };
  readonly requirements?: readonly DeclaredRequirement[];
  readonly includes?: readonly ManifestInclude[];
  readonly options?: readonly ManifestOption[];
}

/** How several entries of one name become pins (the spec's pin rules). */
export type PinRule = 'one-per-version' | 'last-line-wins' | 'highest-version';

export interface FormatSpec {
  readonly format: ManifestFormat;
  readonly ecosystem: Ecosystem;
  /** Base names this format is read for (compared case-insensitively). */
  readonly fileNames: readonly string[];
  readonly pinRule: PinRule;
  /** Bumped when the parser's output changes, so stored facts can say which parser found them. */
  readonly parserVersion: number;
  readonly parse: (text: string, options: ParseOptions) => FormatParse;
}

export const FORMATS: readonly FormatSpec[] = [
  {
    format: 'poetry-lock',
    ecosystem: 'pypi',
    fileNames: ['poetry.lock'],
    pinRule: 'one-per-version',
    parserVersion: 1,
    parse: (t, o) => parsePoetryLock(t, o),
  },
  { format: 'uv-lock', ecosystem: 'pypi', fileNames: ['uv.lock'], pinRule: 'one-per-version', parserVersion: 1, parse: (t, o) => parseUvLock(t, o) },
  {
    format: 'package-lock',
    ecosystem: 'npm',
    fileNames: ['package-lock.json'],
    pinRule: 'one-per-version',
    parserVersion: 1,
    parse: (t, o) => parsePackageLock(t, o),
  },
  {
    format: 'npm-shrinkwrap',
    ecosystem: 'npm',
    fileNames: ['npm-shrinkwrap.json'],
    pinRule: 'one-per-version',
    parserVersion: 1,
    parse: (t, o) => parsePackageLock(t, o),
  },
  {
    format: 'yarn-lock',
    ecosystem: 'npm',
    fileNames: ['yarn.lock'],
    pinRule: 'one-per-version',
    parserVersion: 1,
    parse: (t, o) => ({ ...parseYarnLock(t, o), lineMap: true }),
  },
  {
    format: 'pnpm-lock',
    ecosystem: 'npm',
    fileNames: ['pnpm-lock.yaml', 'pnpm-lock.yml'],
    pinRule: 'one-per-version',
    parserVersion: 1,
    parse: (t, o) => ({ ...parsePnpmLock(t, o), lineMap: true }),
  },
  {
    format: 'bun-lock',
    ecosystem: 'npm',
    fileNames: ['bun.lock'],
    pinRule: 'one-per-version',
    parserVersion: 1,
    parse: (t, o) => ({ ...parseBunLock(t, o), lineMap: true }),
  },
  {
    // the binary lockfile is recognised so it is not read as a requirements file, and refused with how to get bun.lock
    format: 'bun-lockb',
    ecosystem: 'npm',
    fileNames: ['bun.lockb'],
    pinRule: 'one-per-version',
    parserVersion: 1,
    parse: () => refuseBunLockb(),
  },
  { format: 'go-mod', ecosystem: 'golang', fileNames: ['go.mod'], pinRule: 'last-line-wins', parserVersion: 1, parse: (t, o) => goMod(t, o) },
  { format: 'go-sum', ecosystem: 'golang', fileNames: ['go.sum'], pinRule: 'highest-version', parserVersion: 1, parse: (t, o) => ({ ...parseGoSum(t, o), lineMap: true }) },
  { format: 'cargo-lock', ecosystem: 'cargo', fileNames: ['cargo.lock'], pinRule: 'one-per-version', parserVersion: 1, parse: (t, o) => parseCargoLock(t, o) },
  { format: 'pipfile-lock', ecosystem: 'pypi', fileNames: ['pipfile.lock'], pinRule: 'one-per-version', parserVersion: 1, parse: (t, o) => parsePipfileLock(t, o) },
  {
    // the spec's default: any other file name is a pypi requirements file
    format: 'requirements',
    ecosystem: 'pypi',
    fileNames: [],
    pinRule: 'last-line-wins',
    parserVersion: 1,
    parse: (t, o) => {
      const r = parseRequirements(t, o);
      return { ctx: r.ctx, lineMap: true, requirements: r.requirements, includes: r.includes, options: r.options };
    },
  },
];

function goMod(text: string, options: ParseOptions): FormatParse {
  const r = parseGoMod(text, options);
  return { ctx: r.ctx, lineMap: true, ...(r.formatVersion !== undefined ? { formatVersion: r.formatVersion } : {}), ...(r.module !== undefined ? { project: { name: r.module } } : {}) };
}

const BY_NAME = new Map<string, FormatSpec>(FORMATS.flatMap((f) => f.fileNames.map((n) => [n, f] as const)));
const REQUIREMENTS = FORMATS.find((f) => f.format === 'requirements') as FormatSpec;

/** The base name of a path written with either separator. */
export function baseName(manifest: string): string {
  const parts = manifest.split(/[\\/]/);
  return parts[parts.length - 1] ?? manifest;
}

/** The format spec a manifest's file name selects; requirements for any name not listed. */
export function specFor(manifest: string): FormatSpec {
  return BY_NAME.get(baseName(manifest).toLowerCase()) ?? REQUIREMENTS;
}
