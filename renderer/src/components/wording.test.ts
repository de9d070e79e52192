import { describe, expect, it } from 'vitest';
import { agreeing, counted, displayProse } from './wording';

describe('displayProse', () => {
  it('makes a counted "(s)" agree with its count, across up to four words', () => {
    expect(displayProse('From explorer.exe: 45 causal link(s) over 41 node(s) and 1 event(s); execution → impact.')).toBe('From explorer.exe: 45 causal links over 41 nodes and 1 event; execution → impact.');
    expect(displayProse('1 section(s) with no data in the file')).toBe('1 section with no data in the file');
    expect(displayProse('2 URL(s)')).toBe('2 URLs');
    expect(displayProse('3 technique id(s) not in the knowledge base were ignored')).toBe('3 technique ids not in the knowledge base were ignored');
    expect(displayProse('1,204 locked package(s) resolve')).toBe('1,204 locked packages resolve');
    expect(displayProse('0 kind(s)')).toBe('0 kinds');
  });

  it('makes a plural verb after the counted word agree with the count too', () => {
    expect(displayProse('1 base feature(s) missing from some flows were read as 0')).toBe('1 base feature missing from some flows was read as 0');
    expect(displayProse('4 base feature(s) missing from some flows were read as 0')).toBe('4 base features missing from some flows were read as 0');
    expect(displayProse('1 technique id(s) not in the knowledge base were ignored')).toBe('1 technique id not in the knowledge base was ignored');
    expect(displayProse('1 rule(s) are disabled; 1 file(s) have no owner')).toBe('1 rule is disabled; 1 file has no owner');
    // Not across punctuation, a conjunction or another count: the verb may belong to something else.
    expect(displayProse('1 file(s), 3 packages were read')).toBe('1 file, 3 packages were read');
    expect(displayProse('1 file(s) and 2 links were read')).toBe('1 file and 2 links were read');
    expect(displayProse('1 empty or non-finite base value(s) read as 0')).toBe('1 empty or non-finite base value read as 0');
  });

  it('leaves a "(s)" without a count near it, and text without either, as it is', () => {
    expect(displayProse('the file(s) named')).toBe('the file(s) named');
    expect(displayProse('plain text, 3 items')).toBe('plain text, 3 items');
  });

  it('writes a chain with the app\'s arrow, and leaves arrows without spaces alone', () => {
    expect(displayProse('10.0.0.5: Port scan -> SSH brute force -> Exfiltration')).toBe('10.0.0.5: Port scan → SSH brute force → Exfiltration');
    expect(displayProse('stages recon -> access in causal order')).toBe('stages recon → access in causal order');
    expect(displayProse('$a->b')).toBe('$a->b');
  });
});

describe('agreeing and counted', () => {
  it('give the singular for one and the plural for any other count', () => {
    expect(agreeing(1, 'hour')).toBe('hour');
    expect(agreeing(0, 'hour')).toBe('hours');
    expect(agreeing(2, 'day')).toBe('days');
    expect(agreeing(3, 'hypothesis', 'hypotheses')).toBe('hypotheses');
    expect(counted(1, 'edge')).toBe('1 edge');
    expect(counted(1204, 'node')).toBe('1,204 nodes');
  });
});
