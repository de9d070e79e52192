// The overlap and ratio rule every zip reader applies: member records in order without overlap, inflated bytes capped against the archive's size.

/** Inflated bytes a whole archive may give: this many times its own size, and at least FLOOR (small archives of JSON compress well). */
export const ZIP_MAX_RATIO = 200;
const FLOOR_BYTES = 64 * 1024 * 1024;
/** A local file header before its name and extra field. */
const LOCAL_HEADER_BYTES = 30;

/**
 * Admits zip members one by one in central-directory order. The non-recursive zip bomb points many directory records
 * at one compressed member (or lets one member's data run over the next header): each record's local data must start
 * at or after the end of the one before, and the declared inflated sizes together stay within the ratio.
 */
export class ZipMemberGuard {
  private end = 0;
  private inflated = 0;
  private readonly budget: number;

  constructor(archiveBytes: number, maxRatio = ZIP_MAX_RATIO) {
    this.budget = Math.max(FLOOR_BYTES, maxRatio * archiveBytes);
  }

  /** Null when the member may be read, else why it may not (our words). */
  admit(localHeaderOffset: number, compressedSize: number, uncompressedSize: number): string | null {
    if (localHeaderOffset < this.end) return 'zip members overlap or are out of order';
    this.end = localHeaderOffset + LOCAL_HEADER_BYTES + compressedSize;
    this.inflated += uncompressedSize;
    if (this.inflated > this.budget) return 'the archive inflates past its ratio limit';
    return null;
  }
}
