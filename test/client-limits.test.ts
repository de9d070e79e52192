// Limits the renderer checks before it sends a file are the services' own: a file the client lets through is never
// refused by the service for its size, and one the service would take is never refused by the client. The renderer is
// built under its own configuration (bundler resolution), so its constant is read from its source text here.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MAX_BODY_BYTES } from '../engines/attrib/index.js';

function rendererConstant(file: string, name: string): number {
  const text = readFileSync(new URL(`../renderer/src/${file}`, import.meta.url), 'utf8');
  const m = new RegExp(`export const ${name} = ([0-9_]+);`).exec(text);
  if (m === null) throw new Error(`${name} is not a plain number in ${file}`);
  return Number(m[1]!.replace(/_/g, ''));
}

describe('client-side limits', () => {
  it('the ACH scenario file limit is the attribution service body limit', () => {
    expect(rendererConstant('workspaces/ach/model.ts', 'MAX_SCENARIO_BYTES')).toBe(MAX_BODY_BYTES);
  });
});
