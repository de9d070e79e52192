// Compose lint: every rule on a deliberately bad file, the corpus compose files, and malformed YAML.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { corpusPath, hasCorpora } from '../../../test/corpora.js';
import { COMPOSE_RULES, lintCompose } from './compose.js';

const BAD = `services:
  web:
    image: nginx
    privileged: true
    network_mode: host
    pid: host
    ipc: host
    cap_add: [NET_BIND_SERVICE]
    volumes:
      - /var/run/docker.sock:/var/run/docker.sock
      - /:/host
      - /etc:/etc:ro
    environment:
      DB_PASSWORD: hunter2hunter2
      SAFE_PASSWORD: \${FROM_ENV}
    ports:
      - "8080:80"
      - "127.0.0.1:9090:90"
    security_opt: ["seccomp:unconfined"]
  worker:
    image: example/worker:latest
    user: "1000"
    cap_add: [SYS_ADMIN]
    environment:
      - API_TOKEN=abcdef
`;

describe('Compose lint', () => {
  it('raises every rule on a bad compose file, with lines', () => {
    const f = lintCompose('compose.yaml', BAD);
    const lines = (code: string): (number | null)[] => f.filter((x) => x.code === code).map((x) => x.line);
    expect(lines('compose_latest_image')).toEqual([3, 21]);
    expect(lines('compose_privileged')).toEqual([4]);
    expect(lines('compose_host_network')).toEqual([5]);
    expect(lines('compose_host_pid')).toEqual([6]);
    expect(lines('compose_host_ipc')).toEqual([7]);
    expect(lines('compose_cap_add')).toEqual([8]);
    expect(lines('compose_docker_socket')).toEqual([10]);
    expect(lines('compose_host_root')).toEqual([11]);
    expect(lines('compose_sensitive_mount')).toEqual([12]);
    expect(lines('compose_secret_in_environment')).toEqual([14, 25]);
    expect(lines('compose_port_all_interfaces')).toEqual([17]);
    expect(lines('compose_unconfined')).toEqual([19]);
    expect(lines('compose_no_user')).toEqual([2]);
    expect(lines('compose_cap_add_dangerous')).toEqual([23]);
    expect(JSON.stringify(f)).not.toMatch(/hunter2|abcdef/);
    const fired = new Set(f.map((x) => x.code));
    expect(Object.keys(COMPOSE_RULES).filter((c) => !fired.has(c))).toEqual(['compose_unparsed', 'compose_yaml_refused']);
  });

  it.skipIf(!hasCorpora())('lints the corpus compose files', () => {
    const read = (rel: string): string => readFileSync(corpusPath(`supplychain/docker/${rel}`), 'utf8');
    const dt = lintCompose('compose.yaml', read('dependency-track/compose.yaml'));
    // the two literal database passwords
    expect(dt.filter((x) => x.code === 'compose_secret_in_environment').map((x) => x.line)).toEqual([67, 80]);
    const rita = lintCompose('docker-compose.yml', read('rita/docker-compose.yml'));
    expect(rita.some((x) => x.code === 'compose_sensitive_mount')).toBe(true);
    const vr = lintCompose('compose.yaml', read('velociraptor/compose.yaml'));
    expect(vr.some((x) => x.code === 'compose_latest_image')).toBe(true);
  });

  it('reports malformed YAML once, without crashing', () => {
    for (const text of ['services: [unclosed', 'just text', '', 'a: 1\n'.repeat(3) + '\t- bad'])
      expect(lintCompose('compose.yaml', text).map((x) => x.code)).toEqual(['compose_unparsed']);
    expect(lintCompose('compose.yaml', 'services:\n  a: 1\n  b:\n    image: x:1\n    user: app\n')).toEqual([]);
  });

  it('resolves anchors, aliases and merge keys as Compose does', () => {
    const plainFile = 'services:\n  web:\n    image: x:1\n    user: app\n    privileged: true\n    volumes:\n      - /var/run/docker.sock:/var/run/docker.sock\n      - /:/host\n    pid: host\n';
    const codes = (t: string): string[] => lintCompose('compose.yaml', t).map((x) => x.code).sort();
    const expected = codes(plainFile);
    expect(expected).toEqual(['compose_docker_socket', 'compose_host_pid', 'compose_host_root', 'compose_privileged']);
    // a merge key
    expect(codes('x-base: &base\n  privileged: true\n  pid: host\n  volumes:\n    - /var/run/docker.sock:/var/run/docker.sock\n    - /:/host\nservices:\n  web:\n    <<: *base\n    image: x:1\n    user: app\n')).toEqual(expected);
    // a whole service as an alias
    expect(codes('x-web: &web\n  image: x:1\n  user: app\n  privileged: true\n  pid: host\n  volumes: ["/var/run/docker.sock:/var/run/docker.sock", "/:/host"]\nservices:\n  web: *web\n')).toEqual(expected);
    // scalar aliases and a merge list; the service's own key wins over the merged one
    expect(codes('x-t: &t true\nx-a: &a {pid: host}\nx-b: &b {privileged: false, volumes: ["/var/run/docker.sock:/x", "/:/h"]}\nservices:\n  web:\n    <<: [*a, *b]\n    privileged: *t\n    image: x:1\n    user: app\n')).toEqual(expected);
  });

  it('refuses a billion-laughs compose file with a finding, and the scan is not allowed', () => {
    const lol = ['a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]'];
    for (let i = 1; i < 9; i++) lol.push(`${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(10).fill(`*${String.fromCharCode(96 + i)}`).join(', ')}]`);
    lol.push('services:\n  web:\n    image: x:1\n    user: app\n    command: *i');
    const f = lintCompose('compose.yaml', lol.join('\n'));
    expect(f.map((x) => [x.code, x.severity])).toEqual([['compose_yaml_refused', 'high']]);
    expect(lintCompose('compose.yaml', 'services:\n  web: &w\n    image: x:1\n    extra: *w\n').map((x) => x.code)).toEqual(['compose_yaml_refused']);
  });

  it('a value nested 10,000 deep in a block sequence on one line is malformed YAML, not an exception (YAML fuzzer)', () => {
    const real = hasCorpora() ? readFileSync(corpusPath('supplychain', 'docker', 'rita', 'docker-compose.yml'), 'utf8') : 'services:\n  rita:\n    build: .\n    volumes:\n      - .env:/.env\n';
    expect(lintCompose('docker-compose.yml', real).map((x) => x.code)).not.toContain('compose_unparsed');
    // the YAML parser's own stack ran out on it and the RangeError left the lint (and the project scan)
    const deep = real.replace('      - .env:/.env\n', `      - ${'- '.repeat(10_000)}.env:/.env\n`);
    expect(deep).not.toBe(real);
    expect(lintCompose('docker-compose.yml', deep).map((x) => x.code)).toEqual(['compose_unparsed']);
  });
});
