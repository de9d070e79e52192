// Compose lint over a real YAML parse (the yaml package, core schema): privileges, host namespaces and mounts, capabilities, secrets, ports, images, users.
import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Node } from 'yaml';
import type { Severity } from '../../core/contracts/pkgscan.js';
import { resolveAliases, YamlAliasError } from '../../core/manifests/yamlnodes.js';
import { SECRET_NAME, type Finding } from './types.js';

/** Compose has no hadolint/Trivy Dockerfile id; each rule names the Trivy Kubernetes check (KSVxxx) of the same setting. */
export const COMPOSE_RULES = {
  compose_privileged: { rule: 'KSV017', severity: 'high', message: 'a service runs privileged' },
  compose_host_network: { rule: 'KSV009', severity: 'high', message: 'a service shares the host network namespace' },
  compose_host_pid: { rule: 'KSV010', severity: 'high', message: 'a service shares the host PID namespace' },
  compose_host_ipc: { rule: 'KSV008', severity: 'medium', message: 'a service shares the host IPC namespace' },
  compose_docker_socket: { rule: 'KSV006', severity: 'critical', message: 'a service mounts the Docker socket: it controls the host' },
  compose_host_root: { rule: 'KSV023', severity: 'critical', message: 'a service mounts the host root filesystem' },
  compose_sensitive_mount: { rule: 'KSV023', severity: 'high', message: 'a service mounts a sensitive host path (/etc, /proc, /sys, /root, /boot, /dev)' },
  compose_cap_add: { rule: 'KSV022', severity: 'medium', message: 'a service adds Linux capabilities' },
  compose_cap_add_dangerous: { rule: 'KSV005', severity: 'high', message: 'a service adds ALL, SYS_ADMIN, SYS_PTRACE, NET_ADMIN or SYS_MODULE' },
  compose_unconfined: { rule: 'KSV104', severity: 'high', message: 'a service disables seccomp or AppArmor confinement' },
  compose_secret_in_environment: { rule: 'DS031', severity: 'high', message: 'a service sets a credential in plain text in its environment' },
  compose_port_all_interfaces: { rule: 'KSV024', severity: 'low', message: 'a port is published on all host interfaces; bind it to 127.0.0.1 when only local use is meant' },
  compose_latest_image: { rule: 'KSV013', severity: 'medium', message: 'a service image has no tag or the latest tag' },
  compose_no_user: { rule: 'KSV012', severity: 'low', message: 'a service does not set user; it runs as the image user, often root' },
  compose_unparsed: { rule: 'VTR-C000', severity: 'medium', message: 'the compose file is not valid YAML or has no services map; its services were not checked' },
  compose_yaml_refused: { rule: 'VTR-C001', severity: 'high', message: 'the compose file expands its YAML aliases past the limit (a billion-laughs document) or an alias refers to itself; it was not read' },
} as const satisfies Record<string, { rule: string; severity: Severity; message: string }>;

export type ComposeRule = keyof typeof COMPOSE_RULES;

const DANGEROUS_CAPS = new Set(['ALL', 'SYS_ADMIN', 'SYS_PTRACE', 'NET_ADMIN', 'SYS_MODULE', 'DAC_READ_SEARCH']);
const SENSITIVE = /^\/(etc|proc|sys|root|boot|dev)(\/|$)/;

/**
 * Lints one compose file as Docker Compose reads it: anchors, aliases and merge keys (`<<: *base`) resolved first.
 * Malformed YAML gives one `compose_unparsed` finding, an alias bomb or cycle one `compose_yaml_refused`; never an exception.
 */
