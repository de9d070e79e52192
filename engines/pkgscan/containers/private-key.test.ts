// The private-key reader finds what the rule's expression finds: the same matches, places and `secret` groups, on
// generated texts of BEGIN and END lines, key text and the characters that end it (the attack shapes that made the
// expression backtrack run in a child under a deadline: test/redos/rewritten-patterns.test.ts).
import { describe, expect, it } from 'vitest';
import { textsOfPieces } from '../../core/pieces.fixture.js';
import { PRIVATE_KEY, privateKeyMatches } from './private-key.js';
import { findSecrets } from './secrets.js';

const shape = (ms: Iterable<RegExpMatchArray>): string[] => [...ms].map((m) => `${m.index}:${m[0]}|${m.groups?.['secret']}`);

describe('privateKeyMatches', () => {
  const pieces = ['-----BEGIN PRIVATE KEY-----', '-----BEGIN RSA PRIVATE KEY-----', '----- BEGIN EC_X PRIVATE KEY BLOCK -----', '-----BEGIN', ' PRIVATE KEY', 'PRIVATE KEY-----', ' BLOCK', '-----END PRIVATE KEY', '-----END RSA PRIVATE KEY-----', '----- END X_Y PRIVATE KEY', '-----', '--', 'MIIEvQIBADANBgkqhkiG9w0BAQEFAASC', 'abc', '=', '/', '\n', ' ', '\t', '_', '.', '"', 'END'];

  it('finds the matches the expression finds', () => {
    let found = 0;
    for (const text of textsOfPieces(pieces, 40_000, 17, 16)) {
      const expected = shape(text.matchAll(PRIVATE_KEY));
      expect(shape(privateKeyMatches(text)), JSON.stringify(text)).toEqual(expected);
      found += expected.length;
    }
    expect(found).toBeGreaterThan(2_000);
  });

  it('reads the headers the expression tries in turn: a later PRIVATE KEY first, BLOCK before none', () => {
    const key = 'MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQ';
    for (const text of [
      `-----BEGIN PRIVATE KEY----- PRIVATE KEY-----${key}-----END PRIVATE KEY-----`,
      `-----BEGIN PRIVATE KEY-----PRIVATE KEY BLOCK-----\n${key}\n-----END PRIVATE KEY-----`,
      `-----BEGIN PRIVATE KEY BLOCK-----${key.slice(0, 19)}-----END PRIVATE KEY`,
      `-----BEGIN PRIVATE KEY-----${key}"-----END PRIVATE KEY-----\n-----BEGIN PRIVATE KEY-----\n${key}\n-----END PRIVATE KEY-----`,
    ])
      expect(shape(privateKeyMatches(text)), text).toEqual(shape(text.matchAll(PRIVATE_KEY)));
  });

  it('is what the secrets scan reports', () => {
    const text = `x\n-----BEGIN RSA PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQ\n-----END RSA PRIVATE KEY-----\n`;
    expect(findSecrets(text).map((h) => [h.rule.id, h.line])).toEqual([['private-key', 2]]);
  });
});
