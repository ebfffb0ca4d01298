/**
 * Server-sent events read with fetch and a stream reader (EventSource cannot send the Authorization header).
 * The parser is separate from the transport so it can be tested on chunks cut anywhere.
 */
import { apiFetch, unreachable } from './client.js';

export interface SseEvent {
  event: string;
  data: string;
}

/** Feeds text in, gets whole events out; a chunk may end anywhere, even inside a line. */
export class SseParser {
  private buffer = '';
  private event = 'message';
  private data: string[] = [];

  push(chunk: string): SseEvent[] {
    this.buffer += chunk;
    const out: SseEvent[] = [];
    let nl = this.buffer.search(/\r?\n/);
    while (nl >= 0) {
      const line = this.buffer.slice(0, nl);
      this.buffer = this.buffer.slice(this.buffer[nl] === '\r' ? nl + 2 : nl + 1);
      if (line === '') {
        if (this.data.length > 0) out.push({ event: this.event, data: this.data.join('\n') });
        this.event = 'message';
        this.data = [];
      } else if (!line.startsWith(':')) {
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (field === 'event') this.event = value;
        else if (field === 'data') this.data.push(value);
      }
      nl = this.buffer.search(/\r?\n/);
    }
    return out;
  }
}

/**
 * Reads an event stream to its end (or until `signal` aborts), calling `onEvent` for each event. A stream that
 * breaks off (the server stopped, the network dropped) rejects with the `unreachable` ApiError.
 */
export async function readEventStream(
  path: string,
  onEvent: (e: SseEvent) => void,
  signal: AbortSignal,
): Promise<void> {
  const res = await apiFetch(path, { signal, headers: { Accept: 'text/event-stream' } });
  if (!res.body) return;
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  const parser = new SseParser();
  for (;;) {
    let next: ReadableStreamReadResult<string>;
    try {
      next = await reader.read();
    } catch (e) {
      throw signal.aborted ? e : unreachable(e);
    }
    const { value, done } = next;
    if (done) break;
    for (const e of parser.push(value)) onEvent(e);
  }
}
