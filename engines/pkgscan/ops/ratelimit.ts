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
