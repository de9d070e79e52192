// Parsing pasted JSON and dropped CSV into flows, and the limits the scoring panel applies before sending.
import { describe, expect, it } from 'vitest';
import { flowsFromCsv, flowsFromJson, FLOWS_PLACEHOLDER, fmt, fmtValue, refuseScoring, splitCsvLine } from './model';

/** The app's page in docs/, read as text (the Flows section shows the Score box's example). */
const UI_DOC = import.meta.glob<string>('../../../../docs/ui.md', { query: '?raw', import: 'default', eager: true });

describe('flows model', () => {
  it('reads a CICIDS2017-style CSV: trimmed names, labels dropped, inf/NaN and blanks left out, bad lines counted', () => {
    const csv = '\uFEFF Flow Duration, Flow Bytes/s,proto,Label\r\n10,inf,tcp,BENIGN\r\n5,,udp,DoS\r\n1,2\r\n"x,1,tcp,BENIGN\r\n';
    const { flows, skipped } = flowsFromCsv(csv);
    expect(flows).toEqual([{ 'Flow Duration': 10, proto: 'tcp' }, { 'Flow Duration': 5, proto: 'udp' }]);
    expect(skipped).toBe(2);
    expect(() => flowsFromCsv('')).toThrow(/header/);
    expect(splitCsvLine('a,"b,""c""",d')).toEqual(['a', 'b,"c"', 'd']);
  });

  it('keeps features named after Object.prototype members, from CSV columns and JSON members', () => {
    const fromCsv = flowsFromCsv('__proto__,constructor,dur\n1,2,3\n').flows[0];
    const fromJson = flowsFromJson('[{"__proto__": 1, "constructor": 2, "dur": 3}]')[0];
    for (const flow of [fromCsv, fromJson]) {
      expect(Object.getPrototypeOf(flow)).toBe(Object.prototype);
      expect(flow).toStrictEqual(JSON.parse('{"__proto__": 1, "constructor": 2, "dur": 3}'));
      expect(JSON.stringify(flow)).toBe('{"__proto__":1,"constructor":2,"dur":3}');
    }
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

describe('fmtValue', () => {
  it('groups digits and never writes exponents', () => {
    expect(fmtValue(219000.5)).toBe('219,001');
    expect(fmtValue(22460.3)).toBe('22,460');
    expect(fmtValue(3266.4)).toBe('3,266');
    expect(fmtValue(28960)).toBe('28,960');
    expect(fmtValue(900.7)).toBe('900.7');
    expect(fmtValue(1.8769508557957426)).toBe('1.877');
    expect(fmtValue(1e-7)).toBe('0.0000001');
    expect(fmtValue(0)).toBe('0');
  });

  it('leaves ports as they are written', () => {
    expect(fmtValue(8080, 'Destination Port')).toBe('8080');
    expect(fmtValue(8080, 'Flow Duration')).toBe('8,080');
  });

  it('docs/ui.md shows the Score box example as the box does, in the Flows section', () => {
    const ui = Object.values(UI_DOC)[0] ?? '';
    const section = ui.slice(ui.indexOf('\n## The Flows workspace\n'));
    expect(section.startsWith('\n## The Flows workspace\n')).toBe(true);
    const body = section.slice(1, section.indexOf('\n## ', 1));
    expect(body).toContain('FLOWS_PLACEHOLDER');
    expect(body).toContain(`\`\`\`json\n${FLOWS_PLACEHOLDER}\n\`\`\``);
  });

  it('gives the Score box an example that is itself input it reads: flows of base feature names to numbers', () => {
    const flows = flowsFromJson(FLOWS_PLACEHOLDER);
    expect(flows).toHaveLength(2);
    for (const f of flows) {
      expect(Object.keys(f)).toEqual(['Destination Port', 'Flow Duration', 'Total Fwd Packets']);
      expect(Object.values(f).every((v) => typeof v === 'number')).toBe(true);
    }
  });
});
