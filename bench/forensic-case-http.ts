// `npm run bench -- forensic-case-http [events]`: one large case through forensic's HTTP service in process: N generated
// dataset-json events (default 100,000) analysed, then each read (timeline, default detail, custody, HTML report).
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { listen } from '../engines/core/http/server.js';
import { createStandaloneApp } from '../engines/forensic/http.js';

const n = Number(process.argv[3] ?? 100_000);
if (!Number.isSafeInteger(n) || n < 1) {
  console.error('usage: npm run bench -- forensic-case-http [events, a positive whole number]');
  process.exit(2);
}
const dir = mkdtempSync(path.join(tmpdir(), 'forB-big-'));
const lines = [JSON.stringify({ format: 'vitrine.forensic.dataset', version: 1, source: 'bench' })];
const start = Date.UTC(2024, 0, 1);
for (let i = 0; i < n; i++) {
  const k = i % 10000;
  const image = k === 5 ? 'C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe' : k === 6 ? 'C:\\Windows\\System32\\vssadmin.exe' : i % 2 ? 'C:\\Windows\\System32\\svchost.exe' : 'C:\\Program Files\\App\\app.exe';
  lines.push(JSON.stringify({ time: new Date(start + i * 1000).toISOString(), host: `WS${i % 100}`, actor: { type: 'process', name: 'parent.exe' }, action: 'process.create', object: { type: 'process', name: image }, summary: `process.create ${image}`, attributes: { pid: 1000 + i, ppid: i % 10 === 0 ? 500 : 999 + i, commandLine: k === 5 ? 'powershell.exe -enc SQBFAFgA' : k === 6 ? 'vssadmin delete shadows /all /quiet' : image } }));
}
writeFileSync(path.join(dir, 'events.jsonl'), lines.join('\n') + '\n');
const server = await listen(createStandaloneApp({ evidenceRoot: dir }), { port: 0 });
const rss0 = process.memoryUsage().rss;
let t = performance.now();
const res = await fetch(`${server.url}/api/cases/path?wait=true`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ paths: ['events.jsonl'], kind: 'dataset-json' }) });
const body = await res.text();
const d = JSON.parse(body) as { id: string; status: string; error: string | null; counts: { events: number; stories: number } };
process.stdout.write(`POST /api/cases/path?wait=true: ${res.status} ${d.status} ${d.error ?? ''} events ${d.counts?.events} stories ${d.counts?.stories} in ${((performance.now() - t) / 1000).toFixed(1)} s; answer ${(body.length / 1e6).toFixed(1)} MB\n`);
t = performance.now();
const all = await (await fetch(`${server.url}/api/cases/${d.id}?events=all&max_events=100000`)).text();
process.stdout.write(`GET events=all: ${(all.length / 1e6).toFixed(1)} MB in ${((performance.now() - t) / 1000).toFixed(2)} s\n`);
t = performance.now();
const lean = await (await fetch(`${server.url}/api/cases/${d.id}?events=all&max_events=100000&graph=stories&attributes=false`)).text();
process.stdout.write(`GET events=all&graph=stories&attributes=false (the workspace's timeline): ${(lean.length / 1e6).toFixed(1)} MB in ${((performance.now() - t) / 1000).toFixed(2)} s\n`);
t = performance.now();
const def = await (await fetch(`${server.url}/api/cases/${d.id}`)).text();
process.stdout.write(`GET default detail: ${(def.length / 1e6).toFixed(2)} MB in ${((performance.now() - t) / 1000).toFixed(2)} s\n`);
t = performance.now();
const cust = await (await fetch(`${server.url}/api/cases/${d.id}/custody`)).text();
process.stdout.write(`GET custody: ${(cust.length / 1e6).toFixed(1)} MB in ${((performance.now() - t) / 1000).toFixed(2)} s, ok=${String((JSON.parse(cust) as { verification: { ok: boolean } }).verification.ok)}\n`);
t = performance.now();
const html = await (await fetch(`${server.url}/api/cases/${d.id}/report.html`)).text();
process.stdout.write(`GET report.html: ${(html.length / 1e6).toFixed(2)} MB in ${((performance.now() - t) / 1000).toFixed(2)} s\n`);
process.stdout.write(`peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB (start ${(rss0 / 2 ** 20).toFixed(0)} MiB)\n`);
await server.close();
rmSync(dir, { recursive: true, force: true });
process.exit(0);
