// Every threshold of the detection rules in one place (documented in docs/replay.md); Zeek's defaults where Zeek has the same rule.

export const THRESHOLDS = {
  /** One source, one target: distinct ports with failed or unanswered attempts (Zeek scan.zeek port_scan_threshold 15). */
  portScan: { ports: 15, gapSeconds: 300 },
  /** One source: distinct targets with failed attempts, unanswered pings or ARP requests (Zeek addr_scan_threshold 25). */
  hostScan: { hosts: 25, gapSeconds: 300 },
  /** SSH sessions that end without a shell (short and small) from one client to one server (Zeek's test uses 10, its default 30). */
  sshGuessing: { attempts: 10, gapSeconds: 1800, attemptMaxSeconds: 30, attemptMaxBytes: 12_000 },
  /** Failed FTP logins (5xx to USER or PASS) from one client (Zeek FTP::bruteforce_threshold 20 in 15 min). */
  ftpBruteforce: { failures: 20, gapSeconds: 900 },
  /** Short RDP connections (under rdpMaxSeconds) from one client to one server. */
  rdpBruteforce: { connections: 10, gapSeconds: 300, attemptMaxSeconds: 30 },
  /** 401 answers to requests carrying credentials, from one client to one server. */
  httpAuth: { failures: 20, gapSeconds: 900 },
  /** Failed VNC authentications from one client; below this a single failure is a low alert. */
  vncAuth: { failures: 5, gapSeconds: 900 },
  /** Requests with SQL injection in the query from one client to one server (Zeek's btest uses 3, its default 50). */
  sqlInjection: { requests: 3, gapSeconds: 300 },
  /** Connections of one client to one server and port at a steady interval. */
  beaconing: { minConnections: 8, minIntervalSeconds: 10, maxRelativeDeviation: 0.2, inlierShare: 0.8 },
  /** Queries of one client under one registered domain with long, random-looking subdomains. */
  dnsTunnel: { queries: 20, uniqueSubdomains: 20, meanSubdomainLength: 24, minEntropy: 3.2, gapSeconds: 3600 },
  /** Distinct random-looking registered domains looked up by one client. */
  dga: { domains: 8, gapSeconds: 3600, minLabelLength: 8 },
  /** Bytes sent from an internal host to an external one in one connection, upload-shaped (sent / received). */
  largeTransfer: { bytes: 10 * 1024 * 1024, ratio: 4 },
  /** Internal hosts reached over SMB, WinRM or RDP by one internal host. */
  lateral: { fanout: 3, gapSeconds: 3600 },
} as const;
