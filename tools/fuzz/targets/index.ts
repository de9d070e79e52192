// Every fuzz target, one file per service (core.ts: the shared parsers); `npm run fuzz -- --list` prints them.
import type { FuzzTarget } from '../fuzz.js';
import { TARGETS as attrib } from './attrib.js';
import { TARGETS as caseassess } from './caseassess.js';
import { TARGETS as core } from './core.js';
import { TARGETS as flowdet } from './flowdet.js';
import { TARGETS as forensic } from './forensic.js';
import { TARGETS as petriage } from './petriage.js';
import { TARGETS as pkgscan } from './pkgscan.js';
import { TARGETS as provgate } from './provgate.js';
import { TARGETS as replay } from './replay.js';

const BY_FILE = { attrib, caseassess, core, flowdet, forensic, petriage, pkgscan, provgate, replay } as const;

export const TARGETS: readonly FuzzTarget[] = Object.values(BY_FILE).flat();

/** The module that exports each target, which the worker thread loads. */
export const TARGET_MODULES: ReadonlyMap<string, string> = new Map(
  Object.entries(BY_FILE).flatMap(([file, list]) => list.map((t) => [t.name, new URL(`./${file}.ts`, import.meta.url).href] as const)),
);
