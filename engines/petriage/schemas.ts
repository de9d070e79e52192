// Zod schemas of what the triage service accepts and answers: the OpenAPI document is generated from them, and tests check answers against them.
import { z } from 'zod';
import { C0_DEL_C1, hasControlCharacter } from '../core/control-characters.js';
import { MAX_RULE_TEXT } from './rules.js';

/** The shared answer schemas, re-exported for this service's OpenAPI document and tests. */
export { errorBodySchema } from '../core/http/schemas.js';
import { pageOf } from '../core/http/schemas.js';

export const healthSchema = z.object({
  status: z.literal('ok'),
  service: z.literal('petriage'),
  version: z.string(),
  /** `linear` or `gbdt`. */
  modelType: z.enum(['linear', 'gbdt']),
  benignCorpusSize: z.number().int().min(0),
});

const profileToken = z.object({ kind: z.enum(['import', 'string']), value: z.string(), share: z.number() });

export const knownFamilySchema = z.object({ name: z.string(), description: z.string(), samples: z.number().int(), profile: z.array(profileToken) });

export const modelInfoSchema = z.object({
  modelType: z.enum(['linear', 'gbdt']),
  format: z.string(),
  sha256: z.string().nullable(),
  featureLayout: z.string(),
  thresholds: z.object({ malicious: z.number(), suspicious: z.number() }),
  thresholdBasis: z.string(),
  attribution: z.string(),
  metadata: z.record(z.string(), z.unknown()),
  knownFamilies: z.array(knownFamilySchema),
});

const evidence = z.union([
  z.object({ kind: z.literal('import'), api: z.string(), name: z.string(), dll: z.string().nullable() }),
  z.object({ kind: z.enum(['string', 'url']), value: z.string(), offset: z.number().int().nullable(), encoding: z.enum(['ascii', 'utf16le']).nullable() }),
]);

export const capabilitySchema = z.object({
  id: z.string(),
  tag: z.string(),
  name: z.string(),
  technique: z.object({ id: z.string().regex(/^T\d{4}(\.\d{3})?$/), name: z.string() }),
  evidence: z.array(evidence),
  evidenceCount: z.number().int(),
});

const familyAttribution = z.object({ name: z.string(), similarity: z.number().min(0).max(1), evidence: z.array(profileToken) });

export const ruleValidationSchema = z.object({
  rules: z.array(z.string()),
  benignHits: z.array(z.object({ file: z.string(), rules: z.array(z.string()) })),
  benignHitCount: z.number().int().min(0),
  benignCorpusSize: z.number().int().min(0),
  specificity: z.number().min(0).max(1).nullable(),
  coverage: z.object({ matched: z.number().int(), total: z.number().int(), ratio: z.number() }).nullable(),
});

export const synthesizedRuleSchema = z.object({
  name: z.string(),
  text: z.string(),
  strings: z.array(z.object({ id: z.string(), value: z.string(), encoding: z.enum(['ascii', 'wide', 'ascii wide']), source: z.enum(['import', 'string']), siblingShare: z.number().nullable() })),
  threshold: z.number().int(),
  validation: ruleValidationSchema,
});

const section = z.object({ index: z.number().int(), name: z.string(), virtual_address: z.number(), virtual_size: z.number(), raw_offset: z.number(), raw_size: z.number(), characteristics: z.number(), flags: z.array(z.string()), entropy: z.number().nullable() }).loose();
const importedDll = z.object({ dll: z.string(), symbols: z.array(z.object({ name: z.string().nullable(), ordinal: z.number().nullable(), ordinal_name: z.string().nullable() }).loose()) }).loose();

/** The dissection in the result: fields as the dissector names them (snake_case, as pefile), the string list replaced by counts. */
export const peSummarySchema = z
  .object({
    sha256: z.string(),
    size: z.number().int(),
    format: z.enum(['PE32', 'PE32+']),
    is_dll: z.boolean(),
    is_driver: z.boolean(),
    sections: z.array(section),
    imports: z.array(importedDll),
    delay_imports: z.array(importedDll),
    exports: z.object({ dll_name: z.string(), symbols: z.array(z.object({ ordinal: z.number(), name: z.string().nullable(), rva: z.number().nullable(), forwarder: z.string().nullable() })) }).loose().nullable(),
    entropy: z.number(),
    imphash: z.string(),
    strings: z.object({
      ascii: z.number().int(),
      utf16le: z.number().int(),
      truncated: z.boolean(),
      items: z.array(z.object({ offset: z.number().int(), encoding: z.enum(['ascii', 'utf16le']), value: z.string() })),
      items_truncated: z.boolean(),
    }),
    notes: z.array(z.string()),
  })
  .loose();

const certificateSummary = z.object({
  subject: z.string(),
  issuer: z.string(),
  name: z.string(),
  serial: z.string(),
  not_before: z.string(),
  not_after: z.string(),
  self_signed: z.boolean(),
  sha1: z.string(),
  signature_algorithm: z.string(),
  valid_at_signing: z.boolean().nullable(),
});

