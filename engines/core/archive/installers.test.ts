// Differential tests: the archive reader's installed view against the real installers' readers: npm (its CLI offline,
// and the node-tar it bundles with pacote's options) and Python's zipfile / tarfile (listing only). Nothing is run.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { buildTar, buildZip, concatBytes, tarRecord, type ZipMember } from './build.fixture.js';
import { installedView, readArchive, type ArchiveReadResult } from './index.js';
import { skipWithout, SYSTEM_PYTHON } from '../../../test/oracles.js';

const NPM_ROOT = '/usr/lib/node_modules/npm';
const NPM_TAR = path.join(NPM_ROOT, 'node_modules/tar');
const PYTHON = SYSTEM_PYTHON;
/** npm (with its node-tar) and Python are the oracles: without them their tests skip locally, fail under VITRINE_REQUIRE_ORACLES=1. */
const npmSkips = skipWithout('npm');
const pythonSkips = skipWithout('python3');

const work = mkdtempSync(path.join(tmpdir(), 'vitrine-installers-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const sha = (b: Uint8Array): string => createHash('sha256').update(b).digest('hex');
const enc = new TextEncoder();

const ZERO = new Uint8Array(512);

/** Files of our view as `path -> sha256` (paths relative to the installed folder). */
function ourFiles(read: ArchiveReadResult, strip: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of read.entries) if (e.kind === 'file' && e.data !== undefined) out[e.path.startsWith(strip) ? e.path.slice(strip.length) : e.path] = sha(e.data);
  return out;
}

/** Extracts each archive with npm's own node-tar and pacote's options (strip 1, links filtered), lists files with hashes. */
function npmTarExtract(files: readonly string[]): Record<string, string>[] {
  const script = `
const tar = require(${JSON.stringify(NPM_TAR)});
const fs = require('node:fs'); const path = require('node:path'); const crypto = require('node:crypto');
const out = [];
for (const f of JSON.parse(process.argv[1])) {
  const cwd = f + '.x'; fs.mkdirSync(cwd, { recursive: true });
  try { tar.x({ file: f, cwd, sync: true, strip: 1, noChmod: true, noMtime: true, preserveOwner: false, filter: (p, e) => !/Link$/.test(e.type) }); } catch {}
  const files = {};
  const walk = (d, rel) => { for (const n of fs.readdirSync(d, { withFileTypes: true })) { const p = path.join(d, n.name); const r = rel === '' ? n.name : rel + '/' + n.name; if (n.isDirectory()) walk(p, r); else if (n.isFile()) files[r] = crypto.createHash('sha256').update(fs.readFileSync(p)).digest('hex'); } };
  walk(cwd, '');
  out.push(files);
}
process.stdout.write(JSON.stringify(out));`;
  return JSON.parse(execFileSync(process.execPath, ['-e', script, JSON.stringify(files)], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })) as Record<string, string>[];
}

/** Python's view, listing only: for each name the last member's bytes (what extraction leaves), or an error. */
function pythonList(files: readonly string[]): ({ files: Record<string, string> } | { error: string })[] {
  const script = `
import sys, json, hashlib, tarfile, zipfile
out = []
for f in json.loads(sys.argv[1]):
    try:
        files = {}
        if zipfile.is_zipfile(f):
            with zipfile.ZipFile(f) as z:
                for i in z.infolist():
                    if not i.is_dir(): files[i.filename] = hashlib.sha256(z.read(i)).hexdigest()
        else:
            with tarfile.open(f) as t:
                for m in t.getmembers():
                    if m.isfile(): files[m.name] = hashlib.sha256(t.extractfile(m).read()).hexdigest()
        out.append({'files': files})
    except Exception as e:
        out.append({'error': type(e).__name__})
print(json.dumps(out))`;
  return JSON.parse(execFileSync(PYTHON, ['-I', '-c', script, JSON.stringify(files)], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })) as ({ files: Record<string, string> } | { error: string })[];
}

let n = 0;
function save(bytes: Uint8Array, ext: string): string {
  const f = path.join(work, `a${n++}.${ext}`);
  writeFileSync(f, bytes);
  return f;
}

