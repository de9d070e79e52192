// The identity check of a scanned archive: the release the source listed must be the one the archive declares.
import { describe, expect, it } from 'vitest';
import { identityFindings } from './scan.js';

describe('identityFindings', () => {
  it('accepts the same release, PyPI versions equal under PEP 440 included', () => {
    expect(identityFindings({ ecosystem: 'npm', name: 'left-pad', version: '1.3.0' }, 'left-pad', '1.3.0')).toEqual([]);
    expect(identityFindings({ ecosystem: 'pypi', name: 'demo', version: '1.0' }, 'demo', '1.0.0')).toEqual([]);
    expect(identityFindings({ ecosystem: 'pypi', name: 'demo', version: '2.0rc1' }, 'demo', '2.0.0-rc1')).toEqual([]);
  });

  it('flags another name or version as a substitution (high)', () => {
    expect(identityFindings({ ecosystem: 'npm', name: 'left-pad', version: '1.3.0' }, 'left-pad', '1.3.1').map((f) => `${f.code}:${f.severity}`)).toEqual(['identity_mismatch:high']);
    expect(identityFindings({ ecosystem: 'npm', name: 'left-pad', version: '1.0' }, 'left-pad', '1.0.0')).toHaveLength(1);
    expect(identityFindings({ ecosystem: 'pypi', name: 'requests', version: '2.0' }, 'reqeusts', '2.0')).toHaveLength(1);
  });
});
