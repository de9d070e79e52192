import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { layerViolation } from './layers.js';

describe('layerViolation', () => {
  it.each([
    ['engines/forensic/index.ts', 'electron', false],
    ['engines/forensic/index.ts', 'react', false],
    ['engines/forensic/index.ts', '../../main/host/pool.js', false],
    ['engines/forensic/index.ts', '../../renderer/src/app.js', false],
    ['engines/forensic/index.ts', 'express', false],
    ['engines/forensic/index.ts', '../petriage/index.js', false],
    ['engines/core/stix.ts', '../attrib/index.js', false],
    ['renderer/src/app.tsx', 'node:fs', false],
    ['renderer/src/app.tsx', 'fs', false],
    ['renderer/src/app.tsx', '../../engines/caseassess/index.js', false],
    ['renderer/src/app.tsx', '../../engines/core/contracts/caseassess.js', false],
    ['main/host/pool.ts', 'electron', false],
    ['preload/index.ts', '../main/gateway/app.js', false],
  ])('%s may not import %s', (from, spec, typeOnly) => {
    expect(layerViolation(from, spec, typeOnly)).toBeTypeOf('string');
  });

  it.each([
    ['engines/forensic/http.ts', 'express', false],
    ['engines/core/http/index.ts', 'express', false],
    ['engines/forensic/index.ts', '../core/errors.js', false],
    ['engines/forensic/evtx/parse.ts', '../index.js', false],
    ['renderer/src/app.tsx', '../../engines/core/contracts/caseassess.js', true],
    ['renderer/src/app.tsx', 'react', false],
    ['main/app.ts', 'electron', false],
    ['main/host/electron-host.ts', 'electron', false],
    ['preload/index.ts', 'electron', false],
    ['main/gateway/app.ts', 'express', false],
    ['main/gateway/services.ts', '../../engines/caseassess/http.js', false],
  ])('%s may import %s', (from, spec, typeOnly) => {
    expect(layerViolation(from, spec, typeOnly)).toBeUndefined();
  });
});

describe('the lint run', () => {
  it('fails on a file that breaks a layer rule and passes a clean one', async () => {
    const eslint = new ESLint({ cwd: process.cwd() });
    const [bad] = await eslint.lintText("import { app } from 'electron';\nexport const x = app;\n", {
      filePath: 'engines/caseassess/index.ts',
    });
    expect(bad?.messages.some((m) => m.ruleId === 'local/layers' && m.severity === 2)).toBe(true);
    const [cross] = await eslint.lintText("export { x } from '../forensic/index.js';\n", { filePath: 'engines/petriage/index.ts' });
    expect(cross?.errorCount).toBeGreaterThan(0);
    const [good] = await eslint.lintText("import { sha256Hex } from '../core/canonical.js';\nexport const h = sha256Hex('a');\n", {
      filePath: 'engines/caseassess/index.ts',
    });
    expect(good?.errorCount).toBe(0);
  });
});
