// Names from a package, a registry answer or a tool's output that are Object.prototype members (`__proto__`,
// `constructor`, `toString`) are kept as own keys with their values: never dropped, never read back as a function.
import { describe, expect, it } from 'vitest';
import { parseImageConfig } from '../core/oci/image.js';
import { parsePackageJson, parsePkgInfo } from './package/metadata.js';
import { npmRegistryInfo, pypiRegistryInfo, type Packument, type PypiJsonDoc } from './sources/registry.js';
import { parseYaraOutput } from './tools/yara.js';

const own = (o: object | undefined, k: string): unknown => (o === undefined ? undefined : Object.getOwnPropertyDescriptor(o, k)?.value);

describe('package metadata', () => {
  it('package.json scripts and dependencies named __proto__ or constructor keep their values', () => {
    const m = parsePackageJson('{"name":"p","version":"1.0.0","scripts":{"__proto__":"node x.js","constructor":"c"},"dependencies":{"__proto__":"1.0.0","toString":"2.0.0"},"optionalDependencies":{"constructor":"3.0.0"}}');
    expect([own(m?.scripts, '__proto__'), own(m?.scripts, 'constructor')]).toEqual(['node x.js', 'c']);
    expect([own(m?.dependencies, '__proto__'), own(m?.dependencies, 'toString'), own(m?.dependencies, 'constructor')]).toEqual(['1.0.0', '2.0.0', '3.0.0']);
    expect(Object.getPrototypeOf(m?.dependencies)).toBe(Object.prototype);
  });

  it('a requirement on a project named constructor is its own entry, not appended to a function', () => {
    const m = parsePkgInfo('Metadata-Version: 2.1\nName: p\nVersion: 1.0\nRequires-Dist: constructor>=1\nRequires-Dist: toString\nRequires-Dist: constructor<3\n');
    expect(m.dependencies).toStrictEqual({ constructor: '>=1 || <3', tostring: '' });
  });
});

describe('registry answers', () => {
  it('npm: publication times only of listed versions, own names included', () => {
    const packument = JSON.parse(
      '{"name":"p","versions":{"1.0.0":{"name":"p","version":"1.0.0"},"__proto__":{"name":"p","version":"__proto__"}},"time":{"1.0.0":"2020-01-01T00:00:00Z","__proto__":"2020-01-02T00:00:00Z","constructor":"2020-01-03T00:00:00Z","toString":"2020-01-04T00:00:00Z"}}',
    ) as Packument;
    const info = npmRegistryInfo({ name: 'p', version: '1.0.0' } as Parameters<typeof npmRegistryInfo>[0], packument);
    expect(Object.keys(info.published ?? {}).sort()).toEqual(['1.0.0', '__proto__']);
    expect(own(info.published, '__proto__')).toBe('2020-01-02T00:00:00Z');
  });

  it('PyPI: a release named __proto__ keeps its time, and the asked version named constructor gets its own', () => {
    const doc = JSON.parse('{"info":{"name":"p"},"releases":{"__proto__":[{"upload_time_iso_8601":"2020-01-02T00:00:00Z"}]},"urls":[{"upload_time_iso_8601":"2020-01-05T00:00:00Z"}]}') as PypiJsonDoc;
    const info = pypiRegistryInfo(doc, 'constructor');
    expect(own(info.published, '__proto__')).toBe('2020-01-02T00:00:00Z');
    expect(own(info.published, 'constructor')).toBe('2020-01-05T00:00:00Z');
  });
});

describe('tool output and image configuration', () => {
  it('yara meta named __proto__ is kept as an own meta value', () => {
    const [m] = parseYaraOutput('r [__proto__="p",constructor="c",code="x"] /tmp/w/0/a.js\n');
    expect([own(m?.meta, '__proto__'), own(m?.meta, 'constructor'), m?.meta['code']]).toEqual(['p', 'c', 'x']);
  });

  it('an image label named __proto__ is kept', () => {
    const config = parseImageConfig(new TextEncoder().encode('{"config":{"Labels":{"__proto__":"p","constructor":"c"}}}'));
    expect([own(config?.labels, '__proto__'), own(config?.labels, 'constructor')]).toEqual(['p', 'c']);
  });
});
