// electron-builder.yml: valid for the installed electron-builder, the targets the issue asks for, no secrets in the file.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { packageRoot } from './paths.js';

const file = path.join(packageRoot(), 'electron-builder.yml');
const text = readFileSync(file, 'utf8');
const config = YAML.parse(text) as Record<string, unknown> & {
  files: string[];
  asarUnpack: string[];
  linux: { target: string[] };
  win: { target: string[] };
  mac: { target: string[] };
  extraMetadata: { main: string };
};

describe('electron-builder.yml', () => {
  it("passes electron-builder's own schema validation", async () => {
    const require = createRequire(import.meta.url);
    const { validateConfiguration } = require('app-builder-lib/out/util/config/config.js') as {
      validateConfiguration(config: unknown, logger: { isEnabled: boolean; add(): void }): Promise<void>;
    };
    await expect(validateConfiguration(config, { isEnabled: false, add: () => undefined })).resolves.toBeUndefined();
  });

  it('builds AppImage and deb, nsis and dmg from the compiled app', () => {
    expect(config['productName']).toBe('Vitrine');
    expect(config.linux.target).toEqual(['AppImage', 'deb']);
    expect(config.win.target).toEqual(['nsis']);
    expect(config.mac.target).toEqual(['dmg']);
    expect(config.files).toEqual(expect.arrayContaining(['dist/**', 'resources/**', 'package.json']));
    expect(config.extraMetadata.main).toBe('dist/main/app.js');
  });

  it('rebuilds and unpacks the native SQLite addon for Electron', () => {
    expect(config['npmRebuild']).toBe(true);
    expect(config.asarUnpack.some((p) => p.includes('better-sqlite3') && p.endsWith('.node'))).toBe(true);
  });

  it('keeps signing secrets out of the file (they come from CSC_LINK, WIN_CSC_LINK, APPLE_ID...)', () => {
    for (const key of ['cscLink', 'cscKeyPassword', 'certificatePassword', 'appleId', 'appleIdPassword']) expect(text).not.toMatch(new RegExp(`^\\s*${key}:`, 'm'));
    expect(config['publish']).toBeNull();
  });
});
