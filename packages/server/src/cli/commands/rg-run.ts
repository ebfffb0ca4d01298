/**
 * `trawl rg` run (ripgrep's search step): what rg-arguments.ts decided, searched by the engine and printed by
 * rg-printer.ts, with ripgrep's exit codes (0: a match, 1: none, 2: an error).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { SearchEvent, SearchSummary } from '@trawl/core/engine';
import { type CliIO, UsageError, write } from '../io.js';
import { paint } from '../rg-colors.js';
import { plainStats, RgPrinter } from '../rg-printer.js';
import { type Core, type RgArguments, rgArguments, type SortKey } from './rg-arguments.js';
import type { LastWins, RgFlags } from './rg-flags.js';
import { reportSummary, rgErrorLine } from './rg-messages.js';

/** Runs one `trawl rg` invocation as parsed; resolves to its exit code. */
export async function runRg(
  positional: string | undefined,
  rest: string[],
  flags: RgFlags,
  last: LastWins,
  io: CliIO,
): Promise<number> {
  // Loaded here, not at start-up: `trawl rg --help` needs none of it.
  const core = await import('@trawl/core/engine');
  const a = await rgArguments(core, positional, rest, flags, last, io);
  switch (a.kind) {
    case 'type-list':
      await write(io.stdout, a.text);
      return 0;
    case 'files':
      return listFilesCommand(core, a, io);
    case 'no-match':
      return 1;
    case 'search':
      return search(core, a, io);
  }
}

/** A search: the engine's events printed as they come (or held, for --sort), then errors and --stats. */
async function search(core: Core, a: Extract<RgArguments, { kind: 'search' }>, io: CliIO): Promise<number> {
  const printer = new RgPrinter(a.print);
  let summary: SearchSummary | null = null;
  let bytesPrinted = 0;
  const emit = async (text: string) => {
    if (!text) return;
    bytesPrinted += Buffer.byteLength(text);
    await write(io.stdout, text);
  };
  try {
    const held: SearchEvent[][] = [];
    let group: SearchEvent[] = [];
    // One write per engine batch: a million matching lines must not mean a million awaited writes.
    outer: for await (const batch of core.searchBatches(a.request)) {
      let text = '';
      for (const event of batch) {
        if (event.type === 'summary') {
          summary = event.summary;
          if (!a.json) continue;
          if (a.sort) text += printHeld(printer, held, a.sort, io.cwd);
        }
        if (a.sort && event.type !== 'summary') {
          group.push(event);
          if (event.type === 'end' || event.type === 'skip') {
            held.push(group);
            group = [];
          }
          continue;
        }
        text += printer.print(event);
        // -q: the first match decides; stopping the generator stops the engine.
        if (a.mode === 'quiet' && printer.matchedAny) {
          await emit(text);
          break outer;
        }
      }
      await emit(text);
    }
    if (a.sort && !a.json) await emit(printHeld(printer, held, a.sort, io.cwd));
  } catch (err) {
    if (err instanceof core.PatternError || err instanceof core.EngineUnavailableError)
      throw new UsageError(err.message, err.code);
    throw err;
  }
  let errored = false;
  if (summary) {
    errored = await reportSummary(summary, io, a.messages, a.wording);
    // ripgrep's warning when the walk found nothing to search (only when no path was given).
    if (
      a.warnNoFiles &&
      summary.filesSearched + summary.skipped.binary === 0 &&
      summary.outcome === 'complete'
    ) {
      if (a.messages)
        await write(
          io.stderr,
          "rg: No files were searched, which means ripgrep probably applied a filter you didn't expect.\n" +
            'Running with --debug will show why files are being skipped.\n',
        );
      errored = true;
    }
    if (a.stats && !a.json)
      await write(io.stdout, plainStats(summary, bytesPrinted, summary.elapsedMs / 1000));
  }
  const matched = printer.matchedAny;
  if (matched && (a.mode === 'quiet' || !errored)) return 0;
  return errored ? 2 : 1;
}

/** Events held for --sort/--sortr, printed in the order asked for. */
function printHeld(
  printer: RgPrinter,
  held: SearchEvent[][],
  { by, reverse }: { by: SortKey; reverse: boolean },
  cwd: string,
): string {
  const keyed = held.map((g) => {
    const p = (g[0] as { path: string }).path;
    let key = 0;
    if (by !== 'path') {
      try {
        const st = fs.statSync(path.resolve(cwd, p));
        key = (by === 'modified' ? st.mtimeMs : by === 'accessed' ? st.atimeMs : st.birthtimeMs) || 0;
      } catch {}
    }
    return { g, key };
  });
  // Groups arrive in path order; a stable sort by time keeps it among equal times.
  if (by !== 'path') keyed.sort((a, b) => a.key - b.key);
  if (reverse) keyed.reverse();
  let out = '';
  for (const { g } of keyed) for (const e of g) out += printer.print(e);
  held.length = 0;
  return out;
}

/** --files: the files a search would search, one a line. */
async function listFilesCommand(
  core: Core,
  a: Extract<RgArguments, { kind: 'files' }>,
  io: CliIO,
): Promise<number> {
  let listing: Awaited<ReturnType<typeof core.listFiles>>;
  try {
    listing = await core.listFiles(a.request);
  } catch (err) {
    if (err instanceof core.EngineUnavailableError) throw new UsageError(err.message, err.code);
    throw err;
  }
  const files = a.reverse ? [...listing.files].reverse() : listing.files;
  const shown = (f: string) => {
    const p = a.pathSeparator ? f.replaceAll('/', a.pathSeparator) : f;
    return paint(a.colors, 'path', p);
  };
  await write(io.stdout, files.map((f) => `${shown(f)}${a.terminator}`).join(''));
  if (a.messages)
    for (const e of listing.errors) await write(io.stderr, rgErrorLine(e, listing.missingRoots, a.wording));
  if (listing.errors.length > 0) return 2;
  return files.length > 0 ? 0 : 1;
}
