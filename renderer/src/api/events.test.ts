// The server-sent events parser: chunking anywhere, CRLF, comments, multi-line data.
import { describe, expect, it } from 'vitest';
import { createSseParser, type SseMessage } from './events';

function parseAll(chunks: string[]): SseMessage[] {
  const out: SseMessage[] = [];
  const p = createSseParser((m) => out.push(m));
  for (const c of chunks) p.push(c);
  p.end();
  return out;
}

describe('createSseParser', () => {
  const stream = 'event: job\ndata: {"id":"j1"}\n\n: keep-alive\n\nevent: job\r\ndata: {"id":\r\ndata: "j2"}\r\nid: 7\r\n\r\n';

  it('parses events, skipping comments', () => {
    expect(parseAll([stream])).toEqual([
      { event: 'job', data: '{"id":"j1"}' },
      { event: 'job', data: '{"id":\n"j2"}', id: '7' },
    ]);
  });

  it('gives the same result whatever the chunking, including a CRLF split across chunks', () => {
    const whole = parseAll([stream]);
    for (let cut = 1; cut < stream.length; cut++) expect(parseAll([stream.slice(0, cut), stream.slice(cut)])).toEqual(whole);
    expect(parseAll(stream.split(''))).toEqual(whole);
  });

  it('defaults the event name to message and drops an unterminated last event', () => {
    expect(parseAll(['data: a\n\ndata: b'])).toEqual([{ event: 'message', data: 'a' }]);
  });
});
