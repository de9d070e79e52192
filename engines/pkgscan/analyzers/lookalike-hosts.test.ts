import { describe, expect, it } from 'vitest';
import { imitatedCodeHost, lookalikeHostsIn } from './lookalike-hosts.js';

describe('host names dressed as a code host or a registry', () => {
  it('reads the registrable name and a real domain written at the start of a longer one', () => {
    expect(imitatedCodeHost('github-release-assets.com')).toBe('github.com');
    expect(imitatedCodeHost('objects.githubusercontent-cdn.com')).toBe('githubusercontent.com');
    expect(imitatedCodeHost('github.com-releases.net')).toBe('github.com');
    expect(imitatedCodeHost('pypi.org.files-cache.io')).toBe('pypi.org');
    expect(imitatedCodeHost('files-pythonhosted.org')).toBe('pythonhosted.org');
    expect(imitatedCodeHost('registry-npmjs.co.uk')).toBe('npmjs.com');
  });

  it("leaves the services' own names, an organisation's mirror under its own domain, and unrelated names", () => {
    for (const h of ['github.com', 'codeload.github.com', 'objects.githubusercontent.com', 'registry.npmjs.org', 'files.pythonhosted.org', 'pypi.org', 'octo.github.io', 'github.corp.example', 'pypi-mirror.lab.example', 'pypi.tuna.tsinghua.edu.cn', 'registry.npmmirror.com', 'github-production-release-asset-2e65be.s3.amazonaws.com', 'example.org', 'localhost', '']) {
      expect(imitatedCodeHost(h), h).toBeNull();
    }
  });

  it('finds the URLs of a text whose hosts imitate one, bounded', () => {
    expect(lookalikeHostsIn("fetch('https://github-release-assets.com/x'); get('https://github.com/x')")).toEqual([{ offset: 7, host: 'github-release-assets.com', imitates: 'github.com' }]);
    expect(lookalikeHostsIn('https://githubx.com/ '.repeat(100))).toHaveLength(20);
  });
});
