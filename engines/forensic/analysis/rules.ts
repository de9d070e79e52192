// Stage 5: the causal-rule registry. Each rule is small and named; it reads events in time order and draws edges.
import type { KillChainStage } from '../../core/contracts/forensic.js';
import type { AnalysisEvent, EventSeq } from './events.js';
import { stageOf } from './attack.js';
import type { EventNodeList, EventNodes } from './entities.js';
import { attr, baseName, commandLine, hostKey, imageKey, sourceIp, timeMs, userKey, windowsEventId } from './facts.js';
import { PLAN_STEP, type EdgeRef, type NodeRef, type ProvenanceGraph } from './graph.js';
import { exeNameIn, isInternalAddress, splitEndpoint, techniquesOfCommand } from './patterns.js';

/** What a rule sees: the graph and a way to draw its edges (each event's nodes come with the event). */
export interface RuleContext {
  readonly graph: ProvenanceGraph;
  /** Draws (or strengthens) an edge of this rule; the stage defaults to the first technique's tactic. */
  edge(from: NodeRef | null, to: NodeRef | null, events: readonly AnalysisEvent[], techniques?: readonly string[], relation?: string, stage?: KillChainStage | null): EdgeRef | null;
}

/** One pass of a rule over an analysis: called per event in time order, then once at the end. */
export interface RuleRun {
  /** `position` is the event's position in the sequence the rules run over (`applyRules`' `events`). */
  onEvent?(e: AnalysisEvent, n: EventNodes, ctx: RuleContext, position: number): void;
  finish?(ctx: RuleContext): void;
}

export interface CausalRule {
  readonly name: string;
  readonly relation: string;
  readonly description: string;
  /** Stage when no technique gives one. */
  readonly stage: KillChainStage | null;
  /**
   * The event actions the rule reads, when it reads only some: its onEvent is then called only for events of these
   * actions (it must do nothing, not even keep state, for any other). Without it, every event.
   */
  readonly actions?: readonly string[];
  create(): RuleRun;
}

const isCreate = (e: AnalysisEvent): boolean => e.action === 'process.create' || e.action === 'process.exec';
const CREATE_ACTIONS = ['process.create', 'process.exec'];
const techs = (m: Map<string, number>): string[] => [...m.keys()];

/** Parents that mean the child was started remotely, and the technique each shows. */
const REMOTE_PARENTS: ReadonlyMap<string, readonly string[]> = new Map([
  ['wmiprvse.exe', ['T1047']],
  ['wsmprovhost.exe', ['T1021.006']],
  ['psexesvc.exe', ['T1569.002', 'T1021.002']],
  ['paexec.exe', ['T1569.002', 'T1021.002']],
  ['winrshost.exe', ['T1021.006']],
]);

const processSpawn: CausalRule = {
  name: 'process-spawn',
  relation: 'spawned',
  description: 'A process created another (Sysmon 1, Security 4688, auditd execve, Volatility pslist); the child\'s command line names techniques.',
  stage: 'execution',
  actions: CREATE_ACTIONS,
  create: () => ({
    onEvent(e, n, ctx) {
      if (!isCreate(e) || n.parent === null || n.process === null) return;
      const parentKey = imageKey(String(ctx.graph.attribute(n.parent, 'image') ?? ctx.graph.label(n.parent)));
      if (REMOTE_PARENTS.has(parentKey)) return;
      const t = techniquesOfCommand(commandLine(e), String(ctx.graph.attribute(n.process, 'image') ?? ctx.graph.label(n.process)));
      // services.exe starting a shell is a service created to run a command (PsExec-style service execution).
      if (parentKey === 'services.exe' && /^(?:cmd|powershell|pwsh|rundll32|mshta)\.exe$/i.test(baseName(String(ctx.graph.attribute(n.process, 'image') ?? '')))) t.set('T1569.002', 0.6);
      ctx.edge(n.parent, n.process, [e], techs(t));
    },
  }),
};

const remoteExecution: CausalRule = {
  name: 'remote-execution',
  relation: 'executed-remotely',
  description: 'A process started by WmiPrvSE (WMI), wsmprovhost (WinRM) or PSEXESVC (PsExec), or a PsExec named pipe; linked from the network logon it ran in when there is one.',
  stage: 'lateral-movement',
  create: () => ({
    onEvent(e, n, ctx) {
      if (isCreate(e) && n.parent !== null && n.process !== null) {
        const remote = REMOTE_PARENTS.get(imageKey(String(ctx.graph.attribute(n.parent, 'image') ?? ctx.graph.label(n.parent))));
        if (remote) {
          const more = techs(techniquesOfCommand(commandLine(e), null));
          ctx.edge(n.session ?? n.parent, n.process, [e], [...remote, ...more]);
          if (n.session !== null) ctx.edge(n.parent, n.process, [e], [...remote, ...more]);
        }
        return;
      }
      // Sysmon 17/18: a named pipe of PsExec's service.
      const id = windowsEventId(e);
      if (id !== 17 && id !== 18) return;
      const pipe = attr(e, 'PipeName');
      if (pipe !== null && /psexesvc|paexec|remcom|csexec/i.test(pipe) && n.process !== null) {
        const node = ctx.graph.node('other', `${hostKey(e.host)}:pipe:${pipe.toLowerCase()}`, pipe, e.host, e, { pipe });
        ctx.edge(n.process, node, [e], ['T1021.002', 'T1569.002'], 'opened-pipe');
      }
    },
  }),
};

