// Dockerfile lint: every rule on a deliberately bad file, the clean parts of the corpus Dockerfiles, and odd input that must not crash.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { corpusPath, hasCorpora } from '../../../test/corpora.js';
import { DOCKERFILE_RULES, lintDockerfile } from './dockerfile.js';

const BAD = `FROM ubuntu
FROM node:latest AS build
ARG NPM_TOKEN
ENV API_KEY=abc123 PATH=/usr/bin
ADD https://example.org/tool.tar.gz /opt/
ADD app.py /app/
WORKDIR app
RUN curl -fsSL https://example.org/install.sh | sh
RUN apt-get update && apt-get install -y curl
RUN sudo make install
EXPOSE 22 80
USER root
`;

const codesOf = (file: string, text: string): string[] => lintDockerfile(file, text).map((f) => f.code);

describe('Dockerfile lint', () => {
  it('raises every rule on a bad Dockerfile, with lines and upstream ids', () => {
    const f = lintDockerfile('Dockerfile', BAD);
    const byCode = new Map(f.map((x) => [x.code, x]));
    expect(byCode.get('dockerfile_untagged_image')).toMatchObject({ line: 1, rule_id: 'DL3006', severity: 'medium' });
    expect(byCode.get('dockerfile_latest_tag')).toMatchObject({ line: 2, rule_id: 'DL3007' });
    expect(byCode.get('dockerfile_secret_in_arg')).toMatchObject({ line: 3, rule_id: 'DS031' });
    expect(byCode.get('dockerfile_secret_in_env')).toMatchObject({ line: 4, severity: 'high' });
    expect(byCode.get('dockerfile_add_remote_url')).toMatchObject({ line: 5, rule_id: 'DL3020' });
    expect(byCode.get('dockerfile_add_local')).toMatchObject({ line: 6 });
    expect(byCode.get('dockerfile_relative_workdir')).toMatchObject({ line: 7, rule_id: 'DL3000' });
    expect(byCode.get('dockerfile_pipe_to_shell')).toMatchObject({ line: 8, severity: 'high' });
    expect(byCode.get('dockerfile_pipe_without_pipefail')).toMatchObject({ line: 8, rule_id: 'DL4006' });
    expect(byCode.get('dockerfile_apt_no_recommends')).toMatchObject({ line: 9, rule_id: 'DL3015' });
    expect(byCode.get('dockerfile_apt_lists_kept')).toMatchObject({ line: 9, rule_id: 'DL3009' });
    expect(byCode.get('dockerfile_sudo')).toMatchObject({ line: 10, rule_id: 'DL3004' });
    expect(byCode.get('dockerfile_exposes_ssh')).toMatchObject({ line: 11, rule_id: 'DS004' });
    expect(byCode.get('dockerfile_root_user')).toMatchObject({ line: 12, rule_id: 'DS002', severity: 'high' });
    expect(byCode.get('dockerfile_no_healthcheck')).toMatchObject({ line: null, rule_id: 'DS026' });
    // the secret's value never reaches a message
    expect(JSON.stringify(f)).not.toContain('abc123');
    // every rule but the two exclusive ones (no FROM; USER missing vs root) fired
    const fired = new Set(f.map((x) => x.code));
    expect(Object.keys(DOCKERFILE_RULES).filter((c) => !fired.has(c)).sort()).toEqual(['dockerfile_no_from', 'dockerfile_no_user']);
  });

  it('takes the apt lists as removed by any rm whose first flags hold r, however they are written', () => {
    const kept = (rm: string): boolean => codesOf('Dockerfile', `FROM debian:12\nRUN apt-get install -y --no-install-recommends curl && ${rm}\n`).includes('dockerfile_apt_lists_kept');
    for (const rm of ['rm -rf /var/lib/apt/lists/*', 'rm -fr /var/lib/apt/lists/*', 'rm -r /var/lib/apt/lists', 'rm -frv /tmp/x /var/lib/apt/lists/*', 'rm  -rvf\t/var/lib/apt/lists/*']) expect(kept(rm), rm).toBe(false);
    for (const rm of ['rm -f /var/lib/apt/lists/*', 'rm /var/lib/apt/lists/*', 'rm -rf /tmp; ls /var/lib/apt/lists', 'rm -rf', 'true']) expect(kept(rm), rm).toBe(true);
  });

  it('passes a careful Dockerfile', () => {
    const good = `FROM debian:12-slim@sha256:${'a'.repeat(64)} AS base
SHELL ["/bin/bash", "-o", "pipefail", "-c"]
RUN apt-get update && apt-get install -y --no-install-recommends ca-certificates && rm -rf /var/lib/apt/lists/*
RUN curl -fsSL https://example.org/x.tar.gz | tar xz
WORKDIR /app
COPY . /app
USER 10001:10001
HEALTHCHECK CMD ["/app/health"]
`;
    expect(codesOf('Dockerfile', good)).toEqual([]);
  });

  it('knows stage names and scratch, and reports a missing USER', () => {
    const f = codesOf('Dockerfile', 'FROM golang:1.22 AS build\nRUN go build\nFROM build\nFROM scratch\nCOPY --from=build /x /x\n');
    expect(f).toEqual(['dockerfile_no_user', 'dockerfile_no_healthcheck']);
  });

  it.skipIf(!hasCorpora())('lints the corpus Dockerfiles as expected', () => {
    const read = (rel: string): string => readFileSync(corpusPath(`supplychain/docker/${rel}`), 'utf8');
    // guarddog: digest-pinned, non-root user; only the missing HEALTHCHECK
    expect(codesOf('Dockerfile', read('guarddog/Dockerfile'))).toEqual(['dockerfile_no_healthcheck']);
    // dependency-track: digest-pinned, USER ${UID}, HEALTHCHECK: clean
    expect(codesOf('Dockerfile', read('dependency-track/Dockerfile'))).toEqual([]);
    // velociraptor: FROM ...:latest
    expect(codesOf('Dockerfile', read('velociraptor/Dockerfile'))).toContain('dockerfile_latest_tag');
    // rita: the final stage is a bare `alpine`
    expect(lintDockerfile('Dockerfile', read('rita/Dockerfile')).find((x) => x.code === 'dockerfile_untagged_image')?.line).toBe(32);
    // tram: SHELL sets pipefail and apt caches are mounted, yet the lists stay in a layer? they are a cache mount: only no user, no healthcheck
    expect(codesOf('Dockerfile', read('tram/Dockerfile'))).toEqual(['dockerfile_no_user', 'dockerfile_no_healthcheck']);
  });

  it('never crashes on odd input', () => {
    expect(codesOf('Dockerfile', '')).toEqual(['dockerfile_no_from']);
    expect(() => lintDockerfile('Dockerfile', '\u0000\u0001FROM\\\n\\\nRUN "unterminated')).not.toThrow();
    const random = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 256)).toString('latin1');
    expect(() => lintDockerfile('Dockerfile', random)).not.toThrow();
    expect(() => lintDockerfile('Dockerfile', 'FROM a\n' + 'RUN x \\\n'.repeat(20000))).not.toThrow();
  });
});
