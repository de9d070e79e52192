// The one way a worker sends to its host: every message cut to what the host's protocol takes, and a send that fails
// never throws into the job or the worker's own bookkeeping.
import { VitrineError, serializeError } from '../../engines/core/errors.js';
import type { WorkerToHost } from '../../engines/core/jobs/protocol.js';
import { cutText } from '../../engines/core/text-cut.js';
import { ERROR_MESSAGE_MAX, LOG_MESSAGE_MAX, PROGRESS_MESSAGE_MAX } from './messages.js';

/** A message as the host's schema takes it: texts past their limit are cut, never inside a surrogate pair (the host would take a longer one for a protocol breach and replace the worker). */
export function fitted(message: WorkerToHost): WorkerToHost {
  switch (message.kind) {
    case 'log':
      return message.message.length <= LOG_MESSAGE_MAX ? message : { ...message, message: cutText(message.message, LOG_MESSAGE_MAX) };
    case 'error':
      return message.error.message.length <= ERROR_MESSAGE_MAX ? message : { ...message, error: { ...message.error, message: cutText(message.error.message, ERROR_MESSAGE_MAX) } };
    case 'progress':
      return message.message === undefined || message.message.length <= PROGRESS_MESSAGE_MAX ? message : { ...message, message: cutText(message.message, PROGRESS_MESSAGE_MAX) };
    default:
      return message;
  }
}

/**
 * The guarded send over a channel's raw one. A message that cannot be sent (a result that cannot be cloned, a channel
 * that throws) is dropped, except a result: its job is answered with an `internal` error instead, so it does not hang.
 */
export function guardedSend(raw: (message: WorkerToHost) => void): (message: WorkerToHost) => void {
  return (message) => {
    try {
      raw(fitted(message));
    } catch {
      if (message.kind !== 'result') return;
      try {
        raw({ kind: 'error', id: message.id, error: serializeError(new VitrineError('internal', 'the job result cannot be sent to the host')) });
      } catch {
        // The channel itself is broken: the host sees the worker go or the job time out.
      }
    }
  };
}