/** A network logon this soon after a remote-administration connection from its source host is that connection's logon. */
export const REMOTE_LOGON_LINK_MS = 120_000;
/** Ports of remote administration (SMB, RPC for WMI, RDP, WinRM, SSH). */
const ADMIN_PORTS = new Set([445, 139, 135, 3389, 5985, 5986, 22]);

const remoteLogon: CausalRule = {
  name: 'remote-logon',
  relation: 'logged-on-remotely',
  description: 'A process connected to a remote-administration port and, within two minutes, a network or RDP logon arrived on the target from that host (the source host known by its address in its own connections, or the logon\'s workstation name): the link across hosts (T1021).',
  stage: 'lateral-movement',
  actions: ['network.connect', 'network.connection', 'auth.login.success'],
  create: () => {
    const hostOfIp = new Map<string, string>();
    const recent = new Map<string, { process: NodeRef; event: AnalysisEvent; ms: number; port: number }>();
    return {
      onEvent(e, n, ctx) {
        if (e.action === 'network.connect' || e.action === 'network.connection') {
          const src = attr(e, 'sourceIp', 'SourceIp');
          if (src !== null && e.host !== null && isInternalAddress(src)) hostOfIp.set(src, e.host.toLowerCase());
          const ms = timeMs(e);
          if (n.process === null || n.object === null || ms === null || e.host === null) return;
          const { address, port } = splitEndpoint(ctx.graph.label(n.object));
          if (port !== null && ADMIN_PORTS.has(port) && isInternalAddress(address)) recent.set(e.host.toLowerCase(), { process: n.process, event: e, ms, port });
          return;
        }
        if (e.action !== 'auth.login.success' || n.session === null || windowsEventId(e) === null) return;
        const type = attr(e, 'logonType', 'LogonType');
        if (type !== '3' && type !== '10') return;
        const ip = sourceIp(e);
        const from = (ip !== null ? hostOfIp.get(ip) : undefined) ?? attr(e, 'workstation', 'WorkstationName')?.toLowerCase();
        const ms = timeMs(e);
        if (from === undefined || ms === null || from === (e.host ?? '').toLowerCase()) return;
        const c = recent.get(from) ?? [...recent].find(([h]) => h.split('.')[0] === from.split('.')[0])?.[1];
        if (!c || ms - c.ms < -TEMPORAL_SKEW_MS || ms - c.ms > REMOTE_LOGON_LINK_MS) return;
        const t = c.port === 445 || c.port === 139 ? ['T1021.002'] : c.port === 135 ? ['T1047'] : c.port === 3389 ? ['T1021.001'] : c.port === 22 ? ['T1021.004'] : ['T1021.006'];
        ctx.edge(c.process, n.session, [c.event, e], t);
      },
    };
  },
};
/** Clocks of two hosts may disagree by this much. */
const TEMPORAL_SKEW_MS = 5000;

const logonThenActivity: CausalRule = {
  name: 'logon-then-activity',
  relation: 'ran',
  description: 'A logon session and what ran in it: Windows logon ids (4624 TargetLogonId, 4688 SubjectLogonId, Sysmon LogonId); Linux sudo/su and cron commands of the session\'s user on its host while it was open.',
  stage: null,
  actions: ['auth.login.success', ...CREATE_ACTIONS, 'process.access', 'session.close', 'logind.session.removed', 'sudo.command', 'su.success'],
  create: () => {
    const open = new Map<string, { session: NodeRef; ms: number | null }>();
    return {
      onEvent(e, n, ctx) {
        const hk = hostKey(e.host);
        if (e.action === 'auth.login.success' && n.session !== null) {
          const ip = sourceIp(e);
          const from = ip !== null ? ctx.graph.node('endpoint', ip.toLowerCase(), ip, null, e, { address: ip }) : n.user;
          const type = attr(e, 'logonType', 'LogonType');
          const t: string[] = type === '10' ? ['T1021.001'] : [];
          ctx.edge(from, n.session, [e], t, 'logged-on');
          if (n.user !== null && from !== n.user) ctx.edge(n.user, n.session, [e], [], 'logged-on');
          if (windowsEventId(e) === null && n.user !== null) open.set(`${hk}:${ctx.graph.nodeId(n.user)}`, { session: n.session, ms: timeMs(e) });
          return;
        }
        if (n.session !== null && (isCreate(e) || e.action === 'process.access') && n.process !== null && windowsEventId(e) !== null) {
          ctx.edge(n.session, n.process, [e]);
          return;
        }
        if ((e.action === 'session.close' || e.action === 'logind.session.removed') && n.user !== null) open.delete(`${hk}:${ctx.graph.nodeId(n.user)}`);
        // Linux: what a logged-on user did through sudo, su or as a command while the session was open.
        if ((e.action === 'sudo.command' || e.action === 'su.success') && n.user !== null) {
          const s = open.get(`${hk}:${ctx.graph.nodeId(n.user)}`);
          const target = n.process ?? n.object;
          if (s && target !== null) ctx.edge(s.session, target, [e]);
        }
      },
    };
  },
};

