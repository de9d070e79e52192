// Password-guessing rules against Zeek's notices (SSH, FTP), the VNC scanner trace, and crafted RDP, HTTP and SSH sessions.
import { describe, expect, it } from 'vitest';
import { ascii, concat, TCP_ACK, TCP_PSH } from '../capture/craft.js';
import { pcapCorpusAvailable, zeekLog } from '../capture/capture.fixture.js';
import { rdpConfirm, rdpRequest, TcpSession, type Timeline } from '../intrusion.js';
import { corpusAnalysis, detect } from '../replay.fixture.js';
import { httpAuthBruteforce, rdpBruteforce, sshGuessing } from './bruteforce.js';

const corpus = pcapCorpusAvailable();

describe.skipIf(!corpus)('brute force in the Zeek traces (notice.log is the truth)', () => {
  it("sshguess: Zeek's SSH::Password_Guessing from 192.168.56.1 against 192.168.56.103 is found", async () => {
    const [notice] = zeekLog('sshguess', 'notice.log');
    expect(notice?.['note']).toBe('SSH::Password_Guessing');
    const a = await corpusAnalysis('sshguess.pcap');
    const alerts = a.alerts.filter((x) => x.rule === 'ssh_guessing');
    expect(alerts).toHaveLength(1);
    expect(alerts[0]?.src).toBe(notice?.['src']);
    // Zeek's sampled servers are all this one host; its limit in the test was 10 connections.
    expect(alerts[0]?.dst).toEqual(['192.168.56.103']);
    expect(notice?.['sub']).toContain('192.168.56.103');
    expect(alerts[0]?.evidence.counts['attempts']).toBeGreaterThanOrEqual(10);
    expect(alerts[0]?.compromised).toEqual([]);
    expect(a.stories).toHaveLength(1);
    expect(a.stories[0]?.attacker).toBe('192.168.56.1');
  });

  it("ftp-bruteforce: our summary carries Zeek's FTP::Bruteforcing message word for word", async () => {
    const [notice] = zeekLog('ftp-bruteforce', 'notice.log');
    expect(notice?.['note']).toBe('FTP::Bruteforcing');
    const a = await corpusAnalysis('ftp-bruteforce.pcap');
    const [alert, ...more] = a.alerts.filter((x) => x.rule === 'ftp_bruteforce');
    expect(more).toEqual([]);
    expect(alert?.src).toBe(notice?.['src']);
    expect(alert?.summary).toContain(notice?.['msg'] ?? 'missing');
    expect(alert?.evidence.counts).toMatchObject({ failed_logins: 30, sessions: 30, servers: 1 });
    expect(alert?.evidence.facts['users']).toEqual(['bro']);
    // The cleartext passwords of the same client join the brute force in one story.
    const story = a.stories[0];
    expect(a.stories).toHaveLength(1);
    expect(story?.alerts.map((x) => x.rule).sort()).toEqual(['cleartext_credentials', 'ftp_bruteforce']);
  });

  it('vnc-scanner: the one failed VNC authentication is a low alert and makes no story', async () => {
    const [rfb] = zeekLog('vnc-scanner', 'rfb.log');
    expect(rfb?.['auth']).toBe('F');
    const a = await corpusAnalysis('vnc-scanner.pcap');
    expect(a.alerts.map((x) => [x.rule, x.severity, x.src])).toEqual([['vnc_auth_failure', 'low', rfb?.['id.orig_h']]]);
    expect(a.stories).toEqual([]);
    expect(a.stats.alerts_in_stories).toBe(0);
  });
});

function sshAttempts(n: number, extra?: (t: Timeline, rand: () => number, at: number) => void) {
  return (t: Timeline, rand: () => number): void => {
    let at = 1000;
    for (let i = 0; i < n; i++) {
      const s = new TcpSession(t, '198.51.100.7', '10.2.0.1', 30000 + i, 22, at, rand).open();
      s.s2c(TCP_ACK | TCP_PSH, ascii('SSH-2.0-OpenSSH_9.0\r\n')).c2s(TCP_ACK | TCP_PSH, ascii('SSH-2.0-Guess\r\n'));
      s.c2s(TCP_ACK | TCP_PSH, new Uint8Array(900), 1).s2c(TCP_ACK | TCP_PSH, new Uint8Array(700)).close();
      at = s.t + 3;
    }
    extra?.(t, rand, at);
  };
}

