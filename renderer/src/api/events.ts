// Server-sent events over fetch + ReadableStream: EventSource cannot send the Authorization header.
import type { ApiClient } from './client';

export interface SseMessage {
  readonly event: string;
  readonly data: string;
  readonly id?: string;
}

/**
 * An incremental parser of the text/event-stream format (WHATWG HTML, "Server-sent events"):
 * feed it decoded text in any chunking; it calls `onMessage` once per complete event.
 */
export function createSseParser(onMessage: (m: SseMessage) => void): { push(text: string): void; end(): void } {
  let buffer = '';
  let event = '';
  let data: string[] = [];
  let id: string | undefined;
  let pendingCR = false;

  const dispatch = (): void => {
    if (data.length > 0) onMessage({ event: event || 'message', data: data.join('\n'), ...(id !== undefined ? { id } : {}) });
    event = '';
    data = [];
  };

  const line = (l: string): void => {
    if (l === '') return dispatch();
    if (l.startsWith(':')) return;
    const colon = l.indexOf(':');
    const field = colon === -1 ? l : l.slice(0, colon);
    let value = colon === -1 ? '' : l.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
    else if (field === 'id' && !value.includes('\0')) id = value;
  };

  return {
    push(text: string) {
      // A CR at the end of one chunk may be the first half of a CRLF split across chunks.
      if (pendingCR && text.startsWith('\n')) text = text.slice(1);
      pendingCR = false;
      buffer += text;
      let start = 0;
      for (let i = 0; i < buffer.length; i++) {
        const c = buffer[i];
        if (c === '\n' || c === '\r') {
          line(buffer.slice(start, i));
          if (c === '\r') {
            if (i + 1 < buffer.length) {
              if (buffer[i + 1] === '\n') i++;
            } else pendingCR = true;
          }
          start = i + 1;
        }
      }
      buffer = buffer.slice(start);
    },
    end() {
      // An unterminated last event is discarded, as the standard says.
      buffer = '';
      event = '';
      data = [];
    },
  };
}

/** Reads an event stream until it ends or `signal` aborts; resolves when the server closes it. */
export async function readEventStream(client: ApiClient, path: string, onMessage: (m: SseMessage) => void, signal: AbortSignal): Promise<void> {
  const res = await client.open(path, { signal, accept: 'text/event-stream' });
  if (!res.body) return;
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  const parser = createSseParser(onMessage);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parser.push(decoder.decode(value, { stream: true }));
    }
    parser.push(decoder.decode());
  } finally {
    parser.end();
    reader.releaseLock();
  }
}
