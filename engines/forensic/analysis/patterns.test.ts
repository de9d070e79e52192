// Techniques of a command line: the same answer on every call, whether matched afresh or kept, and a map of the caller's own.
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../core/random.js';
import { COMMAND_PATTERNS, exeNameIn, IMAGE_PATTERNS, techniquesOfCommand } from './patterns.js';

/** Every pattern tried, the strongest weight per technique, in the order first found. */
function reference(commandLine: string | null, image: string | null): [string, number][] {
  const out = new Map<string, number>();
  const add = (t: string, w: number): void => {
    if ((out.get(t) ?? 0) < w) out.set(t, w);
  };
  if (commandLine !== null) for (const p of COMMAND_PATTERNS) if (p.pattern.test(commandLine)) add(p.technique, p.weight);
  if (image !== null) for (const p of IMAGE_PATTERNS) if (p.pattern.test(image)) add(p.technique, p.weight);
  return [...out];
}

describe('techniquesOfCommand', () => {
  it('gives the same techniques, weights and order on every call, and a new map each time', () => {
    const cases: [string | null, string | null][] = [
      ['powershell.exe -w hidden -enc SQBFAFgA', 'C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe'],
      ['vssadmin delete shadows /all /quiet', 'C:\\Windows\\System32\\vssadmin.exe'],
      ['rundll32.exe C:\\Users\\a\\AppData\\x.dat,#1', 'C:\\Windows\\System32\\rundll32.exe'],
      ['mshta http://x/y.hta', null],
      [null, 'C:\\Tools\\procdump64.exe'],
      [`cmd /c ${'x'.repeat(300)} vssadmin delete shadows`, null],
      ['notepad.exe', 'C:\\Windows\\notepad.exe'],
    ];
    let found = 0;
    for (let round = 0; round < 3; round++)
      for (const [cmd, image] of cases) {
        const got = techniquesOfCommand(cmd, image);
        expect([...got], `${cmd} ${image}`).toEqual(reference(cmd, image));
        found += got.size;
        // The caller's map is its own: adding to it changes no later answer.
        got.set('T0000', 1);
      }
    expect(found).toBeGreaterThan(10);
  });
});

describe('the ransomware image name', () => {
  const pattern = IMAGE_PATTERNS.find((p) => p.technique === 'T1486')?.pattern as RegExp;
  // What the pattern was before its leading run stopped at a path separator (the same names, without the cubic backtracking).
  const before = /(?:^|[\\/])\S*(?:crypt|locker|ransom)\S*\.exe$/i;

  it('matches what the earlier expression matched, on random paths', () => {
    const next = mulberry32(11);
    const parts = ['\\', '/', ' ', '\t', 'C:', 'Users', 'crypt', 'LOCKER', 'ransom', 'cryp', '.exe', '.EXE', '.dll', 'x', '.', 'e'];
    let hits = 0;
    for (let i = 0; i < 20_000; i++) {
      const path = Array.from({ length: Math.floor(next() * 9) }, () => parts[Math.floor(next() * parts.length)] as string).join('');
      expect(pattern.test(path), JSON.stringify(path)).toBe(before.test(path));
      if (before.test(path)) hits++;
    }
    expect(hits).toBeGreaterThan(100);
  });

  it('reads separators before the names as before', () => {
    expect(pattern.test(`A${'/'.repeat(30)}${'CRYPT'.repeat(10)}\t/CRYPT.EXE`)).toBe(true);
    expect(pattern.test(`A${'/'.repeat(30)}${'CRYPT'.repeat(10)}\t/CRYPT.EXEx`)).toBe(false);
  });
});