export const authenticodeSchema = z.object({
  signed: z.boolean(),
  signatures: z.array(
    z.object({
      entry: z.number().int(),
      nested: z.boolean(),
      status: z.enum(['unreadable', 'digest_mismatch', 'bad_signature', 'unverified', 'intact']),
      digest_algorithm: z.string().nullable(),
      signed_digest: z.string().nullable(),
      computed_digest: z.string().nullable(),
      digest_matches: z.boolean().nullable(),
      signature_valid: z.boolean().nullable(),
      signer: certificateSummary.nullable(),
      chain: z.array(certificateSummary),
      chain_valid: z.boolean().nullable(),
      chain_complete: z.boolean(),
      certificates: z.array(certificateSummary),
      signing_time: z.string().nullable(),
      timestamp: z
        .object({ kind: z.enum(['rfc3161', 'legacy']), time: z.string().nullable(), signer: certificateSummary.nullable(), imprint_matches: z.boolean().nullable(), signature_valid: z.boolean().nullable() })
        .nullable(),
      program_name: z.string().nullable(),
      more_info: z.string().nullable(),
      warnings: z.array(z.string()),
    }),
  ),
  warnings: z.array(z.string()),
});

export const explanationSchema = z.object({
  families: z.array(z.object({ id: z.string(), name: z.string(), contribution: z.number(), features: z.number().int(), evidence: z.array(z.string()) })),
});

export const driverSchema = z.object({ feature: z.string(), group: z.string(), value: z.number(), contribution: z.number(), tokens: z.array(z.string()).optional() });

export const triageResultSchema = z.object({
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  size: z.number().int(),
  verdict: z.enum(['MALICIOUS', 'SUSPICIOUS', 'BENIGN']),
  score: z.number().min(0).max(1),
  model: z.object({ type: z.string(), format: z.string(), sha256: z.string().nullable(), featureLayout: z.string() }),
  thresholds: z.object({ malicious: z.number(), suspicious: z.number() }),
  drivers: z.object({ method: z.string(), baseValue: z.number(), margin: z.number(), items: z.array(driverSchema), rest: z.number() }),
  capabilities: z.array(capabilitySchema),
  family: familyAttribution.nullable(),
  familyScores: z.array(familyAttribution),
  notes: z.array(z.string()),
  rule: synthesizedRuleSchema.nullable(),
  authenticode: authenticodeSchema.nullable(),
  explanation: explanationSchema,
  importTags: z.array(z.object({ dll: z.string(), name: z.string(), tags: z.array(z.string()) })),
  pe: peSummarySchema,
});

export const validateRequestSchema = z.strictObject({
  /** Rule text in the supported YARA subset. */
  text: z.string().min(1).max(MAX_RULE_TEXT),
});


const verdictSchema = z.enum(['MALICIOUS', 'SUSPICIOUS', 'BENIGN']);

/** Ids of stored analyses (engines/petriage/store.ts saveAnalysis: a random UUID). */
export const ANALYSIS_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** GET /api/analyses filters (besides limit and offset): one verdict, and/or a SHA-256 prefix (hex, either case), and/or a name part or SHA-256 start (q). */
export const analysesQuerySchema = z.object({
  verdict: verdictSchema.optional(),
  sha256: z
    .string()
    .regex(/^[0-9a-fA-F]{1,64}$/, 'a SHA-256 prefix: 1 to 64 hexadecimal digits')
    .transform((v) => v.toLowerCase())
    .optional(),
  /** A part of the stored file name (case-insensitive for ASCII letters) or a SHA-256 start: what the History box sends. */
  q: z
    .string()
    .transform((v) => v.trim())
    .refine((v) => v.length >= 1 && [...v].length <= 255, 'a file name part or SHA-256 start: 1 to 255 characters')
    .refine((v) => !hasNameControl(v), 'a file name part or SHA-256 start without control characters')
    .optional(),
});

/** The longest file name POST /api/analyze?name= keeps, in characters (code points) after trimming: what common file systems allow. */
export const MAX_FILE_NAME = 255;
/** C0 controls, DEL and C1 controls: refused anywhere in a name (folder parts included) and in a name search. */
function hasNameControl(v: string): boolean {
  return hasControlCharacter(v, C0_DEL_C1);
}

/**
 * The name an upload gives its file (`name`, optional): display only, never used as a path. Any folder part (up to the last `/` or
 * `\\`) is dropped and never stored, the rest trimmed; empty, `.`/`..`, over MAX_FILE_NAME characters or with a control character
 * is refused. The messages never repeat the value.
 */
export const fileNameSchema = z
  .string()
  .refine((v) => !hasNameControl(v), 'the file name must not contain control characters')
  .transform((v) => v.replace(/^.*[\\/]/su, '').trim())
  .refine((v) => v !== '' && v !== '.' && v !== '..', 'the file name must name a file (a base name, not empty)')
  .refine((v) => [...v].length <= MAX_FILE_NAME, `the file name must be at most ${MAX_FILE_NAME} characters`);

/** POST /api/analyze query: the file's name, optional. */
export const analyzeQuerySchema = z.object({ name: fileNameSchema.optional() });

export const storedAnalysisSummarySchema = z.object({
  id: z.string().regex(ANALYSIS_ID),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  // Code points, as JSON Schema counts maxLength (zod's max counts UTF-16 units).
  fileName: z
    .string()
    .min(1)
    .refine((v) => [...v].length <= MAX_FILE_NAME, `at most ${MAX_FILE_NAME} characters`)
    .meta({ maxLength: MAX_FILE_NAME, description: 'the name the upload gave (POST /api/analyze?name=, base name only); null when none was given' })
    .nullable(),
  size: z.number().int().min(0),
  createdAt: z.string(),
  verdict: verdictSchema,
  score: z.number(),
  family: z.string().nullable(),
  modelType: z.string(),
});

/** GET /api/analyses: newest first. */
export const analysisPageSchema = pageOf(storedAnalysisSummarySchema);

/** GET /api/analyses/{id}: the summary and the stored result. */
export const storedAnalysisSchema = storedAnalysisSummarySchema.extend({ result: triageResultSchema });
