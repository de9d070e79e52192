// Dockerfile lint over dockerfile-ast's parse: our checks, each carrying the hadolint (DLxxxx) or Trivy (DSxxx) id analysts know it by.
import { Arg, DockerfileParser, Env, From, type Instruction } from 'dockerfile-ast';
import type { Severity } from '../../core/contracts/pkgscan.js';
import { SECRET_NAME, type Finding } from './types.js';

/** The rules: our code, upstream id, severity, message. */
export const DOCKERFILE_RULES = {
  dockerfile_untagged_image: { rule: 'DL3006', severity: 'medium', message: 'FROM names an image without a tag or digest: the build takes whatever is newest' },
  dockerfile_latest_tag: { rule: 'DL3007', severity: 'medium', message: 'FROM uses the latest tag: the base image changes under the build' },
  dockerfile_root_user: { rule: 'DS002', severity: 'high', message: 'the final stage switches to the root user' },
  dockerfile_no_user: { rule: 'DS002', severity: 'medium', message: 'the final stage never sets USER, so the container runs as root' },
  dockerfile_add_remote_url: { rule: 'DL3020', severity: 'medium', message: 'ADD downloads a remote URL at build time without a checksum; download and verify it in RUN, or use COPY' },
  dockerfile_add_local: { rule: 'DL3020', severity: 'low', message: 'ADD used for local files; COPY does not unpack archives implicitly' },
  dockerfile_pipe_to_shell: { rule: 'DL4006', severity: 'high', message: 'a downloaded script is piped straight into a shell' },
  dockerfile_apt_no_recommends: { rule: 'DL3015', severity: 'low', message: 'apt-get install without --no-install-recommends pulls in extra packages' },
  dockerfile_apt_lists_kept: { rule: 'DL3009', severity: 'low', message: 'apt lists are not removed after apt-get install (rm -rf /var/lib/apt/lists/*)' },
  dockerfile_secret_in_env: { rule: 'DS031', severity: 'high', message: 'ENV sets a variable whose name says it is a credential: it stays in the image' },
  dockerfile_secret_in_arg: { rule: 'DS031', severity: 'medium', message: 'ARG takes a credential: build arguments stay in the image history; use a build secret mount' },
  dockerfile_sudo: { rule: 'DL3004', severity: 'medium', message: 'RUN uses sudo' },
  dockerfile_no_healthcheck: { rule: 'DS026', severity: 'low', message: 'no HEALTHCHECK instruction' },
  dockerfile_relative_workdir: { rule: 'DL3000', severity: 'low', message: 'WORKDIR is a relative path' },
  dockerfile_exposes_ssh: { rule: 'DS004', severity: 'medium', message: 'port 22 (SSH) is exposed' },
  dockerfile_pipe_without_pipefail: { rule: 'DL4006', severity: 'low', message: 'RUN pipes commands without set -o pipefail: a failing first command is hidden' },
  dockerfile_no_from: { rule: 'DL3061', severity: 'medium', message: 'the file has no FROM instruction' },
} as const satisfies Record<string, { rule: string; severity: Severity; message: string }>;

export type DockerfileRule = keyof typeof DOCKERFILE_RULES;

function finding(code: DockerfileRule, file: string, line: number | null): Finding {
  const r = DOCKERFILE_RULES[code];
  return { code, category: 'dockerfile', severity: r.severity, file, line, message: r.message, rule_id: r.rule };
}

const lineOf = (i: Instruction): number => i.getRange().start.line + 1;

/**
 * A download piped into a shell or an interpreter. The text after `curl`/`wget` stops at the next `curl`/`wget` (a later
 * start reads on from there), so a RUN line of the two names repeated is read once, not once per name.
 */
export const PIPE_TO_SHELL = /\b(?:curl|wget)\b(?:(?!\b(?:curl|wget)\b)[^|;&])*\|\s*(?:sudo\s+)?(?:(?:ba|z|da|k)?sh|python3?|perl|ruby|node)\b/;

/** `apt-get [flags] install`; the flag walk stops at a flag ending in `apt-get` (a later start reads on from there). */
export const APT_GET_INSTALL = /\bapt-get\s+(?:-(?:(?!\bapt-get\s)\S)+\s+)*install\b/;

/** A cache mount of apt's lists; the text after each `--mount=type=cache` stops at the next one. */
export const APT_CACHE_MOUNT = /--mount=type=cache(?:(?!--mount=type=cache)\S)*\/var\/lib\/apt/;

