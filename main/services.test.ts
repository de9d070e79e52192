// The composition lists agree: every service with routes has its jobs in the workers, and job types carry their service's name.
import { describe, expect, it } from 'vitest';
import { jobLoaders } from './jobs.js';
import { services } from './services.js';

describe('composition', () => {
  it('lists the same services for the gateway (main/services.ts) and the workers (main/jobs.ts)', () => {
    expect(Object.keys(jobLoaders).sort()).toEqual(services.map((s) => s.descriptor.name).sort());
  });

  it("gives the workers each service's own job table", async () => {
    for (const { descriptor } of services) expect(await jobLoaders[descriptor.name]?.()).toBe(descriptor.jobs);
  });

  it('names every job <service>.<operation> after the service that defines it', () => {
    for (const { descriptor } of services) {
      for (const type of Object.keys(descriptor.jobs)) expect(type.startsWith(`${descriptor.name}.`), type).toBe(true);
    }
  });

  it('gives every service a unique route name', () => {
    const names = services.map((s) => s.descriptor.name);
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) expect(name).toMatch(/^[a-z][a-z0-9-]*$/);
  });
});
