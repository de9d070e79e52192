// The composition lists agree: every service with routes has its jobs in the workers, and job types carry their service's name.
import { describe, expect, it } from 'vitest';
import { jobServices, jobs } from './jobs.js';
import { services } from './services.js';

describe('composition', () => {
  it('lists the same services for the gateway (main/services.ts) and the workers (main/jobs.ts)', () => {
    expect(jobServices.map((s) => s.name).sort()).toEqual(services.map((s) => s.descriptor.name).sort());
  });

  it('names every job <service>.<operation> after the service that defines it', () => {
    for (const { descriptor } of services) {
      for (const type of Object.keys(descriptor.jobs)) expect(type.startsWith(`${descriptor.name}.`), type).toBe(true);
    }
    expect(Object.keys(jobs).length).toBe(services.reduce((n, s) => n + Object.keys(s.descriptor.jobs).length, 0));
  });

  it('gives every service a unique route name', () => {
    const names = services.map((s) => s.descriptor.name);
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) expect(name).toMatch(/^[a-z][a-z0-9-]*$/);
  });
});
