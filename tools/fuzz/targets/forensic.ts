// Fuzz targets of forensic's parsers (tools/fuzz/harness.ts).
import type { FuzzTarget } from '../harness.js';

export const TARGETS: readonly FuzzTarget[] = [];