/** Lints one Dockerfile's text. Never throws on odd input: dockerfile-ast parses anything into instructions. */
export function lintDockerfile(file: string, text: string): Finding[] {
  const out: Finding[] = [];
  const doc = DockerfileParser.parse(text);
  const instructions = doc.getInstructions();
  const froms = doc.getFROMs();
  if (froms.length === 0) {
    out.push(finding('dockerfile_no_from', file, null));
    return out;
  }
  const stages = new Set<string>();
  let pipefailShell = false;
  let finalStageStart = -1;
  for (let i = 0; i < instructions.length; i++) if (instructions[i] instanceof From) finalStageStart = i;
  let lastUser: { name: string; line: number } | undefined;
  let healthcheck = false;
  for (let idx = 0; idx < instructions.length; idx++) {
    const ins = instructions[idx] as Instruction;
    const kw = ins.getKeyword().toUpperCase();
    const args = ins.getArgumentsContent() ?? '';
    if (ins instanceof From) {
      const image = ins.getImageName();
      const tag = ins.getImageTag();
      const digest = ins.getImageDigest();
      const stage = ins.getBuildStage();
      const raw = ins.getImage() ?? '';
      const isStage = image !== null && stages.has(image.toLowerCase());
      if (image !== null && !isStage && image.toLowerCase() !== 'scratch' && !raw.includes('$')) {
        if (tag === null && digest === null) out.push(finding('dockerfile_untagged_image', file, lineOf(ins)));
        else if (tag === 'latest' && digest === null) out.push(finding('dockerfile_latest_tag', file, lineOf(ins)));
      }
      if (stage !== null) stages.add(stage.toLowerCase());
      if (idx === finalStageStart) lastUser = undefined;
      continue;
    }
    if (kw === 'USER' && idx > finalStageStart) {
      lastUser = { name: (ins.getArguments()[0]?.getValue() ?? '').split(':')[0] ?? '', line: lineOf(ins) };
    }
    if (kw === 'HEALTHCHECK') healthcheck = true;
    if (kw === 'SHELL' && /pipefail/.test(args)) pipefailShell = true;
    if (kw === 'WORKDIR') {
      const dir = ins.getArguments()[0]?.getValue() ?? '';
      if (dir !== '' && !dir.startsWith('/') && !dir.startsWith('$') && !/^[A-Za-z]:[\\/]/.test(dir) && !dir.startsWith('"/')) out.push(finding('dockerfile_relative_workdir', file, lineOf(ins)));
    }
    if (kw === 'EXPOSE' && ins.getArguments().some((a) => /^22(\/tcp)?$/i.test(a.getValue()))) out.push(finding('dockerfile_exposes_ssh', file, lineOf(ins)));
    if (kw === 'ADD') {
      const srcs = ins
        .getArguments()
        .map((a) => a.getValue())
        .filter((v) => !v.startsWith('--'));
      if (srcs.slice(0, -1).some((s) => /^(https?|ftp):\/\//i.test(s))) out.push(finding('dockerfile_add_remote_url', file, lineOf(ins)));
      else if (!srcs.slice(0, -1).some((s) => /\.(tar|tgz|tar\.(gz|bz2|xz|zst))$/i.test(s) || /^git@|\.git$/.test(s))) out.push(finding('dockerfile_add_local', file, lineOf(ins)));
    }
    if (ins instanceof Env) {
      for (const prop of ins.getProperties()) {
        const value = prop.getValue();
        if (SECRET_NAME.test(prop.getName()) && value !== null && value !== '' && !/^\$\{?[A-Za-z_]/.test(value)) out.push(finding('dockerfile_secret_in_env', file, prop.getRange().start.line + 1));
      }
    }
    if (ins instanceof Arg) {
      const prop = ins.getProperty();
      if (prop && SECRET_NAME.test(prop.getName())) out.push(finding('dockerfile_secret_in_arg', file, lineOf(ins)));
    }
    if (kw === 'RUN') {
      // the whole instruction text: RUN flags (--mount=type=cache) are not in the arguments content
      const cmd = ins.getTextContent().replace(/^\s*RUN\s+/i, '').replace(/\\\r?\n/g, ' ');
      if (PIPE_TO_SHELL.test(cmd)) out.push(finding('dockerfile_pipe_to_shell', file, lineOf(ins)));
      if (/(^|[;&|\s])sudo\s/.test(cmd)) out.push(finding('dockerfile_sudo', file, lineOf(ins)));
      if (APT_GET_INSTALL.test(cmd)) {
        if (!/--no-install-recommends|APT::Install-Recommends=("|')?(false|0)/.test(cmd)) out.push(finding('dockerfile_apt_no_recommends', file, lineOf(ins)));
        if (!/rm\s+-(?=[a-z]*r)[a-z]+\s+[^;&]*\/var\/lib\/apt\/lists/.test(cmd) && !APT_CACHE_MOUNT.test(cmd))
          out.push(finding('dockerfile_apt_lists_kept', file, lineOf(ins)));
      }
      // a pipe outside `||`; exec-form (JSON) RUN has no shell
      if (!cmd.trimStart().startsWith('[') && /[^|]\|[^|]/.test(cmd) && !pipefailShell && !/set\s+-[a-z]*o\s+pipefail|set\s+-o\s+pipefail|pipefail/.test(cmd)) out.push(finding('dockerfile_pipe_without_pipefail', file, lineOf(ins)));
    }
  }
  const finalFrom = instructions[finalStageStart];
  const finalIsScratch = finalFrom instanceof From && (finalFrom.getImageName() ?? '').toLowerCase() === 'scratch';
  if (lastUser === undefined) {
    // a scratch image has no /etc/passwd and usually one static binary, yet still runs as uid 0: keep the finding
    out.push({ ...finding('dockerfile_no_user', file, null), ...(finalIsScratch ? { message: `${DOCKERFILE_RULES.dockerfile_no_user.message} (scratch image)` } : {}) });
  } else if (/^(root|0)$/i.test(lastUser.name)) out.push(finding('dockerfile_root_user', file, lastUser.line));
  if (!healthcheck) out.push(finding('dockerfile_no_healthcheck', file, null));
  return out;
}
