// Each command line's `serve` binds its own default port, so an analyst can run any of them side by side (and beside
// the workstation's gateway) without choosing ports.
import { describe, expect, it } from 'vitest';
import { DEFAULT_PORT as attrib } from '../engines/attrib/cli-meta.js';
import { DEFAULT_PORT as caseassess } from '../engines/caseassess/cli.js';
import { DEFAULT_PORT as flowdet } from '../engines/flowdet/cli.js';
import { DEFAULT_PORT as forensic } from '../engines/forensic/cli-meta.js';
import { DEFAULT_PORT as petriage } from '../engines/petriage/cli-meta.js';
import { DEFAULT_PORT as pkgscan } from '../engines/pkgscan/cli-meta.js';
import { DEFAULT_PORT as provgate } from '../engines/provgate/cli-meta.js';
import { DEFAULT_PORT as replay } from '../engines/replay/cli.js';
import { DEFAULT_PORT as workstation } from '../main/workstation.js';

describe('default ports', () => {
  it('differ between the eight services and the workstation', () => {
    const ports = { attrib, caseassess, flowdet, forensic, petriage, pkgscan, provgate, replay, workstation };
    const byPort = new Map<number, string[]>();
    for (const [name, port] of Object.entries(ports)) byPort.set(port, [...(byPort.get(port) ?? []), name]);
    expect([...byPort.values()].filter((names) => names.length > 1)).toEqual([]);
    for (const port of Object.values(ports)) expect(port > 1024 && port < 49152).toBe(true);
  });
});
