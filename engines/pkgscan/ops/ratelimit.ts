// Fixed-window request counters per key (client address, user id), with the seconds until the window resets for Retry-After.
export interface LimitDecision {
  readonly allowed: boolean;
  /** Whole seconds until the caller may try again (at least 1); 0 when allowed. */
  readonly retryAfterS: number;
  readonly remaining: number;
}

/** Counts hits per key in windows of `windowMs`; memory is bounded by sweeping ended windows. */
export class FixedWindowLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(
    readonly limit: number,
    readonly windowMs: number,
    private readonly maxKeys = 100_000,
  ) {}

  hit(key: string, now = Date.now()): LimitDecision {
    let w = this.windows.get(key);
    if (!w || now - w.start >= this.windowMs) {
      if (!w && this.windows.size >= this.maxKeys) this.sweep(now);
      w = { start: now, count: 0 };
      this.windows.set(key, w);
    }
    w.count++;
    if (w.count > this.limit) return { allowed: false, retryAfterS: Math.max(1, Math.ceil((w.start + this.windowMs - now) / 1000)), remaining: 0 };
    return { allowed: true, retryAfterS: 0, remaining: this.limit - w.count };
  }

  /** Hits counted for `key` in its current window, without counting one more. */
  count(key: string, now = Date.now()): { count: number; retryAfterS: number } {
    const w = this.windows.get(key);
    if (!w || now - w.start >= this.windowMs) return { count: 0, retryAfterS: 0 };
    return { count: w.count, retryAfterS: Math.max(1, Math.ceil((w.start + this.windowMs - now) / 1000)) };
  }

  private sweep(now: number): void {
    for (const [k, w] of this.windows) if (now - w.start >= this.windowMs) this.windows.delete(k);
    // Still full (a flood of distinct keys): drop the oldest windows rather than grow without bound.
    if (this.windows.size >= this.maxKeys) {
      const excess = this.windows.size - Math.floor(this.maxKeys / 2);
      let i = 0;
      for (const k of this.windows.keys()) {
        if (i++ >= excess) break;
        this.windows.delete(k);
      }
    }
  }
}

/** The 64-bit network prefix of an IPv6 address (its first four groups), or undefined when it is not one. */
function ipv6Prefix64(address: string): string | undefined {
  if (!address.includes(':')) return undefined;
  const halves = address.toLowerCase().split('::');
  if (halves.length > 2) return undefined;
  const head = halves[0] === '' ? [] : (halves[0] as string).split(':');
  const tail = halves.length === 2 && halves[1] !== '' ? (halves[1] as string).split(':') : [];
  const groups = halves.length === 2 ? [...head, ...Array<string>(Math.max(0, 8 - head.length - tail.length)).fill('0'), ...tail] : head;
  if (groups.length !== 8 || !groups.every((g) => /^[0-9a-f]{1,4}$/.test(g))) return undefined;
  return groups.slice(0, 4).map((g) => g.replace(/^0+(?=.)/, '')).join(':');
}

/**
 * The rate-limit key of a client address: the whole loopback range (127.0.0.0/8 and ::1) is one client, since any
 * local process can pick a new 127.x.y.z source address for each request; IPv6 counts by /64, the block one host is
 * given; IPv4 (also IPv4-mapped IPv6) by address.
 */
export function clientKey(address: string | undefined): string {
  if (address === undefined || address === '') return 'unknown';
  const a = address.toLowerCase().replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, '');
  if (a === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(a)) return 'loopback';
  const prefix = ipv6Prefix64(a);
  return prefix !== undefined ? `${prefix}::/64` : a;
}

/** A fixed-window limiter behind async functions: in this process's memory, or in the database every server shares. */
export interface SharedLimiter {
  readonly limit: number;
  readonly windowMs: number;
  /** Counts one hit for `key` and says whether it is within the limit. */
  hit(key: string, now?: number): Promise<LimitDecision>;
  /** Hits counted for `key` in its current window, without counting one more. */
  count(key: string, now?: number): Promise<{ count: number; retryAfterS: number }>;
}

/** The embedded default: the in-memory FixedWindowLimiter of one process. */
export class MemoryLimiter implements SharedLimiter {
  readonly inner: FixedWindowLimiter;
  constructor(limit: number, windowMs: number) {
    this.inner = new FixedWindowLimiter(limit, windowMs);
  }
  get limit(): number {
    return this.inner.limit;
  }
  get windowMs(): number {
    return this.inner.windowMs;
  }
  async hit(key: string, now?: number): Promise<LimitDecision> {
    return this.inner.hit(key, now);
  }
  async count(key: string, now?: number): Promise<{ count: number; retryAfterS: number }> {
    return this.inner.count(key, now);
  }
}

/** What the database limiter needs: one statement at a time (an AsyncDb fits). */
interface Statements {
  get<T>(sql: string, params?: readonly (string | number)[]): Promise<T | undefined>;
  run(sql: string, params?: readonly (string | number)[]): Promise<number>;
}

const SCOPE = /^[a-z_]{1,32}$/;
/** Ended windows are swept about once every this many hits. */
const SWEEP_EVERY = 500;

/**
 * Fixed windows in the pkgscan_rate_buckets table (PostgreSQL): one upsert per hit, so every server counts into the
 * same window and a lock-out one server set holds on the next server at once.
 */
export class DatabaseLimiter implements SharedLimiter {
  private hits = 0;

  constructor(
    private readonly db: Statements,
    private readonly scope: string,
    readonly limit: number,
    readonly windowMs: number,
  ) {
    if (!SCOPE.test(scope)) throw new Error('invalid limiter scope');
  }

  private retryAfter(start: number, now: number): number {
    return Math.max(1, Math.ceil((start + this.windowMs - now) / 1000));
  }

  async hit(key: string, now = Date.now()): Promise<LimitDecision> {
    const row = await this.db.get<{ window_start: number; count: number }>(
      `INSERT INTO pkgscan_rate_buckets (scope, key, window_start, count) VALUES (?, ?, ?, 1)
       ON CONFLICT (scope, key) DO UPDATE SET
         count = CASE WHEN pkgscan_rate_buckets.window_start + ? <= EXCLUDED.window_start THEN 1 ELSE pkgscan_rate_buckets.count + 1 END,
         window_start = CASE WHEN pkgscan_rate_buckets.window_start + ? <= EXCLUDED.window_start THEN EXCLUDED.window_start ELSE pkgscan_rate_buckets.window_start END
       RETURNING window_start, count`,
      [this.scope, key, now, this.windowMs, this.windowMs],
    );
    if (++this.hits % SWEEP_EVERY === 0) await this.db.run('DELETE FROM pkgscan_rate_buckets WHERE scope = ? AND window_start + ? <= ?', [this.scope, this.windowMs, now]);
    const count = Number(row?.count ?? 1);
    const start = Number(row?.window_start ?? now);
    if (count > this.limit) return { allowed: false, retryAfterS: this.retryAfter(start, now), remaining: 0 };
    return { allowed: true, retryAfterS: 0, remaining: this.limit - count };
  }

  async count(key: string, now = Date.now()): Promise<{ count: number; retryAfterS: number }> {
    const row = await this.db.get<{ window_start: number; count: number }>('SELECT window_start, count FROM pkgscan_rate_buckets WHERE scope = ? AND key = ?', [this.scope, key]);
    if (!row || Number(row.window_start) + this.windowMs <= now) return { count: 0, retryAfterS: 0 };
    return { count: Number(row.count), retryAfterS: this.retryAfter(Number(row.window_start), now) };
  }
}
