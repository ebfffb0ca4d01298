import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, type JSONRPCMessage, JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';
import { MCP_MAX_MESSAGE_BYTES } from './limits.js';

/**
 * MCP over stdio, one JSON-RPC message per line, where every bad line gets an answer. The SDK's own stdio
 * transport closes itself when a message exceeds its buffer and drops unparsable lines in silence, so a
 * client that sent one waited forever on a server that neither answered nor exited (issue 11 item 7).
 * Here a line that is too long is skipped up to its newline and answered with -32600; a line that is not
 * JSON gets -32700 (parse error) and one that is JSON but not JSON-RPC -32600, as JSON-RPC 2.0 asks. The
 * id is echoed when it can be read, else null. The transport then goes on reading.
 */
export class LineTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private chunks: Buffer[] = [];
  private buffered = 0;
  /** Inside an oversized line: bytes are dropped until its newline. */
  private skipping = false;
  private closed = false;

  constructor(
    private readonly input: NodeJS.ReadableStream = process.stdin,
    private readonly output: NodeJS.WritableStream = process.stdout,
    private readonly maxMessageBytes = MCP_MAX_MESSAGE_BYTES,
  ) {}

  private readonly onData = (chunk: Buffer): void => {
    let rest = chunk;
    for (;;) {
      const nl = rest.indexOf(0x0a);
      if (nl === -1) {
        this.hold(rest);
        return;
      }
      const head = rest.subarray(0, nl);
      rest = rest.subarray(nl + 1);
      if (this.skipping) {
        this.skipping = false;
        this.reject(null, ErrorCode.InvalidRequest, `message larger than ${this.maxMessageBytes} bytes`);
        continue;
      }
      if (this.buffered + head.length > this.maxMessageBytes) {
        this.drop();
        this.reject(null, ErrorCode.InvalidRequest, `message larger than ${this.maxMessageBytes} bytes`);
        continue;
      }
      const line = this.chunks.length === 0 ? head : Buffer.concat([...this.chunks, head]);
      this.drop();
      this.handleLine(line.toString('utf8').replace(/\r$/, ''));
    }
  };

  private readonly onEnd = (): void => {
    void this.close();
  };

  private readonly onError = (err: Error): void => {
    this.onerror?.(err);
  };

  async start(): Promise<void> {
    this.input.on('data', this.onData);
    this.input.on('end', this.onEnd);
    this.input.on('error', this.onError);
  }

  async send(message: JSONRPCMessage): Promise<void> {
    await this.write(`${JSON.stringify(message)}\n`);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.input.off('data', this.onData);
    this.input.off('end', this.onEnd);
    this.input.off('error', this.onError);
    // Closed before the input ended (a signal): stop reading, so an open stdin keeps no process alive.
    this.input.pause();
    this.drop();
    this.onclose?.();
  }

  private hold(part: Buffer): void {
    if (this.skipping || part.length === 0) return;
    if (this.buffered + part.length > this.maxMessageBytes) {
      // Keep nothing of it: the rest of the line is dropped as it arrives, and answered at its end.
      this.drop();
      this.skipping = true;
      return;
    }
    this.chunks.push(part);
    this.buffered += part.length;
  }

  private drop(): void {
    this.chunks = [];
    this.buffered = 0;
  }

  private handleLine(line: string): void {
    if (line.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (err) {
      this.reject(null, ErrorCode.ParseError, `Parse error: ${(err as Error).message}`);
      return;
    }
    const parsed = JSONRPCMessageSchema.safeParse(value);
    if (!parsed.success) {
      this.reject(idOf(value), ErrorCode.InvalidRequest, 'Invalid Request: not a JSON-RPC 2.0 message');
      return;
    }
    this.onmessage?.(parsed.data);
  }

  private reject(id: string | number | null, code: number, message: string): void {
    this.onerror?.(new Error(`mcp: refused a message (${code}): ${message}`));
    void this.write(`${JSON.stringify({ jsonrpc: '2.0', id, error: { code, message } })}\n`);
  }

  private write(text: string): Promise<void> {
    return new Promise((resolve) => {
      if (this.output.write(text)) resolve();
      else this.output.once('drain', () => resolve());
    });
  }
}

function idOf(value: unknown): string | number | null {
  if (typeof value !== 'object' || value === null) return null;
  const id = (value as { id?: unknown }).id;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}
