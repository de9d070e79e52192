// Parsing pasted JSON and dropped CSV into flows, and the limits the scoring panel applies before sending.
import { describe, expect, it } from 'vitest';
import { flowsFromCsv, flowsFromJson, fmt, refuseScoring, splitCsvLine } from './model';

describe('flows model', () => {
  it('reads a CICIDS2017-style CSV: trimmed names, labels dropped, inf/NaN and blanks left out, bad lines counted', () => {
    const csv = '\uFEFF Flow Duration, Flow Bytes/s,proto,Label\r\n10,inf,tcp,BENIGN\r\n5,,udp,DoS\r\n1,2\r\n"x,1,tcp,BENIGN\r\n';
    const { flows, skipped } = flowsFromCsv(csv);
    expect(flows).toEqual([{ 'Flow Duration': 10, proto: 'tcp' }, { 'Flow Duration': 5, proto: 'udp' }]);
    expect(skipped).toBe(2);
    expect(() => flowsFromCsv('')).toThrow(/header/);
    expect(splitCsvLine('a,"b,""c""",d')).toEqual(['a', 'b,"c"', 'd']);
  });

  it('reads pasted JSON as an array or {flows}', () => {
    expect(flowsFromJson('[{"dur": 1}]')).toEqual([{ dur: 1 }]);
    expect(flowsFromJson('{"explain": true, "flows": [{"dur": 1, "x": null}]}')).toEqual([{ dur: 1 }]);
    expect(() => flowsFromJson('{')).toThrow(/not valid JSON/);
    expect(() => flowsFromJson('{"a": 1}')).toThrow(/flows/);
    expect(() => flowsFromJson('[1]')).toThrow(/Flow 1/);
  });

  it('refuses empty and oversized requests before sending', () => {
    expect(refuseScoring(0, false)).toMatch(/no flows/);
    expect(refuseScoring(1001, false)).toMatch(/1000/);
    expect(refuseScoring(51, true)).toMatch(/50/);
    expect(refuseScoring(51, false)).toBeNull();
    expect(fmt(null)).toBe('n/a');
  });
});
