// Trusted-keys helpers: short ids, safe private-key file names, the form's checks before anything is sent.
import { describe, expect, it } from 'vitest';
import type { TrustedKeyItem } from '../../../../engines/core/contracts/provgate';
import { keyFormProblem, orderKeys, privateKeyFileName, shortId, signingHint, sourceLabel, keyLabel } from './keys';

const hex = 'ab'.repeat(32);

describe('trusted keys helpers', () => {
  it('shortens hex digests and long ids, keeps short ids', () => {
    expect(shortId(hex)).toBe(`${hex.slice(0, 16)}…`);
    expect(shortId('ci')).toBe('ci');
    expect(shortId('x'.repeat(50))).toHaveLength(39);
  });

  it('names the private key file after a safe key id, else the fingerprint', () => {
    expect(privateKeyFileName({ keyid: 'analyst', fingerprint: hex })).toBe('analyst.key');
    expect(privateKeyFileName({ keyid: '../etc/passwd', fingerprint: hex })).toBe(`provgate-${hex.slice(0, 16)}.key`);
    expect(privateKeyFileName({ keyid: '.hidden', fingerprint: hex })).toBe(`provgate-${hex.slice(0, 16)}.key`);
    expect(signingHint({ keyid: 'analyst', fingerprint: hex })).toContain('GATE_SIGNING_KEY=analyst.key GATE_KEYID=analyst');
  });

  it('refuses empty text, private keys and bad key ids before sending', () => {
    expect(keyFormProblem('  ', '')).toMatch(/Paste/);
    expect(keyFormProblem('-----BEGIN PRIVATE KEY-----\nabc\n-----END PRIVATE KEY-----', '')).toMatch(/private key/);
    expect(keyFormProblem('x'.repeat(9000), '')).toMatch(/longer/);
    expect(keyFormProblem(hex, 'has space')).toMatch(/key id/);
    expect(keyFormProblem(hex, '')).toBeNull();
    expect(keyFormProblem(hex, 'ci')).toBeNull();
  });

  it('lists trusted keys before revoked ones and labels sources', () => {
    const k = (keyid: string, status: 'active' | 'revoked', source: TrustedKeyItem['source'] = 'store'): TrustedKeyItem => ({
      keyid,
      source,
      type: 'ed25519',
      publicKey: '',
      fingerprint: hex,
      label: null,
      origin: null,
      addedAt: null,
      status,
      revokedAt: null,
      revokeReason: null,
      revocable: status === 'active',
    });
    expect(orderKeys([k('a', 'revoked'), k('b', 'active'), k('c', 'active', 'env')]).map((x) => x.keyid)).toEqual(['b', 'c', 'a']);
    expect(sourceLabel(k('c', 'active', 'env'))).toBe('GATE_PUBKEY');
    expect(sourceLabel(k('c', 'active', 'demo'))).toBe('demo');
  });
});

describe('keyLabel', () => {
  it('names a key of the log by the label it was given, when it has one', () => {
    const items = [
      { keyid: 'a'.repeat(64), label: 'CI runner' },
      { keyid: 'analyst', label: null },
    ];
    expect(keyLabel('a'.repeat(64), items)).toBe('CI runner');
    expect(keyLabel('analyst', items)).toBeNull();
    expect(keyLabel('gone', items)).toBeNull();
  });
});
