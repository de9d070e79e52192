// The stage payloads the gate consumes (commit, build, scan, sast): zod schemas, types and the severity scale.
import { z } from 'zod';

import type { Severity, Stage } from '../core/contracts/provgate.js';

export type { Severity, Stage } from '../core/contracts/provgate.js';

export const STAGES = ['commit', 'build', 'scan', 'sast'] as const satisfies readonly Stage[];

/** Stages whose absence blocks the gate (sast is optional: not every pipeline runs a static analyser). */
export const REQUIRED_STAGES: readonly Stage[] = ['commit', 'build', 'scan'];

export const SEVERITIES = ['low', 'medium', 'high', 'critical'] as const satisfies readonly Severity[];

export function severityRank(s: Severity): number {
  return SEVERITIES.indexOf(s);
}

/**
 * A tool's severity word in our scale. Unknown and unrecognised words become medium (conservative: not silently low);
 * negligible, info and none become low.
 */
export function normaliseSeverity(value: unknown): Severity {
  const s = typeof value === 'string' ? value.trim().toLowerCase() : '';
  if (s === 'critical' || s === 'high' || s === 'medium' || s === 'low') return s;
  if (s === 'moderate') return 'medium';
  if (s === 'negligible' || s === 'info' || s === 'informational' || s === 'none') return 'low';
  return 'medium';
}

const text = (max = 4096) => z.string().max(max);
const name = z.string().min(1).max(1024);
const version = z.string().min(1).max(512);
const digest = z.string().min(1).max(256);
const list = <T extends z.ZodType>(item: T, max = 500_000) => z.array(item).max(max);

/** A (name, version) pair a commit added or removed, with its ecosystem (package URL type) when known. */
export const pinChangeSchema = z.object({
  name,
  version,
  ecosystem: z.string().min(1).max(64).optional(),
  purl: z.string().max(2048).optional(),
});

export const commitPayloadSchema = z.object({
  sha: z.string().regex(/^[0-9a-fA-F]{7,64}$/),
  author: text(512).optional(),
  /** ISO 8601 or what git printed. */
  timestamp: text(64).optional(),
  subject: text().optional(),
  /** Pull-request number parsed from the subject, when present. */
  pr: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).nullable().optional(),
  added: list(pinChangeSchema).default([]),
  removed: list(pinChangeSchema).default([]),
  /** Path of the manifest in the repository. */
  manifest: text(1024).optional(),
  /** Position in the manifest's history (oldest 0); the newest introducer wins when a pin comes and goes. */
  seq: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
  /** Files the commit changed (shown as file nodes; SAST findings hang from them). */
  files: list(text(1024), 10_000).optional(),
});

export const layerSchema = z.object({
  digest,
  createdBy: text().optional(),
  size: z.number().int().min(0).optional(),
});

export const packageSchema = z.object({
  name,
  version,
  purl: z.string().min(5).max(2048),
  /** Where the purl came from: the tool, or derived by us from name, version and the tool's package type. */
  purlSource: z.enum(['tool', 'derived']).optional(),
  type: text(64).optional(),
  /** Digests of the layers that hold the package (empty: not known). */
  layers: list(digest, 1000).default([]),
  /** Python import name, when it differs from the distribution name (reachability). */
  importName: text(256).optional(),
});

export const containerSchema = z.object({
  id: name,
  /** Modules observed loaded in the container (runtime facts for reachability), when known. */
  loadedModules: list(text(256), 100_000).optional(),
});

export const deploymentSchema = z.object({
  service: name,
  containers: list(containerSchema, 10_000).default([]),
});

export const buildPayloadSchema = z.object({
  buildId: name,
  commit: z.string().regex(/^[0-9a-fA-F]{7,64}$/).nullable().optional(),
  tool: text(128).optional(),
  toolVersion: text(128).nullable().optional(),
  image: z
    .object({
      name: text(1024).nullable().optional(),
      digest,
      repoDigests: list(text(1024), 1000).optional(),
    })
    .nullable()
    .optional(),
  /** The scanned source when it is not an image (a directory, a file). */
  source: z.object({ type: text(64).nullable().optional(), name: text(1024).nullable().optional() }).optional(),
  layers: list(layerSchema, 10_000).default([]),
  packages: list(packageSchema).default([]),
  /** Packages of the tool's output left out (no name or no version). */
  skipped: z.number().int().min(0).optional(),
  /** Where the image runs: services and their containers (our extension; the spec names no deploy stage). */
  deployments: list(deploymentSchema, 10_000).optional(),
});

export const scanFindingSchema = z.object({
  /** Vulnerability id as the scanner gave it (CVE-..., GHSA-..., GMS-...). */
  id: z.string().min(1).max(256),
  package: name,
  version: z.string().max(512),
  ecosystem: z.string().min(1).max(64).nullable().optional(),
  purl: z.string().max(2048).nullable().optional(),
  /** Layer digest (Trivy: the layer's diff id; Grype: the location's layer id). */
  layer: digest.nullable().optional(),
  severity: z.enum(SEVERITIES),
  title: text(),
  fixedVersion: text(512).nullable().optional(),
  /** The scanner's result type (Trivy `Type`, Grype artifact type). */
  resultType: text(64).nullable().optional(),
});

export const scanPayloadSchema = z.object({
  /** trivy, grype or osv: the three recognised scanners. */
  tool: z.string().min(1).max(64),
  toolVersion: text(128).nullable().optional(),
  artifact: text(1024).nullable().optional(),
  imageDigest: digest.nullable().optional(),
  findings: list(scanFindingSchema).default([]),
});

export const sastFindingSchema = z.object({
  file: z.string().min(1).max(4096),
  rule: z.string().min(1).max(512),
  severity: z.enum(SEVERITIES),
  title: text(),
  line: z.number().int().min(0).optional(),
});

export const sastPayloadSchema = z.object({
  commit: z.string().regex(/^[0-9a-fA-F]{7,64}$/),
  tool: text(256).optional(),
  findings: list(sastFindingSchema).default([]),
});

export type PinChange = z.output<typeof pinChangeSchema>;
export type CommitPayload = z.output<typeof commitPayloadSchema>;
export type BuildPayload = z.output<typeof buildPayloadSchema>;
export type BuildPackage = z.output<typeof packageSchema>;
export type ScanPayload = z.output<typeof scanPayloadSchema>;
export type ScanFinding = z.output<typeof scanFindingSchema>;
export type SastPayload = z.output<typeof sastPayloadSchema>;
export type SastFinding = z.output<typeof sastFindingSchema>;

export const PAYLOAD_SCHEMAS = {
  commit: commitPayloadSchema,
  build: buildPayloadSchema,
  scan: scanPayloadSchema,
  sast: sastPayloadSchema,
} as const;

export function isStage(value: string): value is Stage {
  return (STAGES as readonly string[]).includes(value);
}

/** The scanners whose findings the vulnerable_dependency and unattributed_finding rules read. */
export const SCANNERS: readonly string[] = ['trivy', 'grype', 'osv'];
