// What the forensic case body and annotation body refuse as control characters, code point by code point.
import { describe, expect, it } from 'vitest';
import { EXPECT_C0_DEL, refusedProbes } from '../core/control-characters.fixture.js';
import { annotationBodySchema, pathBodySchema } from './schemas.js';

const EVENT_ID = '0123456789abcdef';
const refused = (schema: { safeParse: (v: unknown) => { success: boolean } }, body: unknown): boolean => !schema.safeParse(body).success;

describe('forensic control characters', () => {
  it('a case title refuses C0 and DEL, nothing else', () => {
    expect(refusedProbes((ch) => refused(pathBodySchema, { paths: ['a'], title: `a${ch}b` }))).toEqual(EXPECT_C0_DEL);
  });

  it('an annotation note refuses C0 and DEL but tab and line feed, nothing else', () => {
    expect(refusedProbes((ch) => refused(annotationBodySchema, { eventId: EVENT_ID, tags: [], note: `a${ch}b` }))).toEqual(EXPECT_C0_DEL.filter((cp) => cp !== 0x09 && cp !== 0x0a));
  });

  it('an evidence path refuses NUL only (a file name may hold any other character)', () => {
    expect(refusedProbes((ch) => refused(pathBodySchema, { paths: [`a${ch}b`] }))).toEqual([0x00]);
  });
});
