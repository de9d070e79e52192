// Tests of the Monitoring tab's pure helpers: interval limits and units, wording of results, states and due times.
import { describe, expect, it } from 'vitest';
import { dueText, intervalSeconds, intervalText, resultText, resultTone, splitInterval, stateText } from './model';

describe('intervalSeconds', () => {
  it('converts whole numbers of a unit', () => {
    expect(intervalSeconds('5', 'minutes')).toEqual({ seconds: 300 });
    expect(intervalSeconds(' 2 ', 'hours')).toEqual({ seconds: 7200 });
    expect(intervalSeconds('7', 'days')).toEqual({ seconds: 604_800 });
  });
  it('refuses values outside 5 minutes..7 days and non-whole numbers', () => {
    expect(intervalSeconds('4', 'minutes')).toHaveProperty('error');
    expect(intervalSeconds('8', 'days')).toHaveProperty('error');
    expect(intervalSeconds('169', 'hours')).toHaveProperty('error');
    expect(intervalSeconds('1.5', 'hours')).toHaveProperty('error');
    expect(intervalSeconds('', 'hours')).toHaveProperty('error');
    expect(intervalSeconds('-5', 'minutes')).toHaveProperty('error');
  });
});

describe('splitInterval and intervalText', () => {
  it('picks the largest exact unit', () => {
    expect(splitInterval(300)).toEqual({ value: '5', unit: 'minutes' });
    expect(splitInterval(3600)).toEqual({ value: '1', unit: 'hours' });
    expect(splitInterval(5400)).toEqual({ value: '90', unit: 'minutes' });
    expect(splitInterval(604_800)).toEqual({ value: '7', unit: 'days' });
  });
  it('reads as words', () => {
    expect(intervalText(300)).toBe('every 5 min');
    expect(intervalText(3600)).toBe('every 1 h');
    expect(intervalText(5400)).toBe('every 1 h 30 min');
    expect(intervalText(86_400)).toBe('every 1 day');
    expect(intervalText(604_800)).toBe('every 7 days');
    expect(intervalText(0)).toBe('');
  });
});

describe('results, states and due times', () => {
  it('words results and tones', () => {
    expect(resultText(null)).toBe('not checked yet');
    expect(resultText('new_release')).toBe('new release');
    expect(resultTone('error')).toBe('danger');
    expect(resultTone('new_release')).toBe('warn');
    expect(resultTone('unchanged')).toBe('ok');
    expect(resultTone(null)).toBe('none');
  });
  it('says the state', () => {
    expect(stateText({ enabled: false, failing: true, consecutive_failures: 3 })).toBe('disabled');
    expect(stateText({ enabled: true, failing: true, consecutive_failures: 3 })).toBe('failing (3 in a row)');
    expect(stateText({ enabled: true, failing: false, consecutive_failures: 0 })).toBe('watching');
  });
  it('says when the next check is', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(dueText('2025-12-31T23:00:00Z', now)).toBe('due now');
    expect(dueText('2026-01-01T00:10:00Z', now)).toBe('in 10 min');
    expect(dueText('2026-01-01T05:00:00Z', now)).toBe('in 5 h');
    expect(dueText('2026-01-05T00:00:00Z', now)).toBe('in 4 days');
    expect(dueText('nonsense', now)).toBe('');
  });
});
