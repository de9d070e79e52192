// Operations pieces: fixed-window limits with Retry-After, bounded Prometheus series, PATH lookup of optional tools.
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Metrics } from './metrics.js';
import { clientKey, FixedWindowLimiter } from './ratelimit.js';
import { onPath, toolStatus } from './tools.js';

describe('clientKey', () => {
  it('keys the whole loopback range as one client, IPv6 by /64, IPv4 by address', () => {
    for (const a of ['127.0.0.1', '127.9.8.7', '::ffff:127.0.0.2', '::1']) expect(clientKey(a)).toBe('loopback');
    expect(clientKey('2001:db8:1:2:3:4:5:6')).toBe('2001:db8:1:2::/64');
    expect(clientKey('2001:db8:1:2::9')).toBe(clientKey('2001:0db8:0001:0002:ffff::1'));
    expect(clientKey('2001:db8:1:3::9')).not.toBe(clientKey('2001:db8:1:2::9'));
    expect(clientKey('fe80::1')).toBe('fe80:0:0:0::/64');
    expect(clientKey('10.1.2.3')).toBe('10.1.2.3');
    expect(clientKey('::ffff:10.1.2.3')).toBe('10.1.2.3');
    expect(clientKey(undefined)).toBe('unknown');
  });
});

describe('FixedWindowLimiter', () => {
  it('allows `limit` hits per window per key, then says when to retry', () => {
    const l = new FixedWindowLimiter(2, 60_000);
    expect(l.hit('a', 0).allowed).toBe(true);
    expect(l.hit('a', 1000)).toMatchObject({ allowed: true, remaining: 0 });
    expect(l.hit('a', 1500)).toEqual({ allowed: false, retryAfterS: 59, remaining: 0 });
    expect(l.hit('b', 1500).allowed).toBe(true);
    expect(l.hit('a', 60_000).allowed).toBe(true);
  });

  it('stays bounded under a flood of distinct keys', () => {
    const l = new FixedWindowLimiter(1, 60_000, 100);
    for (let i = 0; i < 1000; i++) l.hit(`k${i}`, 0);
    expect((l as unknown as { windows: Map<string, unknown> }).windows.size).toBeLessThanOrEqual(100);
  });
});

describe('Metrics', () => {
  it('renders counters, histograms and gauges in the text format with escaped labels', () => {
    const m = new Metrics();
    m.counter('c_total', 'a counter');
    m.histogram('h_seconds', 'a histogram');
    m.gauge('g', 'a gauge', () => 3);
    m.inc('c_total', { route: '/a"b' });
    m.inc('c_total', { route: '/a"b' }, 2);
    m.observe('h_seconds', { route: '/x' }, 0.02);
    const text = m.render();
    expect(text).toContain('# TYPE c_total counter');
    expect(text).toContain('c_total{route="/a\\"b"} 3');
    expect(text).toContain('h_seconds_bucket{route="/x",le="0.025"} 1');
    expect(text).toContain('h_seconds_bucket{route="/x",le="0.01"} 0');
    expect(text).toContain('h_seconds_count{route="/x"} 1');
    expect(text).toMatch(/\ng 3\n$/);
  });

  it('folds label sets past the bound into `other`', () => {
    const m = new Metrics();
    m.counter('c_total', 'a counter');
    for (let i = 0; i < 600; i++) m.inc('c_total', { route: `/r${i}` });
    const lines = m.render().split('\n').filter((l) => l.startsWith('c_total{'));
    expect(lines.length).toBe(501);
    expect(lines).toContain('c_total{route="other"} 100');
  });
});

describe('optional tools', () => {
  it('finds executables on PATH without running them; reports no paths', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'pkgscan-tools-'));
    try {
      const yara = path.join(dir, 'yara');
      writeFileSync(yara, '#!/bin/sh\nexit 99\n');
      chmodSync(yara, 0o755);
      writeFileSync(path.join(dir, 'gitleaks'), 'not executable');
      expect(onPath('yara', dir)).toBe(true);
      expect(onPath('gitleaks', dir)).toBe(false);
      expect(onPath('yara', 'relative/dir')).toBe(false);
      const status = toolStatus(dir);
      expect(status.find((t) => t.name === 'yara')).toEqual({ name: 'yara', kind: 'rule_matcher', available: true });
      expect(JSON.stringify(status)).not.toContain(dir);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
