// The project-scan worker job: parse and lint the submitted files in a worker process, away from the gateway's event loop.
import { z } from 'zod';
import type { JobContext } from '../../core/jobs/protocol.js';
import { validate } from '../../core/validation.js';
import { analyzeFiles, type FileAnalysis } from './analyze.js';
import { MAX_FILE_BYTES, MAX_FILES } from './files.js';

export const PROJECT_ANALYZE_JOB = 'pkgscan.project_analyze';

/** Paths were checked by the route; the worker checks the shape and the limits again (a payload is untrusted). */
export const projectAnalyzePayloadSchema = z.strictObject({
  projectName: z.string().min(1).max(200),
  internalNamespaces: z.array(z.string().max(214)).max(100),
  files: z
    .array(z.strictObject({ path: z.string().min(1).max(512), text: z.string().max(MAX_FILE_BYTES) }))
    .min(1)
    .max(MAX_FILES),
});

export type ProjectAnalyzePayload = z.infer<typeof projectAnalyzePayloadSchema>;

export function projectAnalyzeJob(payload: unknown, ctx: JobContext): FileAnalysis {
  const p = validate(projectAnalyzePayloadSchema, payload, 'project analysis request');
  ctx.progress(0, 'reading project files');
  const files = p.files.map((f) => ({ path: f.path, text: f.text, bytes: Buffer.byteLength(f.text, 'utf8') }));
  const out = analyzeFiles(files, { projectName: p.projectName, internalNamespaces: p.internalNamespaces });
  ctx.progress(1);
  return out;
}
