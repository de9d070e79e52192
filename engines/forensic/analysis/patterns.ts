// Command-line and image patterns that name an ATT&CK technique (declarative: one row per pattern).
import { MAX_VALUE_CHARS } from '../event.js';

export interface TechniquePattern {
  readonly technique: string;
  readonly pattern: RegExp;
  /** How telling a match is on its own (0..1), used for suspicion; image-name-only matches are weak. */
  readonly weight: number;
}

/** Patterns over a process's command line (or image path when it has none). */
export const COMMAND_PATTERNS: readonly TechniquePattern[] = [
  { technique: 'T1095', weight: 0.85, pattern: /\/dev\/tcp\/|\bnc(?:at)?(?:\.exe)?\s+(?:-(?:(?!\bnc(?:at)?(?:\.exe)?\s)\S)+\s+)*-[ec]\s|\bbash\s+-i\s*>&|\bperl\s+-e\s(?:(?!\bperl\s+-e\s).)*\bsocket\b|\bpython[0-9.]*\s+-c\s(?:(?!\bpython[0-9.]*\s+-c\s).)*\bsocket\b|\bsocat\s(?:(?!\bsocat\s).)*\bexec:|\bphp\s+-r\s(?:(?!\bphp\s+-r\s).)*fsockopen|\bruby\s+-rsocket/i },
  { technique: 'T1490', weight: 0.9, pattern: /vssadmin(?:\.exe)?["']?\s+delete\s+shadows|wmic(?:\.exe)?["']?\s+shadowcopy\s+delete|wbadmin(?:\.exe)?\s+delete\s+(?:catalog|systemstatebackup)|bcdedit(?:\.exe)?\s(?:(?!bcdedit(?:\.exe)?\s).)*recoveryenabled\s+no|Win32_ShadowCopy(?:(?!Win32_ShadowCopy).)*Delete/i },
  { technique: 'T1685.005', weight: 0.85, pattern: /wevtutil(?:\.exe)?["']?\s+(?:cl|clear-log)\b|Clear-EventLog|Remove-EventLog|Limit-EventLog/i },
  { technique: 'T1070.003', weight: 0.8, pattern: /\bhistory\s+-c\b|HISTFILE=\/dev\/null|unset\s+HISTFILE|HISTSIZE=0|(?:rm|shred)\s+(?:-(?:(?!(?:rm|shred)\s)\S)+\s+)*\S*\.(?:bash|zsh)_history|>\s*\S*\.(?:bash|zsh)_history|ln\s+-sf?\s+\/dev\/null\s+\S*_history|Clear-History/i },
  { technique: 'T1685.006', weight: 0.8, pattern: /(?:rm|shred|truncate)\s+(?:-(?:(?!(?:rm|shred|truncate)\s)\S)+\s+)*\/var\/log\/|>\s*\/var\/log\/\S+|journalctl\s+--vacuum|utmpdump|(?:rm|shred)\s+\S*\/(?:wtmp|btmp|lastlog)\b/i },
  { technique: 'T1070.006', weight: 0.8, pattern: /\btouch\s+(?:-(?:(?!\btouch\s)\S)+\s+)*-(?:t|r|d)\s|timestomp|\.(?:CreationTime|LastWriteTime|LastAccessTime)\s*=/i },
  { technique: 'T1070.004', weight: 0.4, pattern: /\bsdelete(?:64)?(?:\.exe)?\s|\bshred\s+-[a-z]*u/i },
  { technique: 'T1685.001', weight: 0.85, pattern: /auditpol(?:\.exe)?\s+\/(?:set|clear|remove)|systemctl\s+(?:stop|disable|mask)\s+(?:auditd|rsyslog|syslog|systemd-journald)|service\s+(?:auditd|rsyslog|syslog)\s+stop|auditctl\s+(?:-D|-e\s*0)|net1?(?:\.exe)?\s+stop\s+eventlog|sc(?:\.exe)?\s+(?:stop|config)\s+eventlog/i },
  { technique: 'T1685', weight: 0.8, pattern: /Set-MpPreference\s(?:(?!Set-MpPreference\s).)*-Disable|DisableRealtimeMonitoring|sc(?:\.exe)?\s+(?:stop|delete)\s+windefend|setenforce\s+0|ufw\s+disable/i },
  { technique: 'T1003.001', weight: 0.95, pattern: /procdump(?:64)?(?:\.exe)?\s(?:(?!procdump(?:64)?(?:\.exe)?\s).)*-ma[^\S\n\r\u2028\u2029](?:(?!-ma\s).)*lsass|procdump(?:64)?(?:\.exe)?\s(?:(?!procdump(?:64)?(?:\.exe)?\s).)*-ma[\n\r\u2028\u2029].*lsass|comsvcs(?:\.dll)?[,\s]+#?(?:24|minidump)|sekurlsa|mimikatz|lsass\.dmp|MiniDumpWriteDump|Out-Minidump/i },
  { technique: 'T1053.005', weight: 0.6, pattern: /schtasks(?:\.exe)?["']?\s+\/create|Register-ScheduledTask|New-ScheduledTask/i },
  { technique: 'T1053.003', weight: 0.6, pattern: /\bcrontab\s+(?!-l)|\/etc\/cron\.|\/var\/spool\/cron/i },
  { technique: 'T1543.003', weight: 0.6, pattern: /\bsc(?:\.exe)?["']?\s+create\s|New-Service\s/i },
  // A unit file path is looked for from the start of each run of non-blanks, to its first `/etc/systemd/system/` (read once).
  { technique: 'T1543.002', weight: 0.6, pattern: /systemctl\s+enable\s|(?<!\S)(?:(?!\/etc\/systemd\/system\/)\S)*\/etc\/systemd\/system\/\S+\.service/i },
  { technique: 'T1547.001', weight: 0.7, pattern: /reg(?:\.exe)?["']?\s+add\s(?:(?!reg(?:\.exe)?["']?\s+add\s).)*\\(?:Run|RunOnce)\b|CurrentVersion\\Run/i },
  { technique: 'T1136.001', weight: 0.7, pattern: /net1?(?:\.exe)?["']?\s+user\s+\S+\s+\S+\s+\/add|\buseradd\s|\badduser\s|New-LocalUser/i },
  { technique: 'T1098', weight: 0.7, pattern: /net1?(?:\.exe)?["']?\s+localgroup\s+administrators\s+\S+\s+\/add|usermod\s+(?:-(?:(?!usermod\s)\S)+\s+)*-a?G\s*(?:sudo|wheel|root|adm)\b|gpasswd\s+-a\s+\S+\s+(?:sudo|wheel)|Add-LocalGroupMember/i },
  { technique: 'T1098.004', weight: 0.75, pattern: /authorized_keys/i },
  { technique: 'T1105', weight: 0.6, pattern: /certutil(?:\.exe)?\s(?:(?!certutil(?:\.exe)?\s).)*-urlcache|bitsadmin(?:\.exe)?\s(?:(?!bitsadmin(?:\.exe)?\s).)*\/transfer|Invoke-WebRequest|DownloadString|DownloadFile|\bwget\s+https?:|\bcurl\s+(?:-(?:(?!\bcurl\s)\S)+\s+)*-[oO]\s/i },
  { technique: 'T1560.001', weight: 0.55, pattern: /\b(?:7z|7za|rar|winrar)(?:\.exe)?["']?\s+a\s|\bzip\s+-r|\btar\s+-?c[a-z]*f\s|Compress-Archive/i },
  { technique: 'T1567.002', weight: 0.85, pattern: /rclone(?:\.exe)?\s(?:(?!rclone(?:\.exe)?\s).)*(?:copy|sync)[^\S\n\r\u2028\u2029](?:(?!(?:copy|sync)\s).)*(?:mega|drive|dropbox|s3|onedrive)|rclone(?:\.exe)?\s(?:(?!rclone(?:\.exe)?\s).)*(?:copy|sync)[\n\r\u2028\u2029].*(?:mega|drive|dropbox|s3|onedrive)|megacmd|mega-put/i },
  { technique: 'T1048', weight: 0.75, pattern: /rclone(?:\.exe)?\s+(?:copy|sync)|\bcurl\s(?:(?!\bcurl\s).)*(?:-T\s|--upload-file|-F\s*\S*=@|--data-binary\s+@)|\bscp\s+(?:-(?:(?!\bscp\s)\S)+\s+)*\S+\s+\S[^\s@]*@\S+:|\bsftp\s|\bftp\s+-|\bnc\s(?:(?!\bnc\s).)*<\s*\S/i },
  { technique: 'T1074.001', weight: 0.45, pattern: /(?:copy|xcopy|robocopy|cp)\s(?:(?!(?:copy|xcopy|robocopy|cp)\s).)*(?:\\Users\\Public\\|\\ProgramData\\|\\Temp\\|\/tmp\/|\/dev\/shm\/)/i },
  { technique: 'T1087.001', weight: 0.2, pattern: /net1?(?:\.exe)?["']?\s+(?:user|localgroup)(?:\s*$|\s+\S+\s*$)|cat\s+\/etc\/passwd|Get-LocalUser/i },
  { technique: 'T1033', weight: 0.15, pattern: /\bwhoami\b|\bquser\b|^\s*id\s*$/i },
  { technique: 'T1082', weight: 0.15, pattern: /\bsysteminfo\b|\buname\s+-a\b|\bhostnamectl\b/i },
  { technique: 'T1047', weight: 0.7, pattern: /wmic(?:\.exe)?["']?\s(?:(?!wmic(?:\.exe)?["']?\s).)*\/node:|Invoke-WmiMethod|Invoke-CimMethod|Win32_Process(?:(?!Win32_Process).)*Create/i },
  { technique: 'T1569.002', weight: 0.75, pattern: /psexec(?:64)?(?:\.exe)?\s|PSEXESVC|paexec/i },
  { technique: 'T1021.006', weight: 0.7, pattern: /Enter-PSSession|Invoke-Command\s(?:(?!Invoke-Command\s).)*-ComputerName|\bwinrs(?:\.exe)?\s/i },
  { technique: 'T1059.001', weight: 0.6, pattern: /powershell(?:\.exe)?["']?\s+(?!\s)(?:(?:(?!powershell(?:\.exe)?["']?\s).)*\s)?-e(?:nc|ncodedcommand)?\s|\bIEX\b|Invoke-Expression|-w(?:indowstyle)?\s+hidden/i },
  { technique: 'T1218.011', weight: 0.5, pattern: /rundll32(?:\.exe)?["']?\s(?:(?!rundll32(?:\.exe)?["']?\s).)*(?:javascript:|\\\\|http|,\s*#?\d|\.dat|\.tmp|\\Temp\\|\\AppData\\)/i },
  { technique: 'T1218.005', weight: 0.7, pattern: /mshta(?:\.exe)?["']?\s/i },
];

/** Image names that on their own suggest a technique (weak: every admin uses them). */
export const IMAGE_PATTERNS: readonly TechniquePattern[] = [
  { technique: 'T1218.011', weight: 0.2, pattern: /(?:^|[\\/])rundll32\.exe$/i },
  { technique: 'T1218.005', weight: 0.6, pattern: /(?:^|[\\/])mshta\.exe$/i },
  { technique: 'T1003.001', weight: 0.9, pattern: /(?:^|[\\/])(?:mimikatz|procdump(?:64)?)\.exe$/i },
  { technique: 'T1569.002', weight: 0.6, pattern: /(?:^|[\\/])(?:psexesvc|psexec(?:64)?|paexec)\.exe$/i },
  { technique: 'T1486', weight: 0.3, pattern: /(?:^|[\\/])(?:(?!crypt|locker|ransom)[^\s\\/])*(?:crypt|locker|ransom)[^\s\\/]*(?:[\\/](?:(?!crypt|locker|ransom)[^\s\\/])*)*(?<=\.exe)$/i },
];

/**
 * The part of a command line or image the patterns read: its first MAX_VALUE_CHARS characters (what the loaders clip
 * values to; the Windows limit is 32,767), so a few patterns that stay quadratic in one argument stay cheap on text
 * from any loader.
 */
export const patternText = (text: string): string => (text.length > MAX_VALUE_CHARS ? text.slice(0, MAX_VALUE_CHARS) : text);

/** Techniques a command line (and image) shows, with the strongest weight each. */
export function techniquesOfCommand(commandLine: string | null, image: string | null): Map<string, number> {
  // Command lines and images repeat (services, cron jobs, the same tool on many hosts): short ones are matched once.
  if ((commandLine?.length ?? 0) > MAX_KEPT_TEXT || (image?.length ?? 0) > MAX_KEPT_TEXT) return matchCommand(commandLine, image);
  let byImage = keptMatches.get(commandLine);
  if (byImage === undefined) {
    if (keptMatches.size >= MAX_KEPT_COMMANDS) keptMatches.clear();
    keptMatches.set(commandLine, (byImage = new Map()));
  }
  let found = byImage.get(image);
  if (found === undefined) {
    found = [...matchCommand(commandLine, image)];
    byImage.set(image, found);
  }
  // A new map each call: callers add to it.
  return new Map(found);
}

/** Texts longer than this are matched each time. */
const MAX_KEPT_TEXT = 256;
/** Command lines whose matches are kept at most (the whole cache is dropped when it is full). */
const MAX_KEPT_COMMANDS = 50_000;
/** What matchCommand found, in its order, by command line then image. */
const keptMatches = new Map<string | null, Map<string | null, readonly (readonly [string, number])[]>>();

function matchCommand(commandLine: string | null, image: string | null): Map<string, number> {
  const out = new Map<string, number>();
  const add = (t: string, w: number): void => {
    if ((out.get(t) ?? 0) < w) out.set(t, w);
  };
  if (commandLine !== null) {
    const text = patternText(commandLine);
    for (const p of COMMAND_PATTERNS) if (p.pattern.test(text)) add(p.technique, p.weight);
  }
  if (image !== null) {
    const text = patternText(image);
    for (const p of IMAGE_PATTERNS) if (p.pattern.test(text)) add(p.technique, p.weight);
  }
  return out;
}

/**
 * The first program name a service's image path names: in the first run of characters other than separators, quotes
 * and white space that holds `.exe` after its first character, the run up to its last `.exe` (what
 * `/([^\\/"\s]+\.exe)/i` finds, read in one pass instead of from every start of a long run).
 */
export function exeNameIn(text: string): string | undefined {
  for (const run of text.split(/[\\/"\s]+/)) {
    let last = -1;
    for (const m of run.matchAll(/\.exe/gi)) if (m.index >= 1) last = m.index;
    if (last >= 1) return run.slice(0, last + 4);
  }
  return undefined;
}

/** Private, loopback and link-local addresses (RFC 1918, 6598, 4193 ...): connections there are internal. */
export function isInternalAddress(address: string): boolean {
  const a = address.replace(/^\[|\]$/g, '').replace(/^::ffff:/i, '');
  if (/^(?:10\.|127\.|192\.168\.|169\.254\.|172\.(?:1[6-9]|2\d|3[01])\.|100\.(?:6[4-9]|[7-9]\d|1[01]\d|12[0-7])\.)/.test(a)) return true;
  return /^(?:::1$|f[cd][0-9a-f]{2}:|fe80:)/i.test(a);
}

/** Splits `address:port` (IPv6 in brackets or not) into its parts. */
export function splitEndpoint(text: string): { address: string; port: number | null } {
  const m = /^\[?(.*?)\]?:(\d+|\?)$/.exec(text);
  if (!m) return { address: text, port: null };
  return { address: m[1] as string, port: m[2] === '?' ? null : Number(m[2]) };
}
