/** rg's complaints kept for error reporting; rg can be chatty about unreadable files. */
const STDERR_CAP_BYTES = 64 * 1024;

/** A line longer than this is cut (rg logs and complains in lines of a path and a sentence). */
const LINE_CAP_CHARS = 16 * 1024;

/** rg's log line for a file its walk skipped for `--max-filesize` (ignore::walk): `ignoring PATH: N bytes`. */
const SIZE_SKIP = /^rg: DEBUG\|ignore::walk\|[^|]*: ignoring (.*): \d+ bytes$/;

/**
 * One rg run's stderr, read line by line as it arrives. Its complaints are kept (up to STDERR_CAP_BYTES) for
 * `collectErrors`; run with `--debug` (rg-argv.ts does beside `--max-filesize`), its log is the only place rg names
 * the files it skipped for their size: those are kept, every other log line is dropped as it comes, so however
 * chatty the log, holding it costs a line.
 */
export class RgStderr {
  /** What rg said that is not its log: its per-path complaints and its fatal error. */
  text = '';
  /** Files the walk skipped for their size, as rg spelled them. */
  readonly tooLarge: string[] = [];
  private pending = '';

  push(chunk: string): void {
    let start = 0;
    for (let nl = chunk.indexOf('\n'); nl !== -1; nl = chunk.indexOf('\n', start)) {
      this.line(this.pending + chunk.slice(start, nl));
      this.pending = '';
      start = nl + 1;
    }
    const room = LINE_CAP_CHARS - this.pending.length;
    if (room > 0) this.pending += chunk.slice(start, start + room);
  }

  /** rg has exited: a last line without its newline is read too. */
  end(): void {
    if (this.pending) this.line(this.pending);
    this.pending = '';
  }

  private line(line: string): void {
    if (line.startsWith('rg: DEBUG|')) {
      const skipped = SIZE_SKIP.exec(line);
      if (skipped) this.tooLarge.push(skipped[1]!);
      return;
    }
    if (this.text.length < STDERR_CAP_BYTES) this.text += `${line}\n`;
  }
}
