// The shipped rule bundle's reader: node:zlib's inflate and Buffer's decoder give the text fflate gave.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { gunzipSync as fflateGunzipSync, gzipSync, strFromU8, strToU8 } from 'fflate';
import { describe, expect, it } from 'vitest';
import { BUNDLE_FILE, readBundle } from './bundle.js';
import { shippedRulesDir } from './index.js';

/** The text of a gzip member as fflate's JavaScript inflate and UTF-8 decoder read it (the reference for readBundle). */
const bundleTextByFflate = (bytes: Uint8Array): string => strFromU8(fflateGunzipSync(bytes));

describe('reading the rule bundle', () => {
  it('gives the documents the fflate reader gave, for the shipped bundle', () => {
    const bytes = readFileSync(path.join(shippedRulesDir(), BUNDLE_FILE));
    expect(gunzipSync(bytes).toString('utf8')).toBe(bundleTextByFflate(bytes));
    expect(readBundle(shippedRulesDir())).toEqual(JSON.parse(bundleTextByFflate(bytes)));
  });
  it('decodes texts outside ASCII as fflate does, in a bundle written as writeBundle writes it', () => {
    const text = JSON.stringify({ version: 1, files: [{ set: 'rules', rel: 'ü/€.yml', sha256: '0', docs: [{ title: 'İ \u212A 😀 \u0000' }] }] });
    const bytes = gzipSync(strToU8(text), { level: 9, mtime: 0 });
    expect(gunzipSync(bytes).toString('utf8')).toBe(bundleTextByFflate(bytes));
    expect(bundleTextByFflate(bytes)).toBe(text);
  });
});