const FAILURES = new Set(['auth.login.failure', 'auth.failure', 'auth.invalid_user', 'kerberos.preauth_failure']);
const ATTEMPTS = new Set([...FAILURES, 'kerberos.tgt_request', 'auth.ntlm_validation']);
/** Failures from one source within this window count towards one attack. */
const BRUTE_WINDOW_MS = 15 * 60 * 1000;
export const BRUTE_FORCE_MIN_FAILURES = 5;
export const SPRAY_MIN_USERS = 3;

/** Spraying: several accounts, few tries each (at most SPRAY_MAX_PER_USER attempts per account on average). */
export const SPRAY_MAX_PER_USER = 3;
function isSpray(s: { events: readonly AnalysisEvent[]; failures: number; users: ReadonlySet<string> }): boolean {
  return s.users.size >= SPRAY_MIN_USERS && s.failures >= 1 && s.events.length / s.users.size <= SPRAY_MAX_PER_USER;
}

const bruteForce: CausalRule = {
  name: 'brute-force',
  relation: 'guessed',
  description: 'Many failed logons from one source (guessing, T1110.001) or attempts on several accounts (spraying, T1110.003); a later success from that source is the session the guessing opened.',
  stage: 'credential-access',
  actions: ['auth.login.success', ...ATTEMPTS],
  create: () => {
    const bySource = new Map<string, { events: AnalysisEvent[]; failures: number; users: Set<string>; lastMs: number | null; fired: boolean }>();
    return {
      onEvent(e, n, ctx) {
        const ip = sourceIp(e) ?? attr(e, 'sourceHost');
        if (ip === null) return;
        const key = `${hostKey(e.host)}|${ip.toLowerCase()}`;
        const ms = timeMs(e);
        let s = bySource.get(key);
        if (s && s.lastMs !== null && ms !== null && ms - s.lastMs > BRUTE_WINDOW_MS && !s.fired) s = undefined;
        if (ATTEMPTS.has(e.action) || (e.action === 'auth.login.success' && s !== undefined)) {
          if (!s) bySource.set(key, (s = { events: [], failures: 0, users: new Set(), lastMs: ms, fired: false }));
          if (ms !== null) s.lastMs = ms;
          if (e.action !== 'auth.login.success') {
            s.events.push(e);
            if (FAILURES.has(e.action)) s.failures++;
            const who = e.actor?.type === 'user' ? userKey(e.actor.name) : null;
            if (who !== null) s.users.add(who);
            return;
          }
        }
        if (e.action !== 'auth.login.success' || !s) return;
        const spray = isSpray(s);
        if (s.failures >= BRUTE_FORCE_MIN_FAILURES || spray) {
          const from = ctx.graph.node('endpoint', ip.toLowerCase(), ip, null, null, { address: ip });
          ctx.edge(from, n.session ?? n.user, [...s.events, e], [spray ? 'T1110.003' : 'T1110.001', 'T1078', ...(attr(e, 'service') === 'sshd' ? ['T1021.004'] : [])], 'brute-forced');
          s.fired = true;
        }
      },
      finish(ctx) {
        for (const [key, s] of bySource) {
          if (s.fired) continue;
          const spray = isSpray(s);
          if (s.failures < BRUTE_FORCE_MIN_FAILURES && !spray) continue;
          const ip = key.slice(key.indexOf('|') + 1);
          const first = s.events[0] as AnalysisEvent;
          const from = ctx.graph.node('endpoint', ip, ip, null, null, { address: ip });
          // One node for the attempts, so that a spray over many accounts is one story, not one per account.
          const attempts = ctx.graph.node('other', `${key}:attempts`, `logon attempts from ${ip}`, first.host, null, { source: ip, accounts: s.users.size, failures: s.failures });
          ctx.edge(from, attempts, s.events, [spray ? 'T1110.003' : 'T1110.001']);
        }
      },
    };
  },
};

const FILE_WRITES = new Set(['file.create', 'file.modify', 'file.rename']);
/** Processes that fetch files from the network: a file they wrote and that then ran came from outside. */
const DOWNLOADERS = /^(?:certutil|bitsadmin|powershell|pwsh|curl|wget|mshta|msedge|chrome|firefox|iexplore|outlook)(?:\.exe)?$/i;

