// Movement and action rules on crafted captures: lateral movement, beaconing with jitter, large uploads, cleartext credentials, listed indicators.
import { describe, expect, it } from 'vitest';
import { ascii, TCP_ACK, TCP_PSH } from '../capture/craft.js';
import { parseIndicators } from '../indicators.js';
import { clientHello, smb2, TcpSession, type Timeline } from '../intrusion.js';
import { detect } from '../replay.fixture.js';
import { beaconing, periodicity } from './beacon.js';
import { sshGuessing } from './bruteforce.js';
import { cleartextCredentials } from './cleartext.js';
import { knownBadIndicator } from './indicators.js';
import { lateralMovement } from './lateral.js';
import { largeOutboundTransfer } from './transfer.js';

function smbSession(t: Timeline, rand: () => number, from: string, to: string, at: number, port = 445): void {
  new TcpSession(t, from, to, 45000 + Math.floor(rand() * 10000), port, at, rand).open().c2s(TCP_ACK | TCP_PSH, smb2(0)).s2c(TCP_ACK | TCP_PSH, smb2(0, 60)).close();
}

describe('lateral_movement', () => {
  it('fires when one internal host reaches three internal hosts over SMB, not two', () => {
    const [alert] = detect(lateralMovement, (t, rand) => ['10.4.0.2', '10.4.0.3', '10.4.0.4'].forEach((h, i) => smbSession(t, rand, '10.4.0.1', h, 1000 + i)));
    expect(alert?.dst).toEqual(['10.4.0.2', '10.4.0.3', '10.4.0.4']);
    expect(alert?.techniques).toEqual(['T1021.002']);
    expect(alert?.severity).toBe('high');
    expect(detect(lateralMovement, (t, rand) => ['10.4.0.2', '10.4.0.3'].forEach((h, i) => smbSession(t, rand, '10.4.0.1', h, 1000 + i)))).toEqual([]);
  });

  it('fires on a single session from a host an earlier alert marked compromised, after that alert', () => {
    const build = (t: Timeline, rand: () => number): void => {
      let at = 1000;
      for (let i = 0; i < 10; i++) {
        const s = new TcpSession(t, '198.51.100.7', '10.4.0.1', 30000 + i, 22, at, rand).open();
        s.s2c(TCP_ACK | TCP_PSH, ascii('SSH-2.0-X\r\n')).c2s(TCP_ACK | TCP_PSH, ascii('SSH-2.0-Y\r\n')).close();
        at = s.t + 2;
      }
      const login = new TcpSession(t, '198.51.100.7', '10.4.0.1', 31000, 22, at + 1, rand).open();
      login.s2c(TCP_ACK | TCP_PSH, ascii('SSH-2.0-X\r\n')).c2s(TCP_ACK | TCP_PSH, ascii('SSH-2.0-Y\r\n'));
      for (let k = 0; k < 20; k++) login.c2s(TCP_ACK | TCP_PSH, new Uint8Array(800), 2);
      login.close();
      smbSession(t, rand, '10.4.0.1', '10.4.0.9', at + 100);
    };
    const [alert] = detect(lateralMovement, build, { before: [sshGuessing] });
    expect(alert?.src).toBe('10.4.0.1');
    expect(alert?.facts['from_compromised_host']).toBe(true);
    expect(detect(lateralMovement, build)).toEqual([]);
  });

  it('fan-in to a file server is not movement', () => {
    expect(detect(lateralMovement, (t, rand) => Array.from({ length: 20 }, (_, i) => smbSession(t, rand, `10.4.1.${i + 1}`, '10.4.0.20', 1000 + i)))).toEqual([]);
  });
});

