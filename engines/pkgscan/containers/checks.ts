// The container checks over what the image reader gives: configured user, environment secrets, set-uid/set-gid and world-writable files, credentials in layer files.
import type { ContainerFinding } from '../../core/contracts/pkgscan-containers.js';
import type { ImageConfig, ImageIssue, IndexEntry, LayerFile } from '../../core/oci/index.js';
import { allowedPath, envSecrets, findSecrets, isBinary } from './secrets.js';

const finding = (f: Omit<ContainerFinding, 'file' | 'layer' | 'rule_id' | 'match' | 'line'> & Partial<ContainerFinding>): ContainerFinding => ({
  file: null,
  layer: null,
  rule_id: null,
  match: null,
  line: null,
  ...f,
});

/** `User` unset or naming root (by name or uid 0, with or without a group). */
export function isRootUser(user: string): boolean {
  const u = user.trim().split(':')[0] ?? '';
  return u === 'root' || u === '0';
}

export function configFindings(c: ImageConfig): ContainerFinding[] {
  const out: ContainerFinding[] = [];
  if (c.user.trim() === '')
    out.push(finding({ code: 'image_user_unset', category: 'config', severity: 'medium', title: 'No user is configured: the container runs as root', rule_id: 'DS002' }));
  else if (isRootUser(c.user)) out.push(finding({ code: 'image_user_root', category: 'config', severity: 'medium', title: 'The configured user is root', rule_id: 'DS002' }));
  for (const e of envSecrets(c.env)) {
    if (e.rule !== null)
      out.push(finding({ code: 'env_secret_value', category: 'secret', severity: e.rule.severity, title: `Environment variable ${e.name} holds a credential (${e.rule.title})`, rule_id: e.rule.id, match: e.masked }));
    else out.push(finding({ code: 'env_secret_name', category: 'secret', severity: 'high', title: `Environment variable ${e.name} is named as a credential and has a value baked into the image`, rule_id: e.name, match: e.masked }));
  }
  if (c.exposedPorts.some((p) => /^22(?:\/tcp)?$/.test(p))) out.push(finding({ code: 'image_exposes_ssh', category: 'config', severity: 'low', title: 'The image exposes port 22 (SSH)', rule_id: 'DS004' }));
  return out;
}

/** Credentials in the build history (`RUN curl -H "Authorization: token ghp_..."`): the command is in the image config for anyone to read. */
export function historyFindings(c: ImageConfig): ContainerFinding[] {
  const out: ContainerFinding[] = [];
  c.layerHistory.forEach((line, layer) => {
    if (line === null) return;
    for (const h of findSecrets(line, 3))
      out.push(finding({ code: 'secret_in_history', category: 'secret', severity: h.rule.severity, title: `${h.rule.title} in the command that built a layer`, layer, rule_id: h.rule.id, match: h.masked }));
  });
  return out;
}

/**
 * Set-uid and set-gid executables that distributions ship on purpose (Debian, Ubuntu, Alpine, Fedora/RHEL), with and
 * without merged /usr; one outside this list is a finding.
 */