describe('ssh_guessing', () => {
  it('fires at 10 short sessions, not at 9', () => {
    expect(detect(sshGuessing, sshAttempts(10))).toHaveLength(1);
    expect(detect(sshGuessing, sshAttempts(9))).toEqual([]);
  });

  it('a long session after the guesses is a likely success: critical, Valid Accounts, the server compromised', () => {
    const [alert] = detect(
      sshGuessing,
      sshAttempts(12, (t, rand, at) => {
        const s = new TcpSession(t, '198.51.100.7', '10.2.0.1', 31000, 22, at + 5, rand).open();
        s.s2c(TCP_ACK | TCP_PSH, ascii('SSH-2.0-OpenSSH_9.0\r\n')).c2s(TCP_ACK | TCP_PSH, ascii('SSH-2.0-Guess\r\n'));
        for (let k = 0; k < 30; k++) s.c2s(TCP_ACK | TCP_PSH, new Uint8Array(500), 2).s2c(TCP_ACK | TCP_PSH, new Uint8Array(1000));
        s.close();
      }),
    );
    expect(alert?.severity).toBe('critical');
    expect(alert?.techniques).toEqual(['T1110.001', 'T1078']);
    expect(alert?.compromised).toEqual(['10.2.0.1']);
    expect(alert?.counts['likely_successes']).toBe(1);
  });
});

describe('rdp_bruteforce', () => {
  const rdp = (n: number) => (t: Timeline, rand: () => number) => {
    for (let i = 0; i < n; i++) {
      const s = new TcpSession(t, '198.51.100.8', '10.2.0.2', 32000 + i, 3389, 1000 + i * 4, rand).open();
      s.c2s(TCP_ACK | TCP_PSH, rdpRequest(`user${i}`)).s2c(TCP_ACK | TCP_PSH, rdpConfirm()).close();
    }
  };
  it('fires at 10 short connections with their cookies as facts, not at 9', () => {
    const [alert] = detect(rdpBruteforce, rdp(10));
    expect(alert?.counts['connections']).toBe(10);
    expect(alert?.facts['cookies']).toContain('user3');
    expect(detect(rdpBruteforce, rdp(9))).toEqual([]);
  });
});

describe('http_auth_bruteforce', () => {
  const attempts = (n: number, thenOk: boolean) => (t: Timeline, rand: () => number) => {
    const s = new TcpSession(t, '198.51.100.9', '10.2.0.3', 33000, 80, 1000, rand).open();
    const ask = (user: string) => ascii(`GET /admin HTTP/1.1\r\nHost: app\r\nAuthorization: Basic ${Buffer.from(`${user}:pw`).toString('base64')}\r\n\r\n`);
    for (let i = 0; i < n; i++) s.c2s(TCP_ACK | TCP_PSH, ask(`admin${i}`), 0.5).s2c(TCP_ACK | TCP_PSH, ascii('HTTP/1.1 401 Unauthorized\r\nContent-Length: 0\r\n\r\n'));
    if (thenOk) s.c2s(TCP_ACK | TCP_PSH, ask('root'), 0.5).s2c(TCP_ACK | TCP_PSH, concat(ascii('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n'), ascii('ok')));
    s.close();
  };
  it('fires at 20 refused credentials; a 200 afterwards makes it critical with the server compromised', () => {
    const [plain] = detect(httpAuthBruteforce, attempts(20, false));
    expect(plain?.severity).toBe('high');
    expect(plain?.counts).toMatchObject({ refused: 20, accepted: 0 });
    const [won] = detect(httpAuthBruteforce, attempts(20, true));
    expect(won?.severity).toBe('critical');
    expect(won?.compromised).toEqual(['10.2.0.3']);
    expect(won?.facts['accepted_users']).toEqual(['root']);
    expect(detect(httpAuthBruteforce, attempts(19, true))).toEqual([]);
  });
});
