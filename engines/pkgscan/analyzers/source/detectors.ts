// Structural checks the YAML rules name by `detector:`: the table of detectors (JavaScript ones in detectors-js.ts,
// Python and text ones in detectors-text.ts, npm hook ones here) and the cheap pre-checks before a detector runs.
import type * as acorn from 'acorn';
import { jsDetachedSpawn, jsDnsExfil, jsDynamicRequire, jsEnvSerialise, jsEnvHostRecord, jsEvalDataFile, jsEvalDecoded, jsEvalFetched, jsExecDecoded, jsSecretEnvRecord, jsHiddenBuiltinMember, SENSITIVE_MODULES } from './detectors-js.js';
import { chmodThenRun, fetchPipeRun, keyedDecryptRun, lookupOfData, normaliseDependency, pthExecutable, pyCmdclassInstall, pyExecDecoded, pyImportTimeInstall, SECRET_FILE, sendsSecretFile } from './detectors-text.js';
import { walkHarm } from './detectors-walk.js';
import { lookalikeHostsIn } from '../lookalike-hosts.js';
import type { HookCommand } from './hooks.js';
import type { DetectorName } from './rules.js';

export interface DetectorHit {
  readonly offset: number;
  readonly text: string;
}

export interface DetectorInput {
  /** Comment-free text (offsets are the original file's). */
  readonly code: string;
  readonly ast: acorn.Node | null;
  readonly path: string;
  /** The npm install hook this text is the command of (hook units only). */
  readonly hook?: HookCommand | undefined;
  /** The release's own name and its declared dependencies, normalised (`normaliseDependency`). */
  readonly declared?: ReadonlySet<string> | undefined;
  /** Text decoded from a literal of the file (hidden on purpose), not the file as written. */
  readonly decoded?: boolean | undefined;
}

export { normaliseDependency };

/** An npm install hook judged by what it runs (hooks.ts): only ordinary build steps, package code (`node FILE`, `node -e`), or shell commands of its own. */
function npmHook(runs: 'ordinary' | 'package_code' | 'shell'): (input: DetectorInput) => DetectorHit[] {
  return ({ hook }) => {
    if (hook === undefined) return [];
    const kind = hook.ordinary ? 'ordinary' : hook.shell ? 'shell' : 'package_code';
    return kind === runs ? [{ offset: 0, text: `${hook.hook}: ${hook.command}` }] : [];
  };
}

export const DETECTOR_FUNCTIONS: Readonly<Record<DetectorName, (input: DetectorInput) => DetectorHit[]>> = {
  walk_overwrite: walkHarm('overwrite'),
  walk_encrypt: walkHarm('encrypt'),
  js_eval_decoded: jsEvalDecoded,
  js_eval_fetched: jsEvalFetched,
  js_eval_data_file: jsEvalDataFile,
  js_exec_decoded: jsExecDecoded,
  js_detached_spawn: jsDetachedSpawn,
  js_env_serialise: jsEnvSerialise,
  js_env_host_record: jsEnvHostRecord,
  js_secret_env_record: jsSecretEnvRecord,
  js_dynamic_require: jsDynamicRequire,
  js_dns_exfil: jsDnsExfil,
  js_hidden_builtin_member: jsHiddenBuiltinMember,
  py_exec_decoded: pyExecDecoded,
  py_cmdclass_install: pyCmdclassInstall,
  pth_executable: pthExecutable,
  chmod_then_run: chmodThenRun,
  py_import_time_install: pyImportTimeInstall,
  lookup_of_data: lookupOfData,
  fetch_pipe_run: fetchPipeRun,
  sends_secret_file: sendsSecretFile,
  keyed_decrypt_run: keyedDecryptRun,
  lookalike_code_host: ({ code }) => lookalikeHostsIn(code).map((h) => ({ offset: h.offset, text: `${h.host} (imitates ${h.imitates})` })),
  npm_hook_ordinary: npmHook('ordinary'),
  npm_hook_code: npmHook('package_code'),
  npm_hook_shell: npmHook('shell'),
};

/** A code-running sink's name, or a global looked up by a computed name (`globalThis['ev' + 'al']`); `runIn...Context` stops at the next `runIn` (a later start reads on from there). */
/** Node's `-e`/`-p` option written as an argument list's item (a program handed to a child Node). */
const NODE_EVAL_ARGUMENT = /['"`](?:-e|--eval|-p|--print)['"`]/;
export const EVAL_SINK_HINT = /\beval\b|\bFunction\b|runIn(?:(?!runIn)\w)*Context|compileFunction|\b_compile\b|\bScript\b|\b(?:globalThis|global|window|self)\s*\[|\}\s*\)\s*\.\s*constructor\b|\bnew\s+Worker\b/;
/** A cheap test on the raw text before a detector needs the parse: a file without it cannot give a hit. */
export const DETECTOR_PRECHECK: Readonly<Record<DetectorName, { test(text: string): boolean }>> = {
  walk_overwrite: /readdir|\bwalk\b|listdir|scandir|glob\b|iterdir/,
  walk_encrypt: /readdir|\bwalk\b|listdir|scandir|glob\b|iterdir/,
  js_eval_decoded: EVAL_SINK_HINT,
  // an eval sink, child_process (a command line run from fetched data), or a data: URL (fetched code imported as a module)
  js_eval_fetched: { test: (text) => EVAL_SINK_HINT.test(text) || text.includes('child_process') || NODE_EVAL_ARGUMENT.test(text) || text.includes('data:') },
  js_eval_data_file: { test: (text) => EVAL_SINK_HINT.test(text) && /\breadFile/.test(text) },
  js_exec_decoded: /child_process/,
  js_detached_spawn: /\bdetached\b|\bwindowsHide\b/,
  js_env_serialise: /process(?:\.env|\s*\[\s*['"`]env)|Deno\.env|Bun\.env/,
  js_env_host_record: /process\.env/,
  js_secret_env_record: /process\.env/,
  js_dynamic_require: /\brequire\s*\(/,
  js_dns_exfil: /\bdns\b|[Rr]esolver/,
  js_hidden_builtin_member: new RegExp(`\\b(?:${SENSITIVE_MODULES})['"\`]`),
  py_exec_decoded: /./,
  py_cmdclass_install: /./,
  pth_executable: /./,
  chmod_then_run: /\bchmod|\bmode\s*:|\.(?:exe|scr|com)['"`]/,
  py_import_time_install: /\bpip/,
  lookup_of_data: /\b(?:nslookup|dig|host|ping)\b|gethostbyname|getaddrinfo|[Rr]esolver/,
  sends_secret_file: SECRET_FILE,
  fetch_pipe_run: /\b(?:curl|wget|iwr|irm|iex|Invoke-WebRequest|Invoke-RestMethod|Invoke-Expression|WebClient)\b/i,
  lookalike_code_host: /github|npmjs|pythonhosted|pypi|gitlab/i,
  keyed_decrypt_run: /\b(?:createDecipher|subtle\.decrypt)/,
  npm_hook_ordinary: /./,
  npm_hook_code: /./,
  npm_hook_shell: /./,
};
