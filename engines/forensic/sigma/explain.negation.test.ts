// The fields a rule reports as matched (`explain`): only the selections that made the condition true, never the ones under `not`
// and never an OR branch that did not hold. Expected maps are written out by hand from the rule and the event.
import { describe, expect, it } from 'vitest';
import type { JsonRecord } from '../event.js';
import { sigmaRuleSetFromTexts, type SigmaInput } from './index.js';

const SYSMON = 'Microsoft-Windows-Sysmon/Operational';

function ruleSet(detection: string): ReturnType<typeof sigmaRuleSetFromTexts> {
  const text = `title: Explain rule\nid: 00000000-0000-4000-8000-0000000000ab\nstatus: test\nlevel: high\nlogsource:\n    product: windows\n    category: process_creation\ndetection:\n${detection}`;
  const set = sigmaRuleSetFromTexts([{ source: 't/e.yml', text }]);
  expect(set.skipped).toEqual([]);
  expect(set.rules).toHaveLength(1);
  return set;
}

const sysmon = (data: JsonRecord): SigmaInput => ({ kind: 'evtx', host: 'WS01', action: 'process.create', attributes: { eventId: 1, channel: SYSMON, provider: 'Microsoft-Windows-Sysmon', data } });

describe('explain leaves out negated and failed selections', () => {
  const notFilter = ruleSet(
    "    selection:\n        Image|endswith: '\\whoami.exe'\n    filter:\n        User: 'SYSTEM'\n    condition: selection and not filter\n",
  );

  it('selection and not filter: the filter field (present, not matching) is not reported', () => {
    const e = sysmon({ Image: 'C:\\Windows\\System32\\whoami.exe', User: 'alice' });
    expect(notFilter.match(e)).toEqual([0]);
    expect(notFilter.explain(e, 0)).toEqual({ Image: 'C:\\Windows\\System32\\whoami.exe' });
  });

  it('the rule does not match when the filter holds, and explain is then empty', () => {
    const e = sysmon({ Image: 'C:\\Windows\\System32\\whoami.exe', User: 'SYSTEM' });
    expect(notFilter.match(e)).toEqual([]);
    expect(notFilter.explain(e, 0)).toEqual({});
  });

  it('an OR branch that failed is not reported; 1 of reports only the selections that held', () => {
    const either = ruleSet(
      "    sel_a:\n        Image|endswith: '\\whoami.exe'\n    sel_b:\n        CommandLine|contains: ' /priv'\n    condition: 1 of sel_*\n",
    );
    const e = sysmon({ Image: 'C:\\Windows\\System32\\whoami.exe', CommandLine: 'whoami /all' });
    expect(either.match(e)).toEqual([0]);
    expect(either.explain(e, 0)).toEqual({ Image: 'C:\\Windows\\System32\\whoami.exe' });
    const orRule = ruleSet("    sel_a:\n        Image|endswith: '\\whoami.exe'\n    sel_b:\n        CommandLine|contains: ' /priv'\n    condition: sel_a or sel_b\n");
    expect(orRule.explain(e, 0)).toEqual({ Image: 'C:\\Windows\\System32\\whoami.exe' });
  });

  it('not (a or b) nested under and: neither negated selection is reported', () => {
    const set = ruleSet(
      "    selection:\n        Image|endswith: '\\net.exe'\n    f1:\n        User: 'SYSTEM'\n    f2:\n        ParentImage|endswith: '\\services.exe'\n    condition: selection and not (f1 or f2)\n",
    );
    const e = sysmon({ Image: 'C:\\Windows\\System32\\net.exe', User: 'bob', ParentImage: 'C:\\Windows\\explorer.exe' });
    expect(set.match(e)).toEqual([0]);
    expect(set.explain(e, 0)).toEqual({ Image: 'C:\\Windows\\System32\\net.exe' });
  });
});
