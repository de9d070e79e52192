// The alert and flow browsers' pure pieces: filters checked before sending, times, sizes, sort clicks, chart scales.
import { describe, expect, it } from 'vitest';
import { alertQuery, bytes, compactCount, countTicks, flowQuery, NO_ALERT_FILTERS, NO_FLOW_FILTERS, nextSort, niceMax, pageLabel, parseUtc, sharedDay, utcField, widthLabel } from './browse';

describe('filters to query parameters', () => {
  it('sends only what is set, and checks hosts, ports, protocols and times here', () => {
    expect(alertQuery(NO_ALERT_FILTERS, 'time', 'asc', 0)).toEqual({ ok: true, query: { sort: 'time', order: 'asc', limit: 100, offset: 0 } });
    const a = alertQuery({ ...NO_ALERT_FILTERS, rule: 'port_scan', severities: ['high', 'critical'], host: ' 10.0.0.5 ', inStory: 'none', from: '2024-01-02 03:04:05' }, 'severity', 'desc', 100);
    expect(a).toEqual({ ok: true, query: { sort: 'severity', order: 'desc', limit: 100, offset: 100, rule: 'port_scan', severity: 'high,critical', in_story: 'none', host: '10.0.0.5', from: 1704164645 } });
    expect(alertQuery({ ...NO_ALERT_FILTERS, host: 'evil.example' }, 'time', 'asc', 0)).toMatchObject({ ok: false });
    expect(flowQuery({ ...NO_FLOW_FILTERS, port: '443', protocol: 'TCP/445', host: '2001:DB8::1' }, 'bytes', 'desc', 0)).toEqual({
      ok: true,
      query: { sort: 'bytes', order: 'desc', limit: 100, offset: 0, port: 443, protocol: 'tcp/445', host: '2001:DB8::1' },
    });
    expect(flowQuery({ ...NO_FLOW_FILTERS, port: '70000' }, 'time', 'asc', 0)).toMatchObject({ ok: false, message: expect.stringMatching(/0 to 65535/) as unknown });
    expect(flowQuery({ ...NO_FLOW_FILTERS, protocol: '<b>' }, 'time', 'asc', 0)).toMatchObject({ ok: false });
    expect(flowQuery({ ...NO_FLOW_FILTERS, from: 'yesterday' }, 'time', 'asc', 0)).toMatchObject({ ok: false });
    expect(flowQuery({ ...NO_FLOW_FILTERS, from: '2024-01-02', to: '2024-01-01' }, 'time', 'asc', 0)).toMatchObject({ ok: false, message: expect.stringMatching(/before its start/) as unknown });
  });

  it('reads UTC times with or without seconds, fraction and the UTC suffix, and writes them back', () => {
    expect(parseUtc('')).toBeUndefined();
    expect(parseUtc('2024-01-02')).toBe(1704153600);
    expect(parseUtc('2024-01-02 03:04')).toBe(1704164640);
    expect(parseUtc('2024-01-02T03:04:05.5 UTC')).toBe(1704164645.5);
    expect(parseUtc('02/01/2024')).toBeNull();
    expect(utcField(1704164645.5)).toBe('2024-01-02 03:04:05.500');
    expect(parseUtc(utcField(1704164645.5))).toBe(1704164645.5);
  });
});

describe('display', () => {
  it('counts and days compact enough for the flows table', () => {
    expect(compactCount(20)).toBe('20');
    expect(compactCount(9_999)).toBe('9,999');
    expect(compactCount(12_345)).toBe('12.3k');
    expect(compactCount(123_456)).toBe('123k');
    expect(compactCount(4_500_000)).toBe('4.5M');
    expect(compactCount(1_200_000_000)).toBe('1.2G');
    // 2014-01-14 17:37:24.820 and 23:59:59 UTC share a day; a start past midnight does not.
    expect(sharedDay([1389721044.82, 1389743999])).toBe('2014-01-14');
    expect(sharedDay([1389721044.82, 1389744000])).toBeNull();
    expect(sharedDay([])).toBeNull();
  });
  it('sizes, pages, sort clicks, axis tops and bucket widths', () => {
    expect(bytes(512)).toBe('512 B');
    expect(bytes(1536)).toBe('1.5 KiB');
    expect(bytes(24 * 1024 * 1024)).toBe('24 MiB');
    expect(pageLabel(100, 100, 2345)).toBe('101–200 of 2,345');
    expect(pageLabel(0, 0, 0)).toBe('0 of 0');
    expect(nextSort({ sort: 'time', order: 'asc' }, 'time')).toEqual({ sort: 'time', order: 'desc' });
    expect(nextSort({ sort: 'time', order: 'asc' }, 'bytes', 'desc')).toEqual({ sort: 'bytes', order: 'desc' });
    expect(niceMax(0)).toBe(1);
    expect(niceMax(18)).toBe(20);
    expect(niceMax(2100)).toBe(2500);
    // The axis of counts has no half flow: a top of 1 or 5 keeps only whole ticks.
    expect(countTicks(1)).toEqual([0, 1]);
    expect(countTicks(5)).toEqual([0, 5]);
    expect(countTicks(20)).toEqual([0, 10, 20]);
    expect(countTicks(2500)).toEqual([0, 1250, 2500]);
    expect(widthLabel(0.1)).toBe('100 ms');
    expect(widthLabel(5)).toBe('5 s');
    expect(widthLabel(120)).toBe('2 min');
  });
});