describe('beaconing', () => {
  it('periodicity: steady intervals with 5% jitter are periodic; exponential gaps are not', () => {
    const steady = Array.from({ length: 12 }, (_, i) => i * 60 + (i % 3) * 2);
    expect(periodicity(steady, 0.2)?.inliers).toBe(1);
    let t = 0;
    let x = 7;
    const random = Array.from({ length: 30 }, () => {
      x = (x * 48271) % 2147483647;
      t += -Math.log(x / 2147483647) * 60;
      return t;
    });
    expect(periodicity(random, 0.2)?.inliers).toBeLessThan(0.8);
  });

  const beacons = (n: number, every: number, jitter: number) => (t: Timeline, rand: () => number) => {
    let at = 1000;
    for (let i = 0; i < n; i++) {
      const s = new TcpSession(t, '10.5.0.3', '203.0.113.200', 50000 + i, 443, at, rand).open();
      s.c2s(TCP_ACK | TCP_PSH, clientHello('c2.example', i)).close();
      at += every * (1 + (rand() - 0.5) * 2 * jitter);
    }
  };
  it('fires on 10 TLS connections every 30 s with 10% jitter; not on 7, nor every 2 s', () => {
    const [alert] = detect(beaconing, beacons(10, 30, 0.1));
    expect(alert?.techniques).toEqual(['T1071', 'T1573']);
    expect(alert?.counts['connections']).toBe(10);
    expect(Math.abs((alert?.counts['interval_s'] ?? 0) - 30)).toBeLessThan(6);
    expect(detect(beaconing, beacons(7, 30, 0.1))).toEqual([]);
    expect(detect(beaconing, beacons(10, 2, 0.05))).toEqual([]);
  });
});

describe('large_outbound_transfer', () => {
  const upload = (mib: number, to: string) => (t: Timeline, rand: () => number) => {
    const s = new TcpSession(t, '10.6.0.5', to, 50000, 443, 1000, rand).open();
    for (let k = 0; k < (mib * 1024 * 1024) / 64000; k++) s.bulk(64_000, 0.01);
    s.close();
  };
  it('fires on 12 MiB sent outside, not on 8 MiB, not inside the network', () => {
    const [alert] = detect(largeOutboundTransfer, upload(12, '203.0.113.50'));
    expect(alert?.counts['bytes_sent']).toBeGreaterThanOrEqual(12 * 1024 * 1024 - 64_000);
    expect(alert?.techniques).toEqual(['T1048']);
    expect(detect(largeOutboundTransfer, upload(8, '203.0.113.50'))).toEqual([]);
    expect(detect(largeOutboundTransfer, upload(12, '10.6.0.9'))).toEqual([]);
  });
});

describe('cleartext_credentials', () => {
  it('HTTP Basic over plain HTTP is a low alert with the user name and never the password', () => {
    const [alert, ...rest] = detect(cleartextCredentials, (t, rand) => {
      const s = new TcpSession(t, '10.7.0.1', '10.7.0.2', 40000, 80, 1000, rand).open();
      s.c2s(TCP_ACK | TCP_PSH, ascii(`GET / HTTP/1.1\r\nHost: a\r\nAuthorization: Basic ${Buffer.from('alice:Zq9-secret').toString('base64')}\r\n\r\n`));
      s.s2c(TCP_ACK | TCP_PSH, ascii('HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n')).close();
    });
    expect(rest).toEqual([]);
    expect(alert?.severity).toBe('low');
    expect(alert?.facts['users']).toEqual(['alice']);
    expect(alert?.counts['successful_logins']).toBe(1);
    expect(JSON.stringify(alert)).not.toContain('Zq9-secret');
  });
});

describe('known_bad_indicator', () => {
  const list = parseIndicators(['ip 203.0.113.200 severity=critical technique=T1071 # the C2', 'domain bad.example', 'cidr 198.51.100.0/24 stage=access'].join('\n'));
  it('matches an address, a domain in a TLS server name and a block, with the severity, technique and stage the list gives', () => {
    const alerts = detect(
      knownBadIndicator,
      (t, rand) => {
        new TcpSession(t, '10.8.0.1', '203.0.113.200', 40000, 443, 1000, rand).open().c2s(TCP_ACK | TCP_PSH, clientHello('x.bad.example', 1)).close();
        new TcpSession(t, '198.51.100.77', '10.8.0.2', 40001, 22, 1010, rand).open().close();
      },
      { indicators: list },
    );
    const byValue = new Map(alerts.map((a) => [a.facts['indicator'], a]));
    expect(byValue.get('203.0.113.200')).toMatchObject({ severity: 'critical', stage: 'action', techniques: ['T1071'], src: '10.8.0.1' });
    expect(byValue.get('bad.example')?.facts['matched_in']).toEqual(['tls']);
    expect(byValue.get('198.51.100.0/24')).toMatchObject({ stage: 'access', src: '198.51.100.77', severity: 'high' });
  });
});
