import { describe, expect, it } from 'vitest';
import { displayProse } from './wording';

describe('displayProse', () => {
  it('makes a counted "(s)" agree with its count, across up to three words', () => {
    expect(displayProse('From explorer.exe: 45 causal link(s) over 41 node(s) and 1 event(s); execution → impact.')).toBe('From explorer.exe: 45 causal links over 41 nodes and 1 event; execution → impact.');
    expect(displayProse('1 section(s) with no data in the file')).toBe('1 section with no data in the file');
    expect(displayProse('2 URL(s)')).toBe('2 URLs');
    expect(displayProse('3 technique id(s) not in the knowledge base were ignored')).toBe('3 technique ids not in the knowledge base were ignored');
    expect(displayProse('1,204 locked package(s) resolve')).toBe('1,204 locked packages resolve');
    expect(displayProse('0 kind(s)')).toBe('0 kinds');
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