const fileWriteThenExecute: CausalRule = {
  name: 'file-write-then-execute',
  relation: 'wrote-then-executed',
  description: 'A process wrote a file that later ran as a process on the same host (Sysmon 11 then 1, auditd creat then execve, timeline then process).',
  stage: 'execution',
  actions: [...FILE_WRITES, ...CREATE_ACTIONS],
  create: () => {
    const written = new Map<string, { writer: NodeRef | null; file: NodeRef; event: AnalysisEvent }>();
    return {
      onEvent(e, n, ctx) {
        const hk = hostKey(e.host);
        if (FILE_WRITES.has(e.action) && e.object?.type === 'file' && n.object !== null) {
          written.set(`${hk}:${e.object.name.toLowerCase()}`, { writer: n.process, file: n.object, event: e });
          return;
        }
        // Nothing written yet on any host: no process can have been started from a written file.
        if (!isCreate(e) || n.process === null || written.size === 0) return;
        const image = String(ctx.graph.attribute(n.process, 'image') ?? '');
        const w = written.get(`${hk}:${image.toLowerCase()}`);
        if (!w) return;
        const t: string[] = [];
        if (w.writer !== null) {
          const writer = baseName(String(ctx.graph.attribute(w.writer, 'image') ?? ctx.graph.label(w.writer)));
          if (DOWNLOADERS.test(writer)) t.push('T1105');
          if (ctx.graph.attribute(w.writer, 'pid') === 4 || /^system$/i.test(writer)) t.push('T1570');
          ctx.edge(w.writer, w.file, [w.event], t, 'wrote');
        }
        ctx.edge(w.file, n.process, [e], t, 'executed');
      },
    };
  },
};

/** A service image that is a shell, a script host or PsExec's service: the service exists to run a command. */
const SERVICE_EXECUTION = /psexesvc|paexec|remcom|%comspec%|(?:^|[\\/"\s])(?:cmd|powershell|pwsh|rundll32|mshta|calc)(?:\.exe)?(?:["\s]|$)|\\ADMIN\$\\/i;

const serviceCreation: CausalRule = {
  name: 'service-creation',
  relation: 'created-service',
  description: 'A service was installed (System 7045, Security 4697): persistence (T1543.003); a PsExec-style or command-shell image path is service execution (T1569.002).',
  stage: 'persistence',
  actions: [...CREATE_ACTIONS, 'service.install'],
  create: () => {
    const installed = new Map<string, { service: NodeRef; ms: number | null }>();
    return {
    onEvent(e, n, ctx) {
      const hk = hostKey(e.host);
      if (isCreate(e) && n.process !== null) {
        // No service installed yet: nothing to link.
        if (installed.size === 0) return;
        // The service's image started by services.exe: the service ran it.
        const image = baseName(String(ctx.graph.attribute(n.process, 'image') ?? '')).toLowerCase();
        const s = installed.get(`${hk}:${image}`);
        const ms = timeMs(e);
        if (s && n.parent !== null && imageKey(String(ctx.graph.attribute(n.parent, 'image') ?? ctx.graph.label(n.parent))) === 'services.exe' && (s.ms === null || ms === null || (ms >= s.ms - TEMPORAL_SKEW_MS && ms - s.ms <= 600_000)))
          ctx.edge(s.service, n.process, [e], [], 'started');
        return;
      }
      if (e.action !== 'service.install' || n.object === null) return;
      const image = attr(e, 'imagePath', 'ImagePath', 'ServiceFileName') ?? '';
      const exe = exeNameIn(image);
      if (exe !== undefined) installed.set(`${hk}:${exe.toLowerCase()}`, { service: n.object, ms: timeMs(e) });
      const t = ['T1543.003'];
      if (SERVICE_EXECUTION.test(image)) t.push('T1569.002');
      if (/psexesvc|paexec|ADMIN\$/i.test(image) || /psexesvc/i.test(e.object?.name ?? '')) t.push('T1021.002');
      for (const x of techniquesOfCommand(image, null).keys()) if (!t.includes(x)) t.push(x);
      ctx.edge(n.process ?? n.user ?? n.host, n.object, [e], t);
    },
    };
  },
};

const taskCreation: CausalRule = {
  name: 'task-creation',
  relation: 'created-task',
  description: 'A scheduled task was created or changed (Security 4698/4702, TaskScheduler 106): persistence or execution (T1053.005).',
  stage: 'persistence',
  actions: ['task.create', 'task.update'],
  create: () => ({
    onEvent(e, n, ctx) {
      if ((e.action !== 'task.create' && e.action !== 'task.update') || n.object === null) return;
      const content = attr(e, 'TaskContent') ?? '';
      const t = ['T1053.005', ...techniquesOfCommand(content, null).keys()].filter((x, i, a) => a.indexOf(x) === i);
      ctx.edge(n.process ?? n.user ?? n.host, n.object, [e], t);
    },
  }),
};

/**
 * Autorun keys. The IFEO debugger's `\Image File Execution Options\...\Debugger` is checked from the end (a look-behind
 * read once at the last `\Debugger`), not from each occurrence of the key name to the end.
 */
