// Unit tests of the Triage workspace's pure helpers: refusal before upload, rule error lines, import rows, filters, driver labels.
import { describe, expect, it } from 'vitest';
import type { TriageResult } from '../../../../engines/core/contracts/petriage';
import { ApiError } from '../../api/client';
import { driverLabel, driverScale, formatBytes, importRows, matches, MAX_UPLOAD_BYTES, refuseBeforeUpload, ruleProblems, sectionAccess, sectionContent, exportRuleBlocker } from './model';

describe('refuseBeforeUpload', () => {
  it('refuses an empty file and one over 32 MB (32,000,000 bytes), and lets the limit itself through', () => {
    expect(MAX_UPLOAD_BYTES).toBe(32_000_000);
    expect(refuseBeforeUpload(0)).toMatch(/empty/);
    expect(refuseBeforeUpload(MAX_UPLOAD_BYTES + 1)).toMatch(/at most 32 MB \(32,000,000 bytes\)/);
    expect(refuseBeforeUpload(MAX_UPLOAD_BYTES)).toBeNull();
    expect(refuseBeforeUpload(1)).toBeNull();
  });
});

describe('formatBytes', () => {
  it('picks the unit', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(2048)).toBe('2.0 KiB');
    expect(formatBytes(40 * 1024 * 1024)).toBe('40.0 MiB');
  });
});

describe('ruleProblems', () => {
  it('reads the line numbers the rule parser puts in the details', () => {
    const e = new ApiError(422, 'validation_failed', 'rule text line 3: expected a string', 'r1', [{ path: 'line 3', issue: 'expected a string' }]);
    expect(ruleProblems(e)).toEqual([{ line: 3, issue: 'expected a string' }]);
  });
  it('keeps other details and falls back to the message', () => {
    expect(ruleProblems(new ApiError(422, 'validation_failed', 'bad', 'r', [{ path: 'text', issue: 'too short' }]))).toEqual([{ line: null, issue: 'text: too short' }]);
    expect(ruleProblems(new ApiError(413, 'payload_too_large', 'the rule text is too long'))).toEqual([{ line: null, issue: 'the rule text is too long' }]);
  });
});

describe('matches', () => {
  it('needs every word somewhere, ignoring case', () => {
    expect(matches('', 'x')).toBe(true);
    expect(matches('kernel32 createfile', 'KERNEL32.dll', 'CreateFileW')).toBe(true);
    expect(matches('kernel32 regopen', 'KERNEL32.dll', 'CreateFileW')).toBe(false);
    expect(matches('x', null, undefined)).toBe(false);
  });
});

describe('importRows and drivers', () => {
  const result = {
    pe: {
      imports: [{ dll: 'KERNEL32.dll', symbols: [{ name: 'ExitProcess', ordinal: null, ordinal_name: null }] }],
      delay_imports: [{ dll: 'ws2_32.dll', symbols: [{ name: null, ordinal: 115, ordinal_name: 'WSAStartup' }, { name: null, ordinal: 9, ordinal_name: null }] }],
    },
  } as unknown as TriageResult;

  it('flattens imports and delay imports, naming ordinals', () => {
    expect(importRows(result)).toEqual([
      { dll: 'KERNEL32.dll', name: 'ExitProcess', ordinal: null, delay: false },
      { dll: 'ws2_32.dll', name: 'WSAStartup', ordinal: 115, delay: true },
      { dll: 'ws2_32.dll', name: 'ordinal 9', ordinal: 9, delay: true },
    ]);
  });

  it('labels a hashed driver with its tokens once, and scales by the largest magnitude', () => {
    expect(driverLabel({ feature: 'imports.function#41 [advapi32.dll:CryptEncrypt]', group: 'imports', value: 1, contribution: 0.5, tokens: ['advapi32.dll:CryptEncrypt'] })).toBe(
      'imports.function#41 [advapi32.dll:CryptEncrypt]',
    );
    expect(driverLabel({ feature: 'exports.hash#3', group: 'exports', value: 1, contribution: 0.1, tokens: ['a', 'b', 'c', 'd'] })).toBe('exports.hash#3 [a, b, c, …]');
    expect(driverScale([{ feature: 'a', group: 'g', value: 0, contribution: -2 }, { feature: 'b', group: 'g', value: 0, contribution: 1 }])).toBe(2);
  });
});

describe('section flags', () => {
  it('reads permissions and content from the flag names', () => {
    expect(sectionAccess(['CNT_CODE', 'MEM_EXECUTE', 'MEM_READ'])).toBe('r-x');
    expect(sectionAccess(['CNT_INITIALIZED_DATA', 'MEM_READ', 'MEM_WRITE'])).toBe('rw-');
    expect(sectionAccess([])).toBe('---');
    expect(sectionContent(['CNT_CODE', 'MEM_EXECUTE'])).toBe('code');
    expect(sectionContent(['CNT_UNINITIALIZED_DATA', 'MEM_DISCARDABLE'])).toBe('bss, discardable');
  });
});

describe('export rule button', () => {
  it('says why it cannot export: no file triaged, or no rule synthesised and none written', () => {
    expect(exportRuleBlocker(false, '')).toMatch(/^Triage a file first/);
    expect(exportRuleBlocker(true, '  \n')).toBe('No rule to export: none was synthesised for this file and the Rule tab is empty; write one there.');
    expect(exportRuleBlocker(true, 'rule r { condition: true }')).toBeNull();
  });
});
