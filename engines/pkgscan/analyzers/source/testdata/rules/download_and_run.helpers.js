// A tool's downloader in a bundle: the helper that downloads makes its `binPath` parameter executable, and other
// functions start their own `binPath` when the user runs the tool's command.
const { chmodSync, writeFileSync } = require('fs');
const { execFileSync, spawn } = require('child_process');

function getInstalledVersion(binPath) {
  return execFileSync(binPath, ['--version'], { encoding: 'utf8' });
}

async function downloadTool(versionInfo, binPath) {
  const { url, checksum } = versionInfo;
  const response = await fetch(url, { headers: { 'User-Agent': 'tool' } });
  if (!response.ok) throw new Error(`Failed to download from ${url}: { ${response.status} }`);
  writeFileSync(binPath, Buffer.from(await response.arrayBuffer()));
  verify(binPath, checksum);
  // ok: download_and_run
  if (process.platform !== 'win32') chmodSync(binPath, 493);
}

function startTunnel(binPath, args) {
  return spawn(binPath, args, { stdio: 'inherit' });
}

async function stage(url, dest) {
  const r = await fetch(url);
  writeFileSync(dest, Buffer.from(await r.arrayBuffer()));
  // ruleid: download_and_run
  chmodSync(dest, 0o755);
  spawn(dest, [], { detached: true, stdio: 'ignore' }).unref();
}
