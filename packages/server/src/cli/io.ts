import * as fs from 'node:fs';
import type { Writable } from 'node:stream';

/** Where a command writes and what it may ask of its terminal; a seam so tests can run commands in-process. */
export interface CliIO {
  stdout: Writable & { isTTY?: boolean };
  stderr: Writable & { isTTY?: boolean };
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Standard input, for commands that read it (`trawl rg` with no path, or `-`); absent: there is none. */
  stdin?: StdinSource;
}

export interface StdinSource {
  /** ripgrep's rule: a file, a pipe or a socket is read; a terminal or a device such as /dev/null is not. */
  searchable(): boolean;
  /** All of it, or an error past `limit` bytes (nothing is read without a bound). */
  read(limit: number): Promise<Buffer>;
}

export function processIO(): CliIO {
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    cwd: process.cwd(),
    env: process.env,
    stdin: processStdin,
  };
}

const processStdin: StdinSource = {
  searchable() {
    try {
      const st = fs.fstatSync(0);
      return st.isFile() || st.isFIFO() || st.isSocket();
    } catch {
      return false;
    }
  },
  async read(limit) {
    const chunks: Buffer[] = [];
    let total = 0;
    for await (const chunk of process.stdin as AsyncIterable<Buffer>) {
      total += chunk.length;
      if (total > limit) {
        process.stdin.destroy();
        throw new UsageError(`standard input is larger than ${limit} bytes`);
      }
      chunks.push(chunk);
    }
    return Buffer.concat(chunks);
  },
};

/**
 * A caller mistake: printed as one line on stderr, exit code 2 (never a stack trace), after the name of the
 * program whose words these are (`trawl rg` says `rg:` where it gives ripgrep's own message).
 */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly code = 'usage',
    readonly program: 'trawl' | 'rg' = 'trawl',
  ) {
    super(message);
    this.name = 'UsageError';
  }
}

/** Writes all of `text` and resolves once the stream has taken it (so exit codes never cut output short). */
export function write(stream: Writable, text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    if (text.length === 0) return resolve();
    stream.write(text, (err) => (err ? reject(err) : resolve()));
  });
}