/** A seeded generator so the fuzz cases are repeatable. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const hidden = JSON.stringify({ name: 'hidden-hook', version: '1.0.0', scripts: { preinstall: 'echo would-run-here' } });
const benign = JSON.stringify({ name: 'hidden-hook', version: '1.0.0' });

describe('npm tarballs read as npm installs them', () => {
  const cases: Record<string, Uint8Array> = {
    // A benign package.json, one zero block, then a package.json with an install hook.
    'member after one zero block': concatBytes([tarRecord({ name: 'package/package.json', data: benign }), tarRecord({ name: 'package/index.js', data: 'module.exports = 1;\n' }), ZERO, tarRecord({ name: 'package/package.json', data: hidden }), ZERO, ZERO]),
    'duplicate package.json (last wins)': buildTar([{ name: 'package/package.json', data: benign }, { name: 'package/package.json', data: hidden }]),
    'a second root folder mapped by strip-1': buildTar([{ name: 'package/package.json', data: benign }, { name: 'zzz/package.json', data: hidden }]),
    'a second root first': buildTar([{ name: 'aaa/package.json', data: hidden }, { name: 'package/package.json', data: benign }, { name: 'package/lib/x.js', data: 'x' }]),
    'a damaged header then a member': (() => {
      const bad = tarRecord({ name: 'package/junk.txt', data: 'j' });
      bad[10] = 0x41;
      return concatBytes([tarRecord({ name: 'package/package.json', data: benign }), bad, tarRecord({ name: 'package/package.json', data: hidden }), ZERO, ZERO]);
    })(),
    'a plain release': buildTar([{ name: 'package/package.json', data: benign }, { name: 'package/lib/a.js', data: 'a' }]),
  };

  it.skipIf(npmSkips)('matches npm’s node-tar (pacote options) on every case, and flags every case that is not plain', () => {
    const names = Object.keys(cases);
    const files = names.map((k) => save(gzipSync(cases[k] ?? new Uint8Array()), 'tgz'));
    const npm = npmTarExtract(files);
    names.forEach((k, i) => {
      const view = installedView(readArchive(cases[k] ?? new Uint8Array()), 'npm');
      expect(ourFiles(view, 'package/'), k).toEqual(npm[i]);
      if (k === 'a plain release') expect(view.ambiguities, k).toEqual([]);
      else expect(view.ambiguities.length, k).toBeGreaterThan(0);
    });
    // The hidden install hook is what the view's package.json holds, as it is what npm installs.
    const first = installedView(readArchive(cases['member after one zero block'] ?? new Uint8Array()), 'npm');
    const pj = first.entries.find((e) => e.path === 'package/package.json');
    expect(new TextDecoder().decode(pj?.data)).toContain('preinstall');
  });

  it.skipIf(npmSkips)('equals what the npm CLI installs offline (--ignore-scripts) for the hidden-hook tarball', () => {
    const tgz = save(gzipSync(cases['member after one zero block'] ?? new Uint8Array()), 'tgz');
    const prefix = path.join(work, 'npm-prefix');
    mkdirSync(prefix, { recursive: true });
    writeFileSync(path.join(prefix, 'package.json'), '{"name":"probe","version":"0.0.0","private":true}');
    const env = { ...process.env, npm_config_cache: path.join(work, 'npm-cache'), npm_config_update_notifier: 'false', npm_config_audit: 'false', npm_config_fund: 'false' };
    execFileSync(process.execPath, [path.join(NPM_ROOT, 'bin/npm-cli.js'), 'install', '--offline', '--ignore-scripts', '--no-save', '--no-package-lock', '--prefix', prefix, tgz], { env, stdio: 'pipe', timeout: 120_000 });
    const installed = readFileSync(path.join(prefix, 'node_modules/hidden-hook/package.json'), 'utf8');
    const view = installedView(readArchive(cases['member after one zero block'] ?? new Uint8Array()), 'npm');
    const ours = new TextDecoder().decode(view.entries.find((e) => e.path === 'package/package.json')?.data);
    expect(JSON.parse(installed).scripts).toEqual({ preinstall: 'echo would-run-here' });
    expect(JSON.parse(ours).scripts).toEqual(JSON.parse(installed).scripts);
  });

  it.skipIf(npmSkips)('fuzz: on 150 built tarballs the view equals node-tar’s or says where installers disagree', () => {
    const r = rng(28);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)] as T;
    const built: Uint8Array[] = [];
    for (let c = 0; c < 150; c++) {
      const parts: Uint8Array[] = [];
      const count = 1 + Math.floor(r() * 6);
      for (let i = 0; i < count; i++) {
        const root = r() < 0.8 ? 'package' : pick(['pkg', '.', 'zzz']);
        const name = `${root}/${pick(['package.json', 'index.js', 'lib/a.js', 'lib/a.js', 'README.md'])}`;
        const roll = r();
        if (roll < 0.08) parts.push(ZERO);
        else if (roll < 0.12) {
          const bad = tarRecord({ name, data: 'bad' });
          bad[20] = 0x7a;
          parts.push(bad);
        } else if (roll < 0.16) parts.push(tarRecord({ name: `${root}/lib`, type: '5' }));
        parts.push(tarRecord({ name, data: `${c}:${i}:${Math.floor(r() * 3)}` }));
      }
      if (r() < 0.1) parts.push(ZERO, ZERO, tarRecord({ name: 'package/late.js', data: 'late' }));
      parts.push(ZERO, ZERO);
      built.push(concatBytes(parts));
    }
    const npm = npmTarExtract(built.map((b) => save(gzipSync(b), 'tgz')));
    let silent = 0;
    let differed = 0;
    built.forEach((b, i) => {
      const view = installedView(readArchive(gzipSync(b)), 'npm');
      const same = JSON.stringify(Object.entries(ourFiles(view, 'package/')).sort()) === JSON.stringify(Object.entries(npm[i] ?? {}).sort());
      if (!same) differed++;
      if (!same && view.ambiguities.length === 0 && view.complete) silent++;
      // What npm installs is never missing from (or different in) the view without a flag.
      if (view.ambiguities.length === 0 && view.complete) expect(ourFiles(view, 'package/'), `case ${i}`).toEqual(npm[i]);
    });
    expect(silent).toBe(0);
    // The view follows node-tar itself, not only flags: it matches npm on nearly every case.
    expect(differed).toBeLessThan(built.length / 10);
  });
});

describe('wheels and sdists read as Python reads them', () => {
  const zipCases: Record<string, Uint8Array> = {
    'duplicate METADATA (last wins)': buildZip([{ name: 'x-1.dist-info/METADATA', data: 'Name: x\nVersion: 1\n' }, { name: 'x-1.dist-info/METADATA', data: 'Name: x\nVersion: 1\nRequires-Dist: evil\n' }]),
    'a plain wheel': buildZip([{ name: 'x/__init__.py', data: 'x = 1\n', deflate: true }, { name: 'x-1.dist-info/METADATA', data: 'Name: x\n' }]),
    'a stub in front of the zip': concatBytes([enc.encode('#!/bin/sh\nexit 0\n'), buildZip([{ name: 'x/__init__.py', data: 'y' }])]),
    'a NUL in a name': buildZip([{ name: 'setup.py\0.txt', data: 'print(1)' }]),
  };

  it.skipIf(pythonSkips)('matches zipfile on every zip case and flags duplicates', () => {
    const names = Object.keys(zipCases);
    const py = pythonList(names.map((k) => save(zipCases[k] ?? new Uint8Array(), 'zip')));
    names.forEach((k, i) => {
      const view = installedView(readArchive(zipCases[k] ?? new Uint8Array()), 'python');
      const p = py[i];
      expect(p !== undefined && 'files' in p ? p.files : p, k).toEqual(ourFiles(view, ''));
    });
    expect(installedView(readArchive(zipCases['duplicate METADATA (last wins)'] ?? new Uint8Array()), 'python').ambiguities.map((a) => a.code)).toEqual(['duplicate_path']);
  });

  it.skipIf(pythonSkips)('flags a local header naming another file than the directory (zipfile refuses to read it)', () => {
    const z = buildZip([{ name: 'a/setup.py', data: 'x' }]);
    // Rename the local header only.
    z[30] = 'b'.charCodeAt(0);
    const [p] = pythonList([save(z, 'zip')]);
    expect(p).toEqual({ error: 'BadZipFile' });
    expect(readArchive(z).ambiguities.map((a) => a.code)).toEqual(['local_name_mismatch']);
  });

  it.skipIf(pythonSkips)('fuzz: on 150 built zips and 100 sdist tars the view equals Python’s or is flagged', () => {
    const r = rng(2026);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)] as T;
    const zips: Uint8Array[] = [];
    for (let c = 0; c < 150; c++) {
      const members: ZipMember[] = [];
      const count = 1 + Math.floor(r() * 5);
      for (let i = 0; i < count; i++) members.push({ name: pick(['x/__init__.py', 'x-1.dist-info/METADATA', 'x-1.dist-info/RECORD', 'setup.py', 'x/caf\u00e9.py']), data: `${c}:${i}`, deflate: r() < 0.5 });
      let z = buildZip(members);
      if (r() < 0.15) z = concatBytes([enc.encode(`stub${c}\n`), z]);
      if (r() < 0.1) z[30] = 'q'.charCodeAt(0);
      zips.push(z);
    }
    const tars: Uint8Array[] = [];
    for (let c = 0; c < 100; c++) {
      const parts: Uint8Array[] = [];
      for (let i = 0; i < 1 + Math.floor(r() * 5); i++) {
        if (r() < 0.1) parts.push(ZERO);
        parts.push(tarRecord({ name: `x-1/${pick(['PKG-INFO', 'setup.py', 'x/__init__.py'])}`, data: `${c}:${i}` }));
      }
      parts.push(ZERO, ZERO);
      tars.push(concatBytes(parts));
    }
    const all = [...zips.map((z) => save(z, 'zip')), ...tars.map((t) => save(gzipSync(t), 'tar.gz'))];
    const py = pythonList(all);
    let silent = 0;
    [...zips, ...tars].forEach((b, i) => {
      const view = installedView(readArchive(i < zips.length ? b : gzipSync(b)), 'python');
      const p = py[i];
      const theirs = p !== undefined && 'files' in p ? p.files : undefined;
      const flagged = view.ambiguities.length > 0 || !view.complete;
      if (theirs === undefined || JSON.stringify(Object.entries(theirs).sort()) !== JSON.stringify(Object.entries(ourFiles(view, '')).sort())) {
        if (!flagged) silent++;
      }
    });
    expect(silent).toBe(0);
  });
});
