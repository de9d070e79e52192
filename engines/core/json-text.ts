// JSON text read at a boundary (a model file, a bundle, a scenario, a report): parsed, or refused with the caller's error.
import { VitrineError, type ErrorCode } from './errors.js';

/**
 * `text` parsed as JSON; where it is not JSON, a VitrineError with the caller's `code` and `message`, and no cause: the
 * parser's own message quotes the text, which an error never repeats.
 */
export function parseJsonText(text: string, code: ErrorCode, message: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new VitrineError(code, message);
  }
}
