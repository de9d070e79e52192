// Text artefacts: lines with their byte offsets (streamed in 1 MiB blocks), and RFC 4180 CSV records that may span lines.
import { createHash } from 'node:crypto';

/** One line of a text artefact. `bytes` excludes the terminator and is only valid until the next line is read. */
export interface TextLine {
  /** 1-based line number. */
  readonly number: number;
  /** Byte offset of the line's first byte. */
  readonly offset: number;
  readonly bytes: Buffer;
  /** Length of the terminator that followed: 0 (end of file), 1 (\n) or 2 (\r\n). */
  readonly terminator: 0 | 1 | 2;
  /** The line decoded as UTF-8 (invalid sequences become U+FFFD, and invalidUtf8 says so). */
  readonly text: string;
  readonly invalidUtf8: boolean;
}

export interface LineOptions {
  /** Longer lines are skipped (and reported); default 4 MiB. */
  readonly maxLineBytes?: number;
  readonly onTooLong?: (lineNumber: number, offset: number) => void;
}

export const DEFAULT_MAX_LINE_BYTES = 4 * 1024 * 1024;

const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });
const lenient = new TextDecoder('utf-8', { fatal: false, ignoreBOM: false });

/** Set by decode: the last bytes decoded were not valid UTF-8 (a flag, not an object per line). */
let lastInvalid = false;

/**
 * The text of a line's bytes, as the strict decoder gives it (a leading byte order mark dropped), or the lenient one's
 * when they are not valid UTF-8. Buffer's decoder (one native call, cheaper than TextDecoder's) gives the same text
 * for valid bytes and replaces each invalid sequence with U+FFFD, so a text without U+FFFD is taken as it is; one with
 * it (invalid bytes, or a U+FFFD the line holds) is decoded again by the decoders.
 */
function decode(bytes: Buffer): string {
  const text = bytes.toString();
  if (text.indexOf('\uFFFD') === -1) {
    lastInvalid = false;
    return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  }
  try {
    lastInvalid = false;
    return strict.decode(bytes);
  } catch {
    lastInvalid = true;
    return lenient.decode(bytes);
  }
}

/** Splits blocks of bytes (a file read in 1 MiB blocks, or one buffer) into lines, keeping each line's offset. */
export function* linesOf(blocks: Iterable<Uint8Array>, options: LineOptions = {}): Generator<TextLine> {
  const max = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  let pending: Buffer[] = [];
  let pendingLength = 0;
  let skipping = false;
  let lineStart = 0;
  let number = 0;
  let position = 0;
  const make = (content: Buffer, terminator: 0 | 1 | 2): TextLine => {
    number++;
    let body = content;
    let term = terminator;
    if (term === 1 && body.length > 0 && body[body.length - 1] === 0x0d) {
      body = body.subarray(0, body.length - 1);
      term = 2;
    }
    const text = decode(body);
    return { number, offset: lineStart, bytes: body, terminator: term, text: number === 1 ? text.replace(/^\uFEFF/, '') : text, invalidUtf8: lastInvalid };
  };
  /** A line over the limit: counted, reported, not read. */
  const tooLong = (): void => {
    number++;
    options.onTooLong?.(number, lineStart);
  };
  for (const raw of blocks) {
    const block = Buffer.isBuffer(raw) ? raw : Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength);
    let start = 0;
    for (;;) {
      const nl = block.indexOf(0x0a, start);
      const end = nl === -1 ? block.length : nl;
      if (nl !== -1 && pending.length === 0 && !skipping) {
        // The whole line is in this block (nearly every line): no list of parts, no copy.
        if (end - start > max) tooLong();
        else yield make(block.subarray(start, end), 1);
        start = nl + 1;
        lineStart = position + start;
        continue;
      }
      if (!skipping) {
        pending.push(block.subarray(start, end));
        pendingLength += end - start;
        if (pendingLength > max) {
          skipping = true;
          pending = [];
          pendingLength = 0;
        }
      }
      if (nl === -1) {
        // The rest of this line is in the next block: copy what we keep, the block buffer is reused.
        pending = pending.length === 0 ? [] : [Buffer.from(Buffer.concat(pending))];
        break;
      }
      if (skipping) {
        tooLong();
        skipping = false;
      } else {
        yield make(pending.length === 1 ? (pending[0] as Buffer) : Buffer.concat(pending), 1);
      }
      pending = [];
      pendingLength = 0;
      start = nl + 1;
      lineStart = position + start;
    }
    position += block.length;
  }
  if (skipping) tooLong();
  else if (pendingLength > 0) {
    yield make(Buffer.concat(pending), 0);
  }
}

