// Small dependency-free SVG charts for the study figures: line charts (ROC, PR, robustness, drift) and horizontal bars (SHAP, poisoning).
import { escapeHtml } from '../../core/html.js';

export interface Series {
  readonly name: string;
  readonly x: ArrayLike<number>;
  readonly y: ArrayLike<number>;
}

const W = 520;
const H = 360;
const M = { l: 56, r: 150, t: 34, b: 44 };
const COLOURS = ['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b', '#17becf'];

const fmt = (v: number): string => (Math.abs(v) >= 100 ? v.toFixed(0) : Math.abs(v) >= 1 ? v.toFixed(2) : v.toFixed(2));

export function lineChart(title: string, xLabel: string, yLabel: string, series: readonly Series[], xr: [number, number] = [0, 1], yr: [number, number] = [0, 1]): string {
  const pw = W - M.l - M.r;
  const ph = H - M.t - M.b;
  const sx = (v: number): number => M.l + ((v - xr[0]) / (xr[1] - xr[0] || 1)) * pw;
  const sy = (v: number): number => M.t + ph - ((v - yr[0]) / (yr[1] - yr[0] || 1)) * ph;
  const parts: string[] = [];
  parts.push(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" font-family="sans-serif" font-size="11">`);
  parts.push(`<rect width="${W}" height="${H}" fill="#fff"/>`);
  parts.push(`<text x="${W / 2 - M.r / 2}" y="18" text-anchor="middle" font-size="13">${escapeHtml(title)}</text>`);
  parts.push(`<rect x="${M.l}" y="${M.t}" width="${pw}" height="${ph}" fill="none" stroke="#888"/>`);
  for (let t = 0; t <= 4; t++) {
    const xv = xr[0] + ((xr[1] - xr[0]) * t) / 4;
    const yv = yr[0] + ((yr[1] - yr[0]) * t) / 4;
    parts.push(`<text x="${sx(xv).toFixed(1)}" y="${H - M.b + 14}" text-anchor="middle">${fmt(xv)}</text>`);
    parts.push(`<text x="${M.l - 6}" y="${(sy(yv) + 4).toFixed(1)}" text-anchor="end">${fmt(yv)}</text>`);
    parts.push(`<line x1="${M.l}" x2="${M.l + pw}" y1="${sy(yv).toFixed(1)}" y2="${sy(yv).toFixed(1)}" stroke="#eee"/>`);
  }
  parts.push(`<text x="${M.l + pw / 2}" y="${H - 8}" text-anchor="middle">${escapeHtml(xLabel)}</text>`);
  parts.push(`<text x="14" y="${M.t + ph / 2}" text-anchor="middle" transform="rotate(-90 14 ${M.t + ph / 2})">${escapeHtml(yLabel)}</text>`);
  series.forEach((s, i) => {
    const c = COLOURS[i % COLOURS.length]!;
    const pts: string[] = [];
    // At most 400 points per series keeps the file small.
    const step = Math.max(1, Math.ceil(s.x.length / 400));
    for (let k = 0; k < s.x.length; k += step) {
      const xv = s.x[k]!;
      const yv = s.y[k]!;
      if (Number.isFinite(xv) && Number.isFinite(yv)) pts.push(`${sx(xv).toFixed(1)},${sy(yv).toFixed(1)}`);
    }
    const last = s.x.length - 1;
    if (last >= 0 && last % step !== 0 && Number.isFinite(s.x[last]!) && Number.isFinite(s.y[last]!)) pts.push(`${sx(s.x[last]!).toFixed(1)},${sy(s.y[last]!).toFixed(1)}`);
    parts.push(`<polyline fill="none" stroke="${c}" stroke-width="1.8" points="${pts.join(' ')}"/>`);
    if (s.x.length <= 12) for (const p of pts) parts.push(`<circle cx="${p.split(',')[0]}" cy="${p.split(',')[1]}" r="2.5" fill="${c}"/>`);
    parts.push(`<rect x="${W - M.r + 10}" y="${M.t + i * 18}" width="12" height="3" fill="${c}"/>`);
    parts.push(`<text x="${W - M.r + 26}" y="${M.t + i * 18 + 5}">${escapeHtml(s.name)}</text>`);
  });
  parts.push('</svg>');
  return `${parts.join('\n')}\n`;
}

export function barChart(title: string, labels: readonly string[], values: readonly number[], valueLabel: string): string {
  const rowH = 18;
  const h = M.t + labels.length * rowH + 40;
  const w = 620;
  const left = 220;
  const pw = w - left - 40;
  const max = Math.max(1e-12, ...values.map((v) => Math.abs(v)));
  const parts: string[] = [];
  parts.push(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${w} ${h}" width="${w}" height="${h}" font-family="sans-serif" font-size="11">`);
  parts.push(`<rect width="${w}" height="${h}" fill="#fff"/>`);
  parts.push(`<text x="${w / 2}" y="18" text-anchor="middle" font-size="13">${escapeHtml(title)}</text>`);
  labels.forEach((l, i) => {
    const v = values[i]!;
    const bw = (Math.abs(v) / max) * pw;
    const y = M.t + i * rowH;
    parts.push(`<text x="${left - 6}" y="${y + 12}" text-anchor="end">${escapeHtml(l)}</text>`);
    parts.push(`<rect x="${left}" y="${y + 2}" width="${bw.toFixed(1)}" height="${rowH - 5}" fill="${v < 0 ? '#1f77b4' : '#d62728'}"/>`);
    parts.push(`<text x="${(left + bw + 4).toFixed(1)}" y="${y + 12}">${Number.isFinite(v) ? v.toPrecision(3) : 'n/a'}</text>`);
  });
  parts.push(`<text x="${left + pw / 2}" y="${h - 8}" text-anchor="middle">${escapeHtml(valueLabel)}</text>`);
  parts.push('</svg>');
  return `${parts.join('\n')}\n`;
}
