// Where `pkgscan train-model` writes by default: the folder the servers read a retrained model from.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultModelOutput } from './train.js';

describe('train-model default output', () => {
  it('is the shared store folder when set (every server of a team reads it), else the data folder, else none', () => {
    expect(defaultModelOutput({ PKGSCAN_STORE_DIR: '/srv/pkgscan', VITRINE_HOME: '/home/a/.vitrine' })).toBe(path.join('/srv/pkgscan', 'pkgscan', 'model.json'));
    expect(defaultModelOutput({ VITRINE_HOME: '/home/a/.vitrine' })).toBe(path.join('/home/a/.vitrine', 'pkgscan', 'model.json'));
    expect(defaultModelOutput({ VITRINE_HOME: '' })).toBeUndefined();
    expect(defaultModelOutput({})).toBeUndefined();
    expect(() => defaultModelOutput({ PKGSCAN_STORE_DIR: 'relative/dir' })).toThrow(/absolute/);
  });
});
