// The policy-as-code document: decision thresholds, finding codes, risk dimensions, vulnerability rules (KEV, EPSS), provenance and licence rules.
import { z } from 'zod';
import { severitySchema, SEVERITY_RANK } from '../vocabulary.js';

export { severitySchema };
const score = z.number().min(0).max(1);
const code = z.string().regex(/^[A-Za-z0-9_.:-]{1,100}$/);
const effect = z.enum(['allow', 'warn', 'block']);

const sevIndex = (s: z.infer<typeof severitySchema>): number => SEVERITY_RANK[s];

export const policyDocumentSchema = z
  .strictObject({
    /** Schema version of the document; 1 today. */
    version: z.literal(1),
    name: z.string().min(1).max(100).optional(),
    description: z.string().max(2000).optional(),
    /** A finding at or above block_severity blocks, at or above warn_severity warns; the overall risk score likewise. */
    thresholds: z.strictObject({
      block_severity: severitySchema,
      warn_severity: severitySchema,
      block_risk: score,
      warn_risk: score,
    }),
    /** Finding codes that always block, always warn, or are ignored, whatever their severity. */
    findings: z
      .strictObject({
        block: z.array(code).max(500).optional(),
        warn: z.array(code).max(500).optional(),
        ignore: z.array(code).max(500).optional(),
      })
      .optional(),
    /** Per risk dimension (for example install_scripts, network, obfuscation): scores at or above warn or block. */
    risk_dimensions: z.record(z.string().regex(/^[a-z][a-z0-9_]{0,63}$/), z.strictObject({ warn: score.optional(), block: score.optional() })).optional(),
    vulnerabilities: z
      .strictObject({
        /** Any advisory in the known-exploited catalogue blocks. */
        block_kev: z.boolean().optional(),
        block_severity: severitySchema.optional(),
        warn_severity: severitySchema.optional(),
        /** Exploit-prediction probability (0..1) at or above which an advisory blocks or warns. */
        epss_block: score.optional(),
        epss_warn: score.optional(),
        /** What an unassessed (unavailable or partial) vulnerability lookup gives: never silently allow by default. */
        unassessed: effect.optional(),
      })
      .optional(),
    provenance: z
      .strictObject({
        /** Whether a release needs verified provenance at all (`missing` applies only when it does). */
        require: z.boolean(),
        /** No attestation, or none that could be checked (default warn). */
        missing: effect.optional(),
        /** An attestation or registry signature that fails verification (default block, whatever `require` says). */
        invalid: effect.optional(),
        /** An earlier stored release of the package had verified provenance and this one has none (default block). */
        downgrade: effect.optional(),
      })
      .optional(),
    licenses: z
      .strictObject({
        deny: z.array(z.string().min(1).max(100)).max(500).optional(),
        warn: z.array(z.string().min(1).max(100)).max(500).optional(),
      })
      .optional(),
  })
  .superRefine((doc, ctx) => {
    if (sevIndex(doc.thresholds.warn_severity) > sevIndex(doc.thresholds.block_severity))
      ctx.addIssue({ code: 'custom', path: ['thresholds', 'warn_severity'], message: 'must not be above block_severity' });
    if (doc.thresholds.warn_risk > doc.thresholds.block_risk) ctx.addIssue({ code: 'custom', path: ['thresholds', 'warn_risk'], message: 'must not be above block_risk' });
    const v = doc.vulnerabilities;
    if (v?.epss_warn !== undefined && v.epss_block !== undefined && v.epss_warn > v.epss_block)
      ctx.addIssue({ code: 'custom', path: ['vulnerabilities', 'epss_warn'], message: 'must not be above epss_block' });
    for (const [name, t] of Object.entries(doc.risk_dimensions ?? {}))
      if (t.warn !== undefined && t.block !== undefined && t.warn > t.block) ctx.addIssue({ code: 'custom', path: ['risk_dimensions', name, 'warn'], message: 'must not be above block' });
  });

export type PolicyDocument = z.output<typeof policyDocumentSchema>;
export type PolicySeverity = z.output<typeof severitySchema>;
export { sevIndex };

export const ENVIRONMENT_PATTERN = /^[a-z][a-z0-9_-]{0,31}$/;
export const environmentSchema = z.string().regex(ENVIRONMENT_PATTERN);
