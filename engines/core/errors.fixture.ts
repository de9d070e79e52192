// The tests' check that a call is refused: the VitrineError it throws.
import { VitrineError } from './errors.js';

/** The VitrineError `fn` throws; any other error is thrown on, and a call that does not throw fails the test. */
export function refusal(fn: () => unknown): VitrineError {
  try {
    fn();
  } catch (err) {
    if (err instanceof VitrineError) return err;
    throw err;
  }
  throw new Error('expected a refusal');
}