export const USUAL_SETID = new Set(
  [
    'usr/bin/passwd', 'usr/bin/chsh', 'usr/bin/chfn', 'usr/bin/gpasswd', 'usr/bin/newgrp', 'usr/bin/su', 'bin/su', 'usr/bin/mount', 'bin/mount', 'usr/bin/umount', 'bin/umount',
    'usr/bin/sudo', 'usr/bin/sudoedit', 'usr/bin/chage', 'usr/bin/expiry', 'usr/bin/wall', 'usr/bin/write', 'usr/bin/bsd-write', 'usr/bin/ssh-agent', 'usr/bin/crontab',
    'usr/bin/pkexec', 'usr/bin/fusermount', 'bin/fusermount', 'usr/bin/fusermount3', 'usr/bin/at', 'usr/bin/newuidmap', 'usr/bin/newgidmap', 'usr/bin/dotlockfile',
    'usr/bin/ping', 'bin/ping', 'usr/bin/ping6', 'usr/bin/traceroute6.iputils', 'usr/bin/locate', 'usr/bin/plocate', 'usr/bin/mlocate', 'usr/bin/staprun', 'usr/bin/Xorg.wrap',
    'usr/sbin/unix_chkpwd', 'sbin/unix_chkpwd', 'usr/sbin/pam_extrausers_chkpwd', 'sbin/pam_extrausers_chkpwd', 'usr/sbin/pam_timestamp_check', 'usr/sbin/userhelper',
    'usr/sbin/mount.nfs', 'sbin/mount.nfs', 'usr/sbin/mount.cifs', 'usr/sbin/postdrop', 'usr/sbin/postqueue', 'usr/sbin/grub2-set-bootflag', 'usr/sbin/exim4',
    'usr/lib/openssh/ssh-keysign', 'usr/libexec/openssh/ssh-keysign', 'usr/lib/dbus-1.0/dbus-daemon-launch-helper', 'usr/libexec/dbus-1/dbus-daemon-launch-helper',
    'usr/lib/polkit-1/polkit-agent-helper-1', 'usr/libexec/polkit-agent-helper-1', 'usr/lib/eject/dmcrypt-get-device', 'usr/lib/xorg/Xorg.wrap', 'usr/libexec/utempter/utempter',
    'usr/lib/x86_64-linux-gnu/utempter/utempter', 'bin/bbsuid', 'usr/bin/bwrap', 'usr/lib/chromium/chrome-sandbox', 'usr/bin/ntfs-3g',
  ],
);

const SYSTEM_PATH = /^(?:bin|sbin|usr|lib|lib32|lib64|libx32|etc|boot|opt)(?:\/|$)/;

/** Set-uid/set-gid executables and world-writable system files in the final file system. */
export function permissionFindings(files: readonly IndexEntry[]): { findings: ContainerFinding[]; usualSetId: number } {
  const out: ContainerFinding[] = [];
  let usualSetId = 0;
  for (const f of files) {
    const regular = f.kind === 'file' || f.kind === 'hardlink';
    if (regular && (f.mode & 0o6000) !== 0 && (f.mode & 0o111) !== 0) {
      if (USUAL_SETID.has(f.path)) {
        usualSetId++;
        out.push(finding({ code: 'setid_usual', category: 'permissions', severity: 'info', title: `${(f.mode & 0o4000) !== 0 ? 'Set-uid' : 'Set-gid'} executable a distribution ships on purpose`, file: f.path, layer: f.layer, match: (f.mode & 0o7777).toString(8) }));
      } else if ((f.mode & 0o4000) !== 0)
        out.push(finding({ code: 'setuid_unexpected', category: 'permissions', severity: 'high', title: 'Set-uid executable outside the usual list (runs with its owner\'s rights, usually root)', file: f.path, layer: f.layer, match: (f.mode & 0o7777).toString(8) }));
      else out.push(finding({ code: 'setgid_unexpected', category: 'permissions', severity: 'medium', title: 'Set-gid executable outside the usual list', file: f.path, layer: f.layer, match: (f.mode & 0o7777).toString(8) }));
    }
    if (!SYSTEM_PATH.test(f.path) || (f.mode & 0o002) === 0) continue;
    if (regular) out.push(finding({ code: 'world_writable_system_file', category: 'permissions', severity: 'medium', title: 'World-writable file in a system path', file: f.path, layer: f.layer, match: (f.mode & 0o7777).toString(8) }));
    else if (f.kind === 'directory' && (f.mode & 0o1000) === 0)
      out.push(finding({ code: 'world_writable_system_dir', category: 'permissions', severity: 'medium', title: 'World-writable directory without the sticky bit in a system path', file: f.path, layer: f.layer, match: (f.mode & 0o7777).toString(8) }));
  }
  return { findings: out, usualSetId };
}