export const AUTORUN = /\\CurrentVersion\\(?:Run|RunOnce|RunServices|Policies\\Explorer\\Run)\\|\\Winlogon\\(?:Userinit|Shell)$|\\Debugger$(?<=\\Image File Execution Options\\.*\\Debugger)/i;

const registryPersistence: CausalRule = {
  name: 'registry-persistence',
  relation: 'set-autorun',
  description: 'A process wrote an autorun registry value (Run keys, Winlogon, IFEO debugger: T1547.001) or a service ImagePath (T1543.003; T1569.002 when it runs a shell).',
  stage: 'persistence',
  actions: ['registry.set'],
  create: () => ({
    onEvent(e, n, ctx) {
      if (e.action !== 'registry.set' || e.object === null) return;
      if (AUTORUN.test(e.object.name)) {
        ctx.edge(n.process, n.object, [e], ['T1547.001']);
        return;
      }
      // A service's ImagePath written straight into the registry (how Metasploit's psexec and others create services).
      if (/\\CurrentControlSet\\services\\[^\\]+\\ImagePath$/i.test(e.object.name)) {
        const value = attr(e, 'details', 'Details') ?? '';
        const t = ['T1543.003', ...(SERVICE_EXECUTION.test(value) ? ['T1569.002'] : []), ...techniquesOfCommand(value, null).keys()];
        ctx.edge(n.process, n.object, [e], t.filter((x, i) => t.indexOf(x) === i));
      }
    },
  }),
};

const LSASS = /(?:^|[\\/])lsass(?:\.exe)?$/i;
/** A dump file named after LSASS or with a one-to-three-letter name, checked from its `.dmp` end (read once). */
export const LSASS_DUMP = /\.dmp$(?<=(?:lsass[^\\/]*|\\[a-z]{1,3})\.dmp)/i;

const credentialAccess: CausalRule = {
  name: 'credential-access',
  relation: 'accessed-credentials',
  description: 'LSASS memory read (Sysmon 10 with lsass.exe as target), a dumping script block (PowerShell 4104), or /etc/shadow read by something other than the login stack: T1003.001.',
  stage: 'credential-access',
  actions: ['process.access', 'file.create', 'script.block', 'script.pipeline'],
  create: () => ({
    onEvent(e, n, ctx) {
      if (e.action === 'process.access' && e.object !== null && LSASS.test(e.object.name) && n.process !== null) {
        const access = attr(e, 'grantedAccess', 'GrantedAccess') ?? '';
        // 0x1000 alone (query limited information) is what every monitoring tool asks for.
        if (/^0x0*1000$/i.test(access) || /^0x0*1400$/i.test(access)) return;
        ctx.edge(n.process, n.object, [e], ['T1003.001']);
        return;
      }
      if (e.action === 'file.create' && e.object !== null && LSASS_DUMP.test(e.object.name) && n.process !== null) {
        ctx.edge(n.process, n.object, [e], ['T1003.001'], 'dumped-to');
        return;
      }
      if (e.action === 'script.block' || e.action === 'script.pipeline') {
        const script = attr(e, 'script', 'ScriptBlockText') ?? '';
        const t = techniquesOfCommand(script, null);
        if (!t.has('T1003.001')) return;
        const hk = hostKey(e.host);
        const ps = n.process ?? ctx.graph.node('process', `${hk}:?:powershell.exe`, 'powershell.exe', e.host, e, { image: 'powershell.exe' });
        const lsass = ctx.graph.node('process', `${hk}:?:lsass.exe`, 'lsass.exe', e.host, e, { image: 'lsass.exe' });
        ctx.edge(ps, lsass, [e], techs(t));
      }
    },
  }),
};

/** Ports whose internal use is remote administration (and the technique). */
const REMOTE_PORTS: ReadonlyMap<number, string> = new Map([
  [445, 'T1021.002'],
  [139, 'T1021.002'],
  [3389, 'T1021.001'],
  [5985, 'T1021.006'],
  [5986, 'T1021.006'],
  [22, 'T1021.004'],
]);
/** Images that should not talk to the internet on their own: an external connection from them is command and control. */
const LOLBINS = /^(?:rundll32|regsvr32|mshta|powershell|pwsh|wscript|cscript|certutil|bitsadmin|msbuild|installutil|notepad)(?:\.exe)?$/i;

const networkConnection: CausalRule = {
  name: 'network-connection',
  relation: 'connected',
  description: 'A process connected to an address (Sysmon 3, Security 5156, auditd connect, Volatility netscan): remote-administration ports inside the network are lateral movement; a script host or LOLBin talking outside is command and control (T1071).',
  stage: null,
  actions: ['network.connect', 'network.connection', 'network.connection.allowed'],
  create: () => ({
    onEvent(e, n, ctx) {
      if (!(e.action === 'network.connect' || e.action === 'network.connection' || e.action === 'network.connection.allowed') || n.process === null || n.object === null) return;
      const { address, port } = splitEndpoint(ctx.graph.label(n.object));
      const image = baseName(String(ctx.graph.attribute(n.process, 'image') ?? ctx.graph.label(n.process)));
      const t: string[] = [];
      const internal = isInternalAddress(address);
      const remote = port !== null ? REMOTE_PORTS.get(port) : undefined;
      if (internal && remote !== undefined && !/^(?:system|svchost\.exe|lsass\.exe)$/i.test(image)) t.push(remote);
      if (!internal && LOLBINS.test(image)) t.push('T1071');
      for (const x of techniquesOfCommand(String(ctx.graph.attribute(n.process, 'commandLine') ?? ''), null).keys()) if (x === 'T1048' || x === 'T1567.002') t.push(x);
      ctx.edge(n.process, n.object, [e], t);
    },
  }),
};

