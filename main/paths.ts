// Where Vitrine keeps its data (VITRINE_HOME or the platform's user-data folder) and where its package files are.
import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The folder name under the platform's user-data location. */
export const APP_FOLDER = 'Vitrine';

/**
 * The data directory: VITRINE_HOME when set, else Linux $XDG_CONFIG_HOME/Vitrine (or ~/.config/Vitrine),
 * macOS ~/Library/Application Support/Vitrine, Windows %APPDATA%\Vitrine.
 */
export function dataDir(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
  home: string = os.homedir(),
): string {
  const explicit = env['VITRINE_HOME'];
  if (explicit !== undefined && explicit.trim() !== '') return path.resolve(explicit);
  if (platform === 'win32') {
    const appData = env['APPDATA'];
    return path.win32.join(appData !== undefined && appData !== '' ? appData : path.win32.join(home, 'AppData', 'Roaming'), APP_FOLDER);
  }
  if (platform === 'darwin') return path.posix.join(home, 'Library', 'Application Support', APP_FOLDER);
  // The XDG spec says a relative XDG_CONFIG_HOME is invalid and must be ignored.
  const xdg = env['XDG_CONFIG_HOME'];
  const config = xdg !== undefined && path.posix.isAbsolute(xdg) ? xdg : path.posix.join(home, '.config');
  return path.posix.join(config, APP_FOLDER);
}

let root: string | undefined;

/** The package root (the folder of Vitrine's package.json), found upwards from this file in sources, dist/ and app.asar alike. */
export function packageRoot(): string {
  if (root !== undefined) return root;
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = path.join(dir, 'package.json');
    if (existsSync(manifest)) {
      try {
        const name: unknown = (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown }).name;
        if (name === 'vitrine') return (root = dir);
      } catch {
        // Not our manifest; keep looking upwards.
      }
    }
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('cannot find the Vitrine package root');
    dir = parent;
  }
}

/** The shipped data (knowledge graphs, rules, policies). */
export function resourcesDir(): string {
  return path.join(packageRoot(), 'resources');
}

/** The Vite build of the renderer. */
export function rendererDir(): string {
  return path.join(packageRoot(), 'dist', 'renderer');
}

/** Vitrine's version, from its package.json. */
export function appVersion(): string {
  const version: unknown = (JSON.parse(readFileSync(path.join(packageRoot(), 'package.json'), 'utf8')) as { version?: unknown }).version;
  return typeof version === 'string' ? version : '0.0.0';
}