describe('command patterns that read each start once', () => {
  // The patterns before each `.*` gap stopped at the next start of the same name and each flag walk at the next name
  // inside a flag, and before a unit path was looked for from the start of its run of non-blanks (the same answers;
  // those read the rest of the line again from every start).
  const BEFORE: Readonly<Record<string, RegExp>> = {
    'T1095': /\/dev\/tcp\/|\bnc(?:at)?(?:\.exe)?\s+(?:-\S+\s+)*-[ec]\s|\bbash\s+-i\s*>&|\bperl\s+-e\s.*\bsocket\b|\bpython[0-9.]*\s+-c\s.*\bsocket\b|\bsocat\s.*\bexec:|\bphp\s+-r\s.*fsockopen|\bruby\s+-rsocket/i,
    'T1490': /vssadmin(?:\.exe)?["']?\s+delete\s+shadows|wmic(?:\.exe)?["']?\s+shadowcopy\s+delete|wbadmin(?:\.exe)?\s+delete\s+(?:catalog|systemstatebackup)|bcdedit(?:\.exe)?\s.*recoveryenabled\s+no|Win32_ShadowCopy.*Delete/i,
    'T1070.003': /\bhistory\s+-c\b|HISTFILE=\/dev\/null|unset\s+HISTFILE|HISTSIZE=0|(?:rm|shred)\s+(?:-\S+\s+)*\S*\.(?:bash|zsh)_history|>\s*\S*\.(?:bash|zsh)_history|ln\s+-sf?\s+\/dev\/null\s+\S*_history|Clear-History/i,
    'T1685.006': /(?:rm|shred|truncate)\s+(?:-\S+\s+)*\/var\/log\/|>\s*\/var\/log\/\S+|journalctl\s+--vacuum|utmpdump|(?:rm|shred)\s+\S*\/(?:wtmp|btmp|lastlog)\b/i,
    'T1070.006': /\btouch\s+(?:-\S+\s+)*-(?:t|r|d)\s|timestomp|\.(?:CreationTime|LastWriteTime|LastAccessTime)\s*=/i,
    'T1685': /Set-MpPreference\s.*-Disable|DisableRealtimeMonitoring|sc(?:\.exe)?\s+(?:stop|delete)\s+windefend|setenforce\s+0|ufw\s+disable/i,
    'T1003.001': /procdump(?:64)?(?:\.exe)?\s.*-ma\s.*lsass|comsvcs(?:\.dll)?[,\s]+#?(?:24|minidump)|sekurlsa|mimikatz|lsass\.dmp|MiniDumpWriteDump|Out-Minidump/i,
    'T1547.001': /reg(?:\.exe)?["']?\s+add\s.*\\(?:Run|RunOnce)\b|CurrentVersion\\Run/i,
    'T1098': /net1?(?:\.exe)?["']?\s+localgroup\s+administrators\s+\S+\s+\/add|usermod\s+(?:-\S+\s+)*-a?G\s*(?:sudo|wheel|root|adm)\b|gpasswd\s+-a\s+\S+\s+(?:sudo|wheel)|Add-LocalGroupMember/i,
    'T1105': /certutil(?:\.exe)?\s.*-urlcache|bitsadmin(?:\.exe)?\s.*\/transfer|Invoke-WebRequest|DownloadString|DownloadFile|\bwget\s+https?:|\bcurl\s+(?:-\S+\s+)*-[oO]\s/i,
    'T1567.002': /rclone(?:\.exe)?\s.*(?:copy|sync)\s.*(?:mega|drive|dropbox|s3|onedrive)|megacmd|mega-put/i,
    'T1048': /rclone(?:\.exe)?\s+(?:copy|sync)|\bcurl\s.*(?:-T\s|--upload-file|-F\s*\S*=@|--data-binary\s+@)|\bscp\s+(?:-\S+\s+)*\S+\s+\S+@\S+:|\bsftp\s|\bftp\s+-|\bnc\s.*<\s*\S+/i,
    'T1074.001': /(?:copy|xcopy|robocopy|cp)\s.*(?:\\Users\\Public\\|\\ProgramData\\|\\Temp\\|\/tmp\/|\/dev\/shm\/)/i,
    'T1047': /wmic(?:\.exe)?["']?\s.*\/node:|Invoke-WmiMethod|Invoke-CimMethod|Win32_Process.*Create/i,
    'T1021.006': /Enter-PSSession|Invoke-Command\s.*-ComputerName|\bwinrs(?:\.exe)?\s/i,
    'T1059.001': /powershell(?:\.exe)?["']?\s+(?:.*\s)?-e(?:nc|ncodedcommand)?\s|\bIEX\b|Invoke-Expression|-w(?:indowstyle)?\s+hidden/i,
    'T1218.011': /rundll32(?:\.exe)?["']?\s.*(?:javascript:|\\\\|http|,\s*#?\d|\.dat|\.tmp|\\Temp\\|\\AppData\\)/i,    'T1543.002': /systemctl\s+enable\s|\/etc\/systemd\/system\/\S+\.service/i,
  };
  const PIECES: Readonly<Record<string, readonly string[]>> = {
    'T1095': ['nc', 'ncat', 'nc.exe', ' -e ', '-c', '-e', '-x', '-nc', ' -', 'perl', ' -e ', 'socket', 'python3', ' -c ', 'socat', 'exec:', 'php', ' -r ', 'fsockopen'],
    'T1490': ['bcdedit', 'recoveryenabled', ' no', 'Win32_ShadowCopy', 'Delete', 'vssadmin', ' delete ', 'shadows'],
    'T1070.003': ['rm', 'shred', '-rm', ' -f ', '-x', '.bash_history', '.zsh_history', 'farm', '/root/'],
    'T1685.006': ['rm', 'shred', 'truncate', '-rm', ' -f ', '-x', '/var/log/', 'farm'],
    'T1070.006': ['touch', '-touch', ' -t ', '-r', '-d', '-x', 'xtouch'],
    'T1685': ['Set-MpPreference', '-Disable', 'x-Disable'],
    'T1003.001': ['procdump', '64', '-ma', 'lsass', '-ma ', '.exe'],
    'T1547.001': ['reg', 'reg.exe', ' add ', 'reg add ', '\\Run', '\\RunOnce', 'Once'],
    'T1098': ['usermod', '-usermod', ' -aG ', '-G', 'sudo', 'wheel', '-a'],
    'T1105': ['curl', '-curl', ' -o ', '-O', '-x', 'xcurl', 'certutil', '-urlcache', 'bitsadmin', '/transfer'],
    'T1567.002': ['rclone', 'rclone ', ' copy ', 'sync ', 'copy', 'mega', 's3', 'drive'],
    'T1048': ['scp', '-scp', 'a@b:', 'a@', '@b', 'b:', '-x', 'curl', '-T', '-F', '=@', '--data-binary', 'nc', '<'],
    'T1074.001': ['copy', 'xcopy', 'cp', '\\Temp\\', '/tmp/', 'robocopy'],
    'T1047': ['wmic', '/node:', 'Win32_Process', 'Create'],
    'T1021.006': ['Invoke-Command', '-ComputerName'],
    'T1059.001': ['powershell', '-enc', '-e', '-encodedcommand', 'powershell.exe', '-ex'],
    'T1218.011': ['rundll32', ',', '#1', 'http', '.dat', ', 1', '\\\\'],
    'T1543.002': ['/etc/systemd/system/', '/etc/systemd/system', '/', 'x', '.service', 'systemctl', ' enable ', '/etc/'],
  };
  const NOISE = [' ', ' ', '\t', '\n', '\r', '\u2028', '"', "'", 'x', '.exe', '-', 'a b', '@', ':'];

  it('match what the patterns before matched, line breaks included', () => {
    const next = mulberry32(29);
    for (const [technique, before] of Object.entries(BEFORE)) {
      const now = COMMAND_PATTERNS.find((p) => p.technique === technique)?.pattern as RegExp;
      const pieces = PIECES[technique] as readonly string[];
      let hits = 0;
      for (let i = 0; i < 12_000; i++) {
        let t = '';
        const n = 1 + Math.floor(next() * 14);
        for (let j = 0; j < n; j++) t += next() < 1 / 3 ? (NOISE[Math.floor(next() * NOISE.length)] as string) : (pieces[Math.floor(next() * pieces.length)] as string);
        const was = before.test(t);
        if (now.test(t) !== was) expect(now.test(t), `${technique}: ${JSON.stringify(t)}`).toBe(was);
        if (was) hits++;
      }
      expect(hits, technique).toBeGreaterThan(50);
    }
  });
});

describe('exeNameIn', () => {
  it('finds what the pattern it replaces found', () => {
    const next = mulberry32(31);
    const pieces = ['a', '.exe', '.EXE', '\\', '/', '"', ' ', '\t', 'x.exe', '.', 'e', 'xe', '\u00a0', '\u2028'];
    let hits = 0;
    for (let i = 0; i < 30_000; i++) {
      const t = Array.from({ length: Math.floor(next() * 10) }, () => pieces[Math.floor(next() * pieces.length)] as string).join('');
      const was = /([^\\/"\s]+\.exe)/i.exec(t)?.[1];
      expect(exeNameIn(t), JSON.stringify(t)).toBe(was);
      if (was !== undefined) hits++;
    }
    expect(hits).toBeGreaterThan(1000);
    expect(exeNameIn('"C:\\Windows\\PSEXESVC.EXE" -k')).toBe('PSEXESVC.EXE');
    expect(exeNameIn('%SystemRoot%\\system32\\svchost.exe.exe x')).toBe('svchost.exe.exe');
    expect(exeNameIn('C:\\a\\.exe')).toBeUndefined();
  });
});