const privilegeUse: CausalRule = {
  name: 'privilege-use',
  relation: 'elevated',
  description: 'sudo or su to another user (auth.log, auditd USER_CMD): T1548.003; the command\'s own techniques are added.',
  stage: 'privilege-escalation',
  actions: ['sudo.command', 'su.success'],
  create: () => ({
    onEvent(e, n, ctx) {
      if (e.action !== 'sudo.command' && e.action !== 'su.success') return;
      const cmd = commandLine(e);
      const target: NodeRef | null = e.action === 'sudo.command' ? n.process : n.object;
      const t = ['T1548.003', ...techniquesOfCommand(cmd, null).keys()];
      ctx.edge(n.user, target, [e], t);
    },
  }),
};

const ACCOUNT_ACTIONS: ReadonlyMap<string, string> = new Map([
  ['account.create', 'T1136.001'],
  ['account.group.add', 'T1098'],
  ['account.enable', 'T1098'],
  ['account.password_reset', 'T1098'],
  ['account.password_change', 'T1098'],
  ['account.modify', 'T1098'],
]);
/** An account change this soon after a sudo command on the same host is that command's doing. */
const ACCOUNT_LINK_MS = 120_000;

const accountChange: CausalRule = {
  name: 'account-change',
  relation: 'changed-account',
  description: 'An account was created, enabled, given a password or added to a group (Security 4720/4722/4724/4728/4732, useradd/usermod in auth.log): T1136.001, T1098; linked from the sudo command that made it when one ran just before.',
  stage: 'persistence',
  actions: ['sudo.command', ...ACCOUNT_ACTIONS.keys()],
  create: () => {
    const lastSudo = new Map<string, { node: NodeRef; ms: number | null }>();
    return {
      onEvent(e, n, ctx) {
        const hk = hostKey(e.host);
        if (e.action === 'sudo.command') {
          const cmd = commandLine(e) ?? '';
          if (/user(?:add|mod)|adduser|passwd|gpasswd|chpasswd/.test(cmd) && n.process !== null) lastSudo.set(hk, { node: n.process, ms: timeMs(e) });
          return;
        }
        const t = ACCOUNT_ACTIONS.get(e.action);
        if (t === undefined || (n.object === null && n.user === null)) return;
        const target = n.object ?? n.user;
        let from: NodeRef | null = n.object !== null ? n.user : null;
        const s = lastSudo.get(hk);
        const ms = timeMs(e);
        if (from === null && s && s.ms !== null && ms !== null && ms - s.ms >= 0 && ms - s.ms <= ACCOUNT_LINK_MS) from = s.node;
        const group = attr(e, 'group') ?? '';
        const techniques = /admin|sudo|wheel|root|domain admins/i.test(group) ? [t, 'T1078'] : [t];
        ctx.edge(from ?? n.host, target, [e], techniques);
      },
    };
  },
};

const logClear: CausalRule = {
  name: 'log-clear',
  relation: 'cleared',
  description: 'An event log was cleared (Security 1102, System 104): T1685.005 (T1070.001 in ATT&CK 18.1), from the account that cleared it.',
  stage: 'defense-evasion',
  actions: ['log.clear'],
  create: () => ({
    onEvent(e, n, ctx) {
      if (e.action !== 'log.clear') return;
      const hk = hostKey(e.host);
      const log = n.object ?? ctx.graph.node('other', `${hk}:log:?`, 'event log', e.host, e);
      ctx.edge(n.user ?? n.process ?? n.host, log, [e], ['T1685.005']);
    },
  }),
};

/**
 * A cron job that opens a shell to the network or runs from a temporary folder. Each `.*` gap after a tool name stops at
 * the next start of the same name and nc's flag walk at a flag ending in `nc` (a later start reads on from there), so
 * a line of repeated `curl ` or `nc -` is read once, not once per start.
 */
export const SUSPICIOUS_JOB = /\/dev\/tcp\/|\bnc\s+(?:-(?:(?!\bnc\s)\S)+\s+)*-e\b|bash\s+-i\b|\bcurl\s(?:(?!\bcurl\s).)*\|\s*(?:ba)?sh|\bwget\s(?:(?!\bwget\s).)*\|\s*(?:ba)?sh|^\/tmp\/|^\/dev\/shm\/|python[0-9.]*\s+-c\s(?:(?!python[0-9.]*\s+-c\s).)*socket/;