export interface SecretBudget {
  /** Bytes read from one file at most (its head). */
  readonly perFile: number;
  /** Bytes read over the whole image at most. */
  readonly total: number;
}

export const DEFAULT_SECRET_BUDGET: SecretBudget = { perFile: 2 * 1024 * 1024, total: 256 * 1024 * 1024 };

/** Scans each layer's files as the reader hands them over (a secret deleted by a later layer is still in the image). */
export class SecretScanner {
  readonly hits: { layer: number; path: string; ruleId: string; title: string; severity: ContainerFinding['severity']; masked: string; line: number }[] = [];
  scannedBytes = 0;
  scannedFiles = 0;
  truncatedFiles = 0;
  skippedForBudget = 0;
  private readonly budget: SecretBudget;

  constructor(budget: SecretBudget = DEFAULT_SECRET_BUDGET) {
    this.budget = budget;
  }

  layer(index: number, files: readonly LayerFile[]): void {
    for (const f of files) {
      if (f.kind !== 'file' || f.data === undefined || f.data.length === 0 || allowedPath(f.path)) continue;
      if (this.scannedBytes >= this.budget.total) {
        this.skippedForBudget++;
        continue;
      }
      const take = Math.min(f.data.length, this.budget.perFile, this.budget.total - this.scannedBytes);
      const head = f.data.subarray(0, take);
      if (isBinary(head)) continue;
      if (take < f.data.length) this.truncatedFiles++;
      this.scannedBytes += take;
      this.scannedFiles++;
      const text = Buffer.from(head.buffer, head.byteOffset, head.byteLength).toString('latin1');
      for (const h of findSecrets(text)) {
        if (this.hits.length >= 1000) return;
        this.hits.push({ layer: index, path: f.path, ruleId: h.rule.id, title: h.rule.title, severity: h.rule.severity, masked: h.masked, line: h.line });
      }
    }
  }

  /** One finding per hit; a file a later layer deleted or replaced is marked, and stays a finding (the bytes ship with the image). */
  findings(finalFiles: ReadonlyMap<string, IndexEntry>): ContainerFinding[] {
    return this.hits.map((h) => {
      const now = finalFiles.get(h.path);
      const deleted = now === undefined || now.layer !== h.layer;
      return finding({
        code: 'secret_in_file',
        category: 'secret',
        severity: h.severity,
        title: deleted ? `${h.title} in a file a later layer deleted (still in the image layers)` : `${h.title} in a file`,
        file: h.path,
        layer: h.layer,
        rule_id: h.ruleId,
        match: h.masked,
        line: h.line,
        deleted_later: deleted,
      });
    });
  }
}

/** Image read problems as findings: a damaged or cut archive is `image_incomplete` (never clean), tampering signs are their own. */
export function issueFindings(issues: readonly ImageIssue[]): ContainerFinding[] {
  const out: ContainerFinding[] = [];
  for (const i of issues) {
    const layer = i.layer ?? null;
    const file = i.path ?? null;
    if (i.stops) out.push(finding({ code: 'image_incomplete', category: 'image', severity: 'medium', title: `The image could not be read completely: ${i.message}`, layer, file, rule_id: i.code }));
    else if (i.code === 'digest_mismatch' || i.code === 'diff_id_mismatch') out.push(finding({ code: 'layer_digest_mismatch', category: 'image', severity: 'high', title: i.message, layer, rule_id: i.code }));
    else if (i.code === 'unsafe_layer_path') out.push(finding({ code: 'layer_unsafe_path', category: 'image', severity: 'high', title: i.message, layer, file, rule_id: i.code }));
    else if (i.code === 'package_db_unreadable') out.push(finding({ code: 'package_db_unreadable', category: 'package', severity: 'medium', title: `${i.message}: the package list is incomplete`, layer, file, rule_id: i.code }));
    else if (i.code === 'multiple_images') out.push(finding({ code: 'image_multiple', category: 'image', severity: 'info', title: i.message, rule_id: i.code }));
    if (out.length >= 200) break;
  }
  return out;
}
