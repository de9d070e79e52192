// The data directory per platform and the package root from sources.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { appVersion, dataDir, packageRoot, rendererDir, resourcesDir } from './paths.js';

describe('dataDir', () => {
  it('prefers VITRINE_HOME, resolved to an absolute path', () => {
    expect(dataDir({ VITRINE_HOME: '/srv/vitrine' }, 'linux', '/home/a')).toBe('/srv/vitrine');
    expect(path.isAbsolute(dataDir({ VITRINE_HOME: 'rel' }, 'linux', '/home/a'))).toBe(true);
  });

  it('uses XDG_CONFIG_HOME or ~/.config on Linux, ignoring a relative XDG_CONFIG_HOME', () => {
    expect(dataDir({ XDG_CONFIG_HOME: '/x/cfg' }, 'linux', '/home/a')).toBe('/x/cfg/Vitrine');
    expect(dataDir({}, 'linux', '/home/a')).toBe('/home/a/.config/Vitrine');
    expect(dataDir({ XDG_CONFIG_HOME: 'cfg' }, 'linux', '/home/a')).toBe('/home/a/.config/Vitrine');
    expect(dataDir({ VITRINE_HOME: '' }, 'linux', '/home/a')).toBe('/home/a/.config/Vitrine');
  });

  it('uses Application Support on macOS and %APPDATA% on Windows', () => {
    expect(dataDir({}, 'darwin', '/Users/a')).toBe('/Users/a/Library/Application Support/Vitrine');
    expect(dataDir({ APPDATA: 'C:\\Users\\a\\AppData\\Roaming' }, 'win32', 'C:\\Users\\a')).toBe('C:\\Users\\a\\AppData\\Roaming\\Vitrine');
    expect(dataDir({}, 'win32', 'C:\\Users\\a')).toBe('C:\\Users\\a\\AppData\\Roaming\\Vitrine');
  });
});

describe('package paths', () => {
  it('finds the package root, its resources and version', () => {
    expect(existsSync(path.join(packageRoot(), 'package.json'))).toBe(true);
    expect(existsSync(resourcesDir())).toBe(true);
    expect(rendererDir()).toBe(path.join(packageRoot(), 'dist', 'renderer'));
    expect(appVersion()).toMatch(/^\d+\.\d+\.\d+/);
  });
});