/** The fields of one complete CSV record (RFC 4180: quoted fields, doubled quotes, line breaks inside quotes). */
export function csvFields(record: string, separator = ','): string[] {
  const fields: string[] = [];
  let field = '';
  let i = 0;
  let quoted = false;
  let atStart = true;
  while (i < record.length) {
    const c = record[i] as string;
    if (quoted) {
      if (c === '"') {
        if (record[i + 1] === '"') {
          field += '"';
          i += 2;
          continue;
        }
        quoted = false;
        i++;
        continue;
      }
      field += c;
      i++;
      continue;
    }
    if (c === '"' && atStart) {
      quoted = true;
      atStart = false;
      i++;
      continue;
    }
    if (c === separator) {
      fields.push(field);
      field = '';
      atStart = true;
      i++;
      continue;
    }
    field += c;
    atStart = false;
    i++;
  }
  fields.push(field);
  return fields;
}

/** Whether a line holds an odd number of quotes: a line break after it is inside a quoted field when the record's count so far is odd. */
function oddQuotes(text: string): boolean {
  let odd = false;
  for (let i = text.indexOf('"'); i !== -1; i = text.indexOf('"', i + 1)) odd = !odd;
  return odd;
}

/** A CSV record with where its bytes are. */
export interface CsvRecord {
  readonly fields: string[];
  /** Line number of the record's first line, and how many lines it spans. */
  readonly line: number;
  readonly lines: number;
  readonly offset: number;
  readonly length: number;
  /** SHA-256 of the record's bytes (its lines and the line breaks between them). */
  readonly rawSha256: string;
}

export interface CsvOptions {
  readonly separator?: string;
  /** A record still open after this many lines is dropped (and reported); default 10,000. */
  readonly maxLines?: number;
  /**
   * A record still open past this many characters is dropped (and reported) as well; default 64 Mi. Lines are at most
   * 4 MiB each, so without it a few hundred long lines after a stray quote would outgrow the longest string V8 makes.
   */
  readonly maxChars?: number;
  readonly onUnterminated?: (line: number, offset: number) => void;
}

/** Assembles CSV records from lines, across line breaks inside quoted fields. Blank lines are skipped. */
export function* csvRecords(lines: Iterable<TextLine>, options: CsvOptions = {}): Generator<CsvRecord> {
  const maxLines = options.maxLines ?? 10_000;
  const maxChars = options.maxChars ?? 64 * 1024 * 1024;
  let text = '';
  let first: TextLine | null = null;
  let count = 0;
  // The record's quote count so far is odd: kept line by line, so each line is scanned once however many lines a
  // record spans (a rescan of the record at each line costs the square of the lines after one stray quote).
  let open = false;
  let hash = createHash('sha256');
  let end: number;
  let lastTerminator = 0;
  const reset = (): void => {
    text = '';
    first = null;
    count = 0;
    open = false;
    hash = createHash('sha256');
  };
  for (const line of lines) {
    if (first === null) {
      if (line.text.trim() === '') continue;
      first = line;
    } else {
      text += '\n';
      hash.update(lastTerminator === 2 ? '\r\n' : '\n');
    }
    text += line.text;
    hash.update(line.bytes);
    count++;
    end = line.offset + line.bytes.length;
    lastTerminator = line.terminator;
    if (oddQuotes(line.text)) open = !open;
    if (!open) {
      yield { fields: csvFields(text, options.separator), line: first.number, lines: count, offset: first.offset, length: end - first.offset, rawSha256: hash.digest('hex') };
      reset();
    } else if (count >= maxLines || text.length >= maxChars) {
      options.onUnterminated?.(first.number, first.offset);
      reset();
    }
  }
  if (first !== null) options.onUnterminated?.((first as TextLine).number, (first as TextLine).offset);
}