const scheduledExecution: CausalRule = {
  name: 'scheduled-execution',
  relation: 'ran-job',
  description: 'A cron job that opens a shell to the network or runs from a temporary folder (T1053.003, T1059.004); linked from the crontab change that installed it when one ran before on the host.',
  stage: 'execution',
  actions: ['sudo.command', ...CREATE_ACTIONS, 'cron.command'],
  create: () => {
    const installed = new Map<string, NodeRef>();
    return {
      onEvent(e, n, ctx) {
        const hk = hostKey(e.host);
        const cmd = commandLine(e) ?? '';
        if ((e.action === 'sudo.command' || isCreate(e)) && /\bcrontab\s+(?!-l)|\/etc\/cron|\/var\/spool\/cron/.test(cmd) && n.process !== null) {
          installed.set(hk, n.process);
          return;
        }
        if (e.action !== 'cron.command' || !SUSPICIOUS_JOB.test(cmd)) return;
        const job = ctx.graph.node('process', `${hk}:cron:${e.eventId}`, `cron ${cmd.slice(0, 80)}`, e.host, e, { image: 'cron', commandLine: cmd });
        const t = ['T1053.003', 'T1059.004', ...techniquesOfCommand(cmd, null).keys()];
        ctx.edge(installed.get(hk) ?? n.user, job, [e], t.filter((x, i) => t.indexOf(x) === i));
      },
    };
  },
};

const defenseEvasion: CausalRule = {
  name: 'defense-evasion',
  relation: 'tampered',
  description: 'The audit policy changed (4719), the clock was set (4616) or a file creation time was changed (Sysmon 2), linked from who did it.',
  stage: 'defense-evasion',
  create: () => ({
    onEvent(e, n, ctx) {
      const id = windowsEventId(e);
      // It reads every action, so the event ids it acts on are told first.
      if (id !== 4719 && id !== 4906 && id !== 4912 && id !== 4616 && id !== 2) return;
      const provider = String(e.attributes['provider'] ?? '');
      const hk = hostKey(e.host);
      if ((id === 4719 || id === 4906 || id === 4912) && /Security/.test(provider)) {
        const policy = ctx.graph.node('other', `${hk}:audit-policy`, `audit policy of ${e.host ?? '?'}`, e.host, e);
        ctx.edge(n.user ?? n.process, policy, [e], ['T1685.001'], 'changed-audit-policy');
      } else if (id === 4616 && /Security/.test(provider) && !/svchost\.exe|vmtoolsd\.exe|w32tm\.exe/i.test(attr(e, 'ProcessName') ?? '')) {
        const clock = ctx.graph.node('other', `${hk}:clock`, `clock of ${e.host ?? '?'}`, e.host, e);
        ctx.edge(n.user ?? n.process, clock, [e], ['T1070.006'], 'set-clock');
      } else if (id === 2 && /Sysmon/.test(provider) && n.object !== null) {
        ctx.edge(n.process, n.object, [e], ['T1070.006'], 'timestomped');
      }
    },
  }),
};

/** File extensions ransomware leaves, and ransom-note names. */
const RANSOM = /\.(?:locked|encrypted|enc|crypt|crypted|cry|ransom|lockbit|ryk|conti|wncry|[a-z0-9]{6,8}_locked)$|(?:^|[\\/])(?:readme|how_to_decrypt|restore_files|decrypt_instructions)[^\\/]*\.(?:txt|html?)$/i;
/** Writes by one process above which a burst is mass encryption even without telling names. */
export const MASS_WRITE_MIN_FILES = 25;
const MASS_WRITE_WINDOW_MS = 10 * 60 * 1000;

const fileImpact: CausalRule = {
  name: 'file-impact',
  relation: 'encrypted',
  description: 'A process renamed or wrote files with ransomware extensions or notes, or wrote many files in a burst: T1486.',
  stage: 'impact',
  actions: [...FILE_WRITES],
  create: () => {
    const burst = new Map<string, { events: AnalysisEvent[]; files: NodeRef[]; startMs: number | null; telling: number }>();
    return {
      onEvent(e, n, ctx) {
        if (!FILE_WRITES.has(e.action) || n.process === null || n.object === null || e.object === null) return;
        const telling = RANSOM.test(e.object.name) || RANSOM.test(attr(e, 'newName', 'target') ?? '');
        let b = burst.get(ctx.graph.nodeId(n.process));
        const ms = timeMs(e);
        if (!b || (b.startMs !== null && ms !== null && ms - b.startMs > MASS_WRITE_WINDOW_MS)) burst.set(ctx.graph.nodeId(n.process), (b = { events: [], files: [], startMs: ms, telling: 0 }));
        b.events.push(e);
        b.files.push(n.object);
        if (telling) b.telling++;
        if (telling) ctx.edge(n.process, n.object, [e], ['T1486']);
        void ctx;
      },
      finish(ctx) {
        for (const [pid, b] of burst) {
          if (b.files.length < MASS_WRITE_MIN_FILES || b.telling > 0) continue;
          const p = ctx.graph.findNode(pid) ?? null;
          b.files.forEach((f, i) => ctx.edge(p, f, [b.events[i] as AnalysisEvent], ['T1486']));
        }
      },
    };
  },
};