export function lintCompose(file: string, text: string): Finding[] {
  const out: Finding[] = [];
  const counter = new LineCounter();
  // The one finding of a file that was not read: not YAML (or no services map), or refused.
  const whole = (code: 'compose_unparsed' | 'compose_yaml_refused'): Finding[] => {
    const r = COMPOSE_RULES[code];
    return [{ code, category: 'compose', severity: r.severity, file, line: null, message: r.message, rule_id: r.rule }];
  };
  let doc;
  try {
    doc = parseDocument(text, { schema: 'core', lineCounter: counter, uniqueKeys: false, prettyErrors: false, merge: false });
  } catch (error) {
    // the YAML parser's own stack runs out on collections nested thousands deep (`- - - ... x` on one line)
    if (error instanceof RangeError) return whole('compose_unparsed');
    throw error;
  }
  if (doc.errors.length === 0) {
    try {
      resolveAliases(doc);
    } catch (error) {
      if (error instanceof RangeError) return whole('compose_unparsed');
      if (!(error instanceof YamlAliasError)) throw error;
      return whole('compose_yaml_refused');
    }
  }
  const lineOf = (n: Node | null | undefined): number | null => (n?.range ? counter.linePos(n.range[0]).line : null);
  const add = (code: ComposeRule, node: Node | null | undefined, service: string): void => {
    const r = COMPOSE_RULES[code];
    out.push({ code, category: 'compose', severity: r.severity, file, line: lineOf(node), message: `${r.message} (service ${service.slice(0, 64)})`, rule_id: r.rule });
  };
  const services = doc.errors.length === 0 && isMap(doc.contents) ? doc.contents.get('services', true) : undefined;
  if (!isMap(services)) return whole('compose_unparsed');
  for (const pair of services.items) {
    const name = isScalar(pair.key) ? String(pair.key.value) : 'unnamed';
    const svc = pair.value;
    const keyNode = pair.key as Node;
    if (!isMap(svc)) continue;
    const get = (k: string): Node | undefined => svc.get(k, true) as Node | undefined;
    const scalar = (k: string): string | undefined => {
      const n = get(k);
      return isScalar(n) ? String(n.value) : undefined;
    };
    if (scalar('privileged') === 'true') add('compose_privileged', get('privileged'), name);
    if (scalar('network_mode') === 'host') add('compose_host_network', get('network_mode'), name);
    if (scalar('pid') === 'host') add('compose_host_pid', get('pid'), name);
    if (scalar('ipc') === 'host') add('compose_host_ipc', get('ipc'), name);
    const volumes = get('volumes');
    if (isSeq(volumes))
      for (const v of volumes.items as Node[]) {
        let source: string | undefined;
        if (isScalar(v)) source = String(v.value).split(':')[0];
        else if (isMap(v)) {
          const s = v.get('source');
          source = typeof s === 'string' ? s : undefined;
        }
        if (source === undefined) continue;
        if (/docker\.sock$/.test(source)) add('compose_docker_socket', v, name);
        else if (source === '/') add('compose_host_root', v, name);
        else if (SENSITIVE.test(source)) add('compose_sensitive_mount', v, name);
      }
    const caps = get('cap_add');
    if (isSeq(caps) && caps.items.length > 0) {
      const names = (caps.items as Node[]).map((c) => (isScalar(c) ? String(c.value).toUpperCase().replace(/^CAP_/, '') : ''));
      add(names.some((c) => DANGEROUS_CAPS.has(c)) ? 'compose_cap_add_dangerous' : 'compose_cap_add', caps, name);
    }
    const secopt = get('security_opt');
    if (isSeq(secopt) && (secopt.items as Node[]).some((s) => isScalar(s) && /(seccomp|apparmor)[:=]unconfined/.test(String(s.value)))) add('compose_unconfined', secopt, name);
    const env = get('environment');
    const plain = (v: unknown): boolean => typeof v === 'string' ? v !== '' && !/^\$\{?[A-Za-z_]/.test(v) : typeof v === 'number';
    if (isMap(env)) {
      for (const e of env.items) if (isScalar(e.key) && SECRET_NAME.test(String(e.key.value)) && isScalar(e.value) && plain(e.value.value)) add('compose_secret_in_environment', e.key as Node, name);
    } else if (isSeq(env)) {
      for (const e of env.items as Node[]) {
        if (!isScalar(e)) continue;
        const s = String(e.value);
        const eq = s.indexOf('=');
        if (eq > 0 && SECRET_NAME.test(s.slice(0, eq)) && plain(s.slice(eq + 1))) add('compose_secret_in_environment', e, name);
      }
    }
    const ports = get('ports');
    if (isSeq(ports))
      for (const p of ports.items as Node[]) {
        if (isScalar(p)) {
          const s = String(p.value);
          const parts = s.split(':');
          // "80" publishes an ephemeral host port on every interface; "8080:80" and "0.0.0.0:8080:80" do too
          if (parts.length <= 2 || parts[0] === '0.0.0.0' || parts[0] === '' || parts[0] === '[::]') add('compose_port_all_interfaces', p, name);
        } else if (isMap(p)) {
          const ip = p.get('host_ip');
          if (ip === undefined || ip === '0.0.0.0' || ip === '::') add('compose_port_all_interfaces', p, name);
        }
      }
    const image = scalar('image');
    if (image !== undefined && !image.includes('$') && !image.includes('@')) {
      const last = image.split('/').pop() ?? image;
      const tag = last.includes(':') ? last.slice(last.indexOf(':') + 1) : undefined;
      if (tag === undefined || tag === 'latest') add('compose_latest_image', get('image'), name);
    }
    if (get('user') === undefined) add('compose_no_user', keyNode, name);
  }
  return out;
}
