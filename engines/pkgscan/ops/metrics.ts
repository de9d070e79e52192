// Prometheus text exposition (format 0.0.4) of a few bounded counters, a latency histogram and gauges; labels are route templates and status classes, never package names.
const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

function labelText(labels: Readonly<Record<string, string>>): string {
  const parts = Object.entries(labels).map(([k, v]) => `${k}="${v.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"')}"`);
  return parts.length > 0 ? `{${parts.join(',')}}` : '';
}

interface Series {
  labels: Record<string, string>;
  value: number;
}

interface HistogramSeries {
  labels: Record<string, string>;
  counts: number[];
  sum: number;
  count: number;
}

/** At most this many label sets per metric; further ones are counted under `other` values (bounded cardinality). */
const MAX_SERIES = 500;

export class Metrics {
  private readonly counters = new Map<string, { help: string; series: Map<string, Series> }>();
  private readonly histograms = new Map<string, { help: string; series: Map<string, HistogramSeries> }>();
  private readonly gauges = new Map<string, { help: string; read: () => number | Promise<number> }>();

  counter(name: string, help: string): void {
    if (!this.counters.has(name)) this.counters.set(name, { help, series: new Map() });
  }

  histogram(name: string, help: string): void {
    if (!this.histograms.has(name)) this.histograms.set(name, { help, series: new Map() });
  }

  /** A gauge read when /metrics is scraped (an async one from the shared database is read by renderAsync). */
  gauge(name: string, help: string, read: () => number | Promise<number>): void {
    this.gauges.set(name, { help, read });
  }

  inc(name: string, labels: Record<string, string> = {}, by = 1): void {
    const c = this.counters.get(name);
    if (!c) return;
    let key = labelText(labels);
    if (!c.series.has(key) && c.series.size >= MAX_SERIES) {
      labels = Object.fromEntries(Object.keys(labels).map((k) => [k, 'other']));
      key = labelText(labels);
    }
    const s = c.series.get(key) ?? { labels, value: 0 };
    s.value += by;
    c.series.set(key, s);
  }

  observe(name: string, labels: Record<string, string>, seconds: number): void {
    const h = this.histograms.get(name);
    if (!h) return;
    let key = labelText(labels);
    if (!h.series.has(key) && h.series.size >= MAX_SERIES) {
      labels = Object.fromEntries(Object.keys(labels).map((k) => [k, 'other']));
      key = labelText(labels);
    }
    const s = h.series.get(key) ?? { labels, counts: BUCKETS.map(() => 0), sum: 0, count: 0 };
    BUCKETS.forEach((b, i) => {
      if (seconds <= b) s.counts[i] = (s.counts[i] ?? 0) + 1;
    });
    s.sum += seconds;
    s.count++;
    h.series.set(key, s);
  }

  /** The exposition text, every gauge read first (async ones awaited; a failed read is NaN). */
  async renderAsync(): Promise<string> {
    const values = new Map<string, number>();
    for (const [name, g] of this.gauges) {
      try {
        values.set(name, await g.read());
      } catch {
        values.set(name, Number.NaN);
      }
    }
    return this.render(values);
  }

  /** The exposition text (an async gauge without `values` is NaN). */
  render(values?: ReadonlyMap<string, number>): string {
    const out: string[] = [];
    for (const [name, c] of this.counters) {
      out.push(`# HELP ${name} ${c.help}`, `# TYPE ${name} counter`);
      for (const s of c.series.values()) out.push(`${name}${labelText(s.labels)} ${s.value}`);
    }
    for (const [name, h] of this.histograms) {
      out.push(`# HELP ${name} ${h.help}`, `# TYPE ${name} histogram`);
      for (const s of h.series.values()) {
        BUCKETS.forEach((b, i) => out.push(`${name}_bucket${labelText({ ...s.labels, le: String(b) })} ${s.counts[i] ?? 0}`));
        out.push(`${name}_bucket${labelText({ ...s.labels, le: '+Inf' })} ${s.count}`);
        out.push(`${name}_sum${labelText(s.labels)} ${s.sum}`, `${name}_count${labelText(s.labels)} ${s.count}`);
      }
    }
    for (const [name, g] of this.gauges) {
      let value: number;
      try {
        const read = values?.get(name) ?? g.read();
        value = typeof read === 'number' ? read : Number.NaN;
      } catch {
        value = Number.NaN;
      }
      out.push(`# HELP ${name} ${g.help}`, `# TYPE ${name} gauge`, `${name} ${Number.isFinite(value) ? value : 'NaN'}`);
    }
    return `${out.join('\n')}\n`;
  }
}
