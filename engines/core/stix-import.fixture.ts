// A small STIX 2.1 bundle for the import tests of ACH and Assessment: eight objects, among them an indicator with three
// comparisons (two plain values, one MATCHES), an observable the indicator already gives, and a `uses` link to an object
// that is not in the bundle. Each object must be counted once in the import summary.
const T = '2024-03-01T10:00:00.000Z';
const base = { spec_version: '2.1', created: T, modified: T } as const;

export const EIGHT_OBJECT_BUNDLE = {
  type: 'bundle',
  id: 'bundle--7f1c3a52-5b0e-4a8e-9d3f-0c6a2b1e8d41',
  objects: [
    { ...base, type: 'intrusion-set', id: 'intrusion-set--0b7c5b6e-3c1d-4f2a-8e9b-1a2b3c4d5e6f', name: 'Actor X' },
    { ...base, type: 'malware', id: 'malware--1c8d6c7f-4d2e-4a3b-9fac-2b3c4d5e6f70', name: 'BadRat', is_family: true },
    { ...base, type: 'relationship', id: 'relationship--2d9e7d80-5e3f-4b4c-8abd-3c4d5e6f7081', relationship_type: 'uses', source_ref: 'intrusion-set--0b7c5b6e-3c1d-4f2a-8e9b-1a2b3c4d5e6f', target_ref: 'malware--1c8d6c7f-4d2e-4a3b-9fac-2b3c4d5e6f70' },
    { ...base, type: 'relationship', id: 'relationship--3eaf8e91-6f40-4c5d-9bce-4d5e6f708192', relationship_type: 'uses', source_ref: 'intrusion-set--0b7c5b6e-3c1d-4f2a-8e9b-1a2b3c4d5e6f', target_ref: 'attack-pattern--9f0e1d2c-3b4a-4596-8877-665544332211' },
    {
      ...base,
      type: 'indicator',
      id: 'indicator--4fb09fa2-7051-4d6e-8cdf-5e6f708192a3',
      name: 'BadRat C2',
      pattern: "[ipv4-addr:value = '10.0.0.9'] OR [domain-name:value = 'c2.bad.example'] OR [url:value MATCHES '^http://c2']",
      pattern_type: 'stix',
      valid_from: T,
    },
    { ...base, type: 'relationship', id: 'relationship--50c1a0b3-8162-4e7f-9de0-6f708192a3b4', relationship_type: 'indicates', source_ref: 'indicator--4fb09fa2-7051-4d6e-8cdf-5e6f708192a3', target_ref: 'malware--1c8d6c7f-4d2e-4a3b-9fac-2b3c4d5e6f70' },
    { ...base, type: 'attack-pattern', id: 'attack-pattern--61d2b1c4-9273-4f80-8ef1-708192a3b4c5', name: 'PowerShell', external_references: [{ source_name: 'mitre-attack', external_id: 'T1059.001' }] },
    { type: 'ipv4-addr', spec_version: '2.1', id: 'ipv4-addr--72e3c2d5-a384-5091-9f02-8192a3b4c5d6', value: '10.0.0.9' },
  ],
} as const;

/**
 * Bundle texts whose shape an import refuses before walking it: nesting 100,000 deep, a number past the double range (JSON
 * reads 1e400 as Infinity), an object of 20,000 members; each in a custom property of a valid object beside
 * the string `secret-text`, so a test can check the answer never echoes the input.
 */
export function hostileBundleTexts(): [string, string][] {
  const valid = JSON.stringify(EIGHT_OBJECT_BUNDLE.objects[6]).slice(0, -1);
  const wrap = (extra: string): string => `{"type":"bundle","id":"${EIGHT_OBJECT_BUNDLE.id}","objects":[${valid},"x_data":${extra}}]}`;
  return [
    ['nesting 100,000 deep', wrap(`${'['.repeat(100_000)}"secret-text"${']'.repeat(100_000)}`)],
    ['a number past the double range', wrap('["secret-text",1e400]')],
    ['an object of 20,000 members', wrap(`{${Array.from({ length: 20_000 }, (_, i) => `"k${20_000 - i}":"secret-text"`).join(',')}}`)],
  ];
}