const STAGING_DIR = /(?:\\Users\\Public\\|\\ProgramData\\|\\AppData\\Local\\Temp\\|\\Windows\\Temp\\|^\/tmp\/|^\/var\/tmp\/|^\/dev\/shm\/|\/\.cache\/)/i;
const ARCHIVE = /\.(?:zip|7z|rar|tar|tgz|gz|bz2|xz)$/i;
/** Documents and data that have no business in a staging folder. */
const DATA_FILE = /\.(?:xlsx?|docx?|pdf|csv|pst|ost|sql|bak|kdbx|pptx?)$/i;

const dataStaging: CausalRule = {
  name: 'data-staging',
  relation: 'staged',
  description: 'An archive (T1074.001, T1560.001) or documents (T1074.001) written to a staging folder (Public, ProgramData, Temp, /tmp, /dev/shm).',
  stage: 'collection',
  actions: [...FILE_WRITES],
  create: () => ({
    onEvent(e, n, ctx) {
      if (!FILE_WRITES.has(e.action) || e.object === null || !STAGING_DIR.test(e.object.name)) return;
      if (ARCHIVE.test(e.object.name)) ctx.edge(n.process ?? n.user, n.object, [e], ['T1074.001', 'T1560.001']);
      else if (DATA_FILE.test(e.object.name)) ctx.edge(n.process ?? n.user, n.object, [e], ['T1074.001']);
    },
  }),
};

/** The built-in rules, in the order they run. */
export const CAUSAL_RULES: readonly CausalRule[] = [
  processSpawn,
  remoteExecution,
  remoteLogon,
  logonThenActivity,
  bruteForce,
  fileWriteThenExecute,
  serviceCreation,
  taskCreation,
  registryPersistence,
  credentialAccess,
  networkConnection,
  privilegeUse,
  accountChange,
  logClear,
  defenseEvasion,
  scheduledExecution,
  fileImpact,
  dataStaging,
];

/** The stage of the first technique that has one (techniques.map(stageOf).find(...) without the list). */
function firstStage(techniques: readonly string[]): KillChainStage | null | undefined {
  for (let i = 0; i < techniques.length; i++) {
    const s = stageOf(techniques[i] as string);
    if (s !== null) return s;
  }
  return undefined;
}

/**
 * Runs the rules over events in time order; edges get the rule's confidence from `confidence` (default 0.5).
 * `nodes.at(i)` is what events[i] touched (extractEntities' table, or an array).
 */
export function applyRules(
  events: EventSeq,
  graph: ProvenanceGraph,
  nodes: EventNodeList,
  confidence: (rule: string) => number,
  rules: readonly CausalRule[] = CAUSAL_RULES,
): void {
  const runs = rules.map((rule) => {
    const ctx: RuleContext = {
      graph,
      edge(from, to, evs, techniques = [], relation = rule.relation, given = null) {
        if (from === null || to === null) return null;
        const stage = given ?? firstStage(techniques) ?? rule.stage;
        const edge = graph.edge(from, to, rule.name, relation, evs, techniques, stage);
        if (edge !== null) graph.setConfidence(edge, confidence(rule.name));
        return edge;
      },
    };
    return { run: rule.create(), ctx, actions: rule.actions === undefined ? null : new Set(rule.actions) };
  });
  // The runs each action calls, in rule order (made when the action is first met): a rule that reads only some actions
  // is not called for the others.
  const byAction = new Map<string, { onEvent: NonNullable<RuleRun['onEvent']>; run: RuleRun; ctx: RuleContext }[]>();
  const runsOf = (action: string): { onEvent: NonNullable<RuleRun['onEvent']>; run: RuleRun; ctx: RuleContext }[] => {
    let list = byAction.get(action);
    if (list === undefined) {
      list = [];
      for (const { run, ctx, actions } of runs) if (run.onEvent !== undefined && (actions === null || actions.has(action))) list.push({ onEvent: run.onEvent, run, ctx });
      byAction.set(action, list);
    }
    return list;
  };
  for (let i = 0; i < events.length; i++) {
    // The graph sizes its edge columns by the pace of new edges.
    if ((i & (PLAN_STEP - 1)) === 0) graph.plan(i, events.length);
    const e = events.at(i) as AnalysisEvent;
    const list = runsOf(e.action);
    if (list.length === 0) continue;
    const n = nodes.at(i);
    if (!n) continue;
    for (let k = 0; k < list.length; k++) {
      const r = list[k] as { onEvent: NonNullable<RuleRun['onEvent']>; run: RuleRun; ctx: RuleContext };
      r.onEvent.call(r.run, e, n, r.ctx, i);
    }
  }
  for (const { run, ctx } of runs) run.finish?.(ctx);
}
