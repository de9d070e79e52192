// Types of the Console's routes (/api/console/*, main/console/), shared with the renderer (types only).

export interface ConsoleOption {
  /** `--format` */
  readonly name: string;
  /** Its row in the command line's usage table, when it has one. */
  readonly description?: string;
}

export interface ConsoleCommand {
  readonly name: string;
  /** Second words of the usage lines (`pkgscan advisories import`). */
  readonly subcommands: readonly string[];
  /** The usage lines, as printed. */
  readonly usage: readonly string[];
  readonly summary?: string;
  readonly options: readonly ConsoleOption[];
}

export interface ConsoleExecutable {
  readonly name: string;
  /** The first line of its help. */
  readonly summary: string;
  /** Options before the command (`attrib [--kb KB.json] <command>`) and --help/--version. */
  readonly options: readonly ConsoleOption[];
  readonly commands: readonly ConsoleCommand[];
}

/** GET /api/console/commands */
export interface ConsoleCatalogue {
  /** The data folder: VITRINE_HOME of every run and the default working directory. */
  readonly home: string;
  /** The evidence root (FORENSIC_EVIDENCE_ROOT) when the workstation has one. */
  readonly evidence_root: string | null;
  readonly executables: readonly ConsoleExecutable[];
}

/** POST /api/console/runs */
export interface ConsoleRunRequest {
  /** The executable's name, then its arguments: never a command string. */
  readonly argv: readonly string[];
  /** Absolute, or relative to the data folder; inside the data folder or the evidence root. */
  readonly cwd?: string;
  readonly cols?: number;
  readonly rows?: number;
}

export interface ConsoleRunExit {
  /** Exit code, or null when ended by a signal. */
  readonly code: number | null;
  readonly signal: string | null;
  /** The output passed the cap and the run was stopped. */
  readonly truncated: boolean;
  /** Stopped by the user (Ctrl-C) or by the workstation closing. */
  readonly cancelled: boolean;
}

export interface ConsoleRunInfo {
  readonly id: string;
  readonly argv: readonly string[];
  readonly cwd: string;
  readonly state: 'running' | 'exited';
  readonly started_at: string;
  readonly exit?: ConsoleRunExit;
}
