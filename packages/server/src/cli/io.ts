import type { Writable } from 'node:stream';

/** Where a command writes and what it may ask of its terminal; a seam so tests can run commands in-process. */
export interface CliIO {
  stdout: Writable & { isTTY?: boolean };
  stderr: Writable & { isTTY?: boolean };
  cwd: string;
  env: NodeJS.ProcessEnv;
}

export function processIO(): CliIO {
  return { stdout: process.stdout, stderr: process.stderr, cwd: process.cwd(), env: process.env };
}

/** A caller mistake: printed as one line on stderr, exit code 2 (never a stack trace). */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly code = 'usage',
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
