// The data model of the manifest and lock-file library: ecosystems, formats, entries, pins and warnings.

/** Package ecosystem of a manifest, named as package URL types name them. */
export type Ecosystem = 'pypi' | 'npm' | 'golang' | 'cargo';

/** The formats the library reads; a file name picks one (see `formatFor`). */
export type ManifestFormat =
  | 'requirements'
  | 'poetry-lock'
  | 'uv-lock'
  | 'package-lock'
  | 'npm-shrinkwrap'
  | 'yarn-lock'
  | 'pnpm-lock'
  | 'bun-lock'
  | 'bun-lockb'
  | 'go-mod'
  | 'go-sum'
  | 'cargo-lock'
  | 'pipfile-lock';

/** Where a locked package comes from, when the format says so. */
export type EntrySource = 'registry' | 'git' | 'url' | 'path' | 'workspace';

/**
 * One pinned package as the spec's `pin_entries` returns it (spec field `key_line` is `keyLine` here).
 * Lines are 0-based.
 */
export interface PinEntry {
  /** Package name, normalised (PEP 503 for pypi; as published for npm, Go modules and crates). */
  readonly name: string;
  /** The pinned version as the file writes it (npm aliases resolved, Go `/go.mod` suffix dropped). */
  readonly version: string;
  /** 0-based line that carries the version. */
  readonly line: number;
  /** 0-based line that names the package (often the same line). */
  readonly keyLine: number;
}

/** One record of a manifest: a pinned package with everything the format says about it. */
export interface ManifestEntry {
  /** Normalised package name (see PinEntry.name). */
  readonly name: string;
  /** Pinned version. */
  readonly version: string;
  /** 0-based line carrying the version; absent when the format has no line map (npm lockfile v1). */
  readonly line?: number;
  /** 0-based line naming the package; absent when the format has no line map. */
  readonly keyLine?: number;
  /** The name as the file spells it, when it differs from `name` (pypi case and separators). */
  readonly rawName?: string;
  /** npm alias: the name the package is installed under when it differs from its published name. */
  readonly alias?: string;
  /** Where the package comes from, when the format records it. */
  readonly source?: EntrySource;
  /** Download location the lock file records (npm `resolved`, uv and poetry source URLs). */
  readonly resolved?: string;
  /** Integrity values: npm `integrity`, Cargo `checksum`, go.sum `h1:` hashes, pip `--hash` values. */
  readonly checksums?: readonly string[];
  /** True for a direct dependency of the project, false for a transitive one; absent when unknown. */
  readonly direct?: boolean;
  /** True when the lock file marks the package as development-only. */
  readonly dev?: boolean;
  /** True when the lock file marks the package as optional. */
  readonly optional?: boolean;
  /** True when the lock file says the package runs an install script (npm `hasInstallScript`, pnpm `requiresBuild`). */
  readonly installScript?: boolean;
  /** Names (normalised) of the packages this one depends on, as the lock file records them. */
  readonly dependencies?: readonly string[];
  /** PEP 508 environment marker of a requirement line. */
  readonly marker?: string;
  /** Requested extras of a requirement line, normalised. */
  readonly extras?: readonly string[];
}

/** A requirement line of a requirements file, pinned or not (project scans report unpinned ones). */
export interface DeclaredRequirement {
  /** Normalised name; absent for a bare URL or path whose name the line does not say. */
  readonly name?: string;
  /** The name as written. */
  readonly rawName?: string;
  /** Version specifier as written without spaces (`==1.2`, `>=1,<2`); empty when none. */
  readonly specifier: string;
  /** The exact version when the specifier pins one (`==` without a wildcard, or `===`). */
  readonly pinnedVersion?: string;
  /** What the line names: a registry package, a direct URL reference, a local path, or an editable install. */
  readonly kind: 'name' | 'url' | 'path' | 'editable';
  /** Direct URL or path, for the kinds that have one. */
  readonly url?: string;
  readonly extras?: readonly string[];
  readonly marker?: string;
  /** `--hash` values of the line. */
  readonly hashes?: readonly string[];
  /** 0-based line carrying the pinned version; the line where the requirement starts when unpinned. */
  readonly line: number;
  /** 0-based line where the requirement starts (it names the package). */
  readonly keyLine: number;
}

/** A `-r`/`-c` include of a requirements file: reported, never followed (the library reads no file). */
export interface ManifestInclude {
  readonly kind: 'requirements' | 'constraints';
  readonly target: string;
  readonly line: number;
}

/** A global pip option line (`--index-url`, `--extra-index-url`, `--require-hashes` ...). */
export interface ManifestOption {
  readonly option: string;
  readonly value?: string;
  readonly line: number;
}

/** Something the parser skipped or doubted; the file as a whole still parsed. Messages never quote the file. */
export interface ManifestWarning {
  readonly code: ManifestWarningCode;
  readonly message: string;
  /** 0-based line, when one is known. */
  readonly line?: number;
}

export type ManifestWarningCode =
  | 'unparsed_line'
  | 'unknown_option'
  | 'malformed_entry'
  | 'missing_version'
  | 'duplicate_key'
  | 'unsupported_version'
  | 'line_map_unavailable'
  | 'truncated_warnings';

/** Everything one parse of one manifest yields. */
export interface ManifestDocument {
  readonly format: ManifestFormat;
  readonly ecosystem: Ecosystem;
  /** Format version the file declares (lockfileVersion, yarn `__metadata.version`, TOML `version`), when it declares one. */
  readonly formatVersion?: string;
  /** The project the file belongs to, when it names it (package-lock root, go.mod module, uv or yarn workspace root). */
  readonly project?: { readonly name?: string; readonly version?: string };
  /** False when the format or this file gives no line numbers (npm lockfile v1). */
  readonly lineMap: boolean;
  /** Every pinned record in file order, before the pin rules (a name may repeat). */
  readonly entries: readonly ManifestEntry[];
  /** Requirements files only: every requirement line, pinned or not. */
  readonly requirements?: readonly DeclaredRequirement[];
  /** Requirements files only: `-r` and `-c` includes, not followed. */
  readonly includes?: readonly ManifestInclude[];
  /** Requirements files only: global option lines. */
  readonly options?: readonly ManifestOption[];
  /** Kept warnings (at most `MAX_WARNINGS`); `warningCount` counts all. */
  readonly warnings: readonly ManifestWarning[];
  readonly warningCount: number;
  /** SHA-256 (hex) of the text as UTF-8, so every fact can name its source artefact. */
  readonly sha256: string;
  /** Which parser produced this (`<format>@<parser version>`). */
  readonly parser: string;
}

/** Limits for parsing untrusted text. */
export interface ParseOptions {
  /** Largest text accepted, in UTF-16 code units; default `DEFAULT_MAX_CHARS`. */
  readonly maxChars?: number;
  /** Most entries accepted before the parse fails; default `DEFAULT_MAX_ENTRIES`. */
  readonly maxEntries?: number;
}

export const DEFAULT_MAX_CHARS = 64 * 1024 * 1024;
export const DEFAULT_MAX_ENTRIES = 500_000;
export const MAX_WARNINGS = 200;
