import { dataDirChecked } from '../data-dir.js';
import { UsageError, write } from '../io.js';
import type { RegisterCommand } from '../program.js';
import { cliHome, cliRoot } from '../root.js';
import { fieldForTerminal, forTerminal } from '../visible.js';

interface GrepFlags {
  root?: string;
  json?: boolean;
  engine?: string;
  regex?: boolean;
  caseSensitive?: boolean;
  word?: boolean;
  deadline?: number;
  dataDir?: string;
}

const ENGINES = ['auto', 'js', 'rg'] as const;

/**
 * `trawl grep QUERY [--root DIR] [--json] [--engine auto|js|rg] [--regex] [--case-sensitive] [--word] [--data-dir D]`:
 * which files contain QUERY, with /api/file-grep's semantics (one row per file, Office documents included, one 2 s
 * budget). Plain output is `path:line: preview` or `path [label]: preview`, then the truncation in words; `--json`
 * prints the endpoint's payload. Exit 0 with or without matches. Documents' text is kept in the data directory (`--data-dir`,
 * else `trawl serve`'s), so the next search does not parse them again.
 */
export const registerGrep: RegisterCommand = (program, io, setExit) => {
  program
    .command('grep')
    .description(
      'Find which files contain a text, Word/PowerPoint/Excel documents and PDFs included (.docx/.pptx/.xlsx/.pdf): one row per file. Exit 0 even with no match.',
    )
    .argument(
      '<query>',
      'the text (2–200 characters, one line); a literal, case-insensitive unless told otherwise',
    )
    .option('--root <dir>', 'directory to search (default: the current directory)')
    .option(
      '--json',
      'print {"results": [{file, line, preview, label?, ranges}], "truncated", "engine", "skipped_docs", "root"}',
    )
    .option('--engine <engine>', 'auto, js or rg (rg: fail if no usable ripgrep)', 'auto')
    .option('--regex', "the query is a regular expression (ripgrep's Rust syntax)")
    .option('--case-sensitive', 'match case exactly')
    .option('--word', 'match whole words only')
    .option('--deadline <seconds>', 'the budget both passes share (default 2, as the endpoint)', parseSeconds)
    .option(
      '--data-dir <dir>',
      "where documents' extracted text is kept between searches (default: the data directory of trawl serve)",
    )
    .action(async (query: string, flags: GrepFlags) => {
      setExit(await runGrep(query, flags, io));
    });
};

async function runGrep(query: string, flags: GrepFlags, io: Parameters<RegisterCommand>[1]): Promise<number> {
  const engine = flags.engine ?? 'auto';
  if (!(ENGINES as readonly string[]).includes(engine))
    throw new UsageError(`--engine must be auto, js or rg (got ${engine})`);
  // Loaded on use, so `trawl --help` loads none of the engine.
  const [core, { createSensitiveFence }, { EngineUnavailableError, PatternError }, { closeDocumentStores }] =
    await Promise.all([
      import('@trawl/core/grep'),
      import('@trawl/core/fence'),
      import('@trawl/core/engine'),
      import('@trawl/core/content-index'),
    ]);
  // The data directory holds the documents' text store; a default one that cannot be used costs only the reuse.
  const data = await dataDirChecked(flags.dataDir, io);
  if (data.problem && flags.dataDir !== undefined) throw data.problem;
  if (data.problem)
    io.stderr.write(`trawl: documents are parsed for this search only: ${data.problem.message}\n`);
  const fence = createSensitiveFence({ home: cliHome(io), env: io.env, extra: [data.dir] });
  const { root } = await cliRoot(flags.root ?? '.', io, { fence });
  const q = core.grepQuery(query);
  if (q === null) {
    throw new UsageError(
      `the query must be ${core.GREP_LIMITS.minQueryChars}–${core.GREP_LIMITS.maxQueryChars} characters on one line`,
    );
  }
  let answer: Awaited<ReturnType<typeof core.grepFiles>>;
  try {
    answer = await core.grepFiles({
      root,
      query: q,
      fence,
      engine: engine as (typeof ENGINES)[number],
      caseSensitive: flags.caseSensitive === true,
      wholeWord: flags.word === true,
      regex: flags.regex === true,
      ...(flags.deadline !== undefined ? { limits: { timeBudgetMs: flags.deadline * 1000 } } : {}),
      ...(data.problem ? {} : { dataDir: data.dir }),
    });
  } catch (err) {
    if (err instanceof PatternError) throw new UsageError(`invalid pattern: ${err.message}`);
    if (err instanceof EngineUnavailableError) throw new UsageError(err.message);
    throw err;
  }
  if (flags.json) {
    await write(io.stdout, `${JSON.stringify(answer.payload)}\n`);
    for (const note of core.grepNotes(answer.payload, answer.detail)) io.stderr.write(`trawl: ${note}\n`);
  } else {
    // Each field on its own first: a newline in a file name would otherwise print as a row of its own.
    const field = (text: string) => fieldForTerminal(io.stdout, text);
    const shown = {
      ...answer.payload,
      results: answer.payload.results.map((r) => ({
        ...r,
        file: field(r.file),
        preview: field(r.preview),
        ...(r.label !== undefined ? { label: field(r.label) } : {}),
      })),
    };
    await write(io.stdout, `${forTerminal(io.stdout, core.formatGrepText(shown, answer.detail, q))}\n`);
  }
  if (answer.detail.fallback) io.stderr.write(`trawl: ${answer.detail.fallback}; the js engine answered\n`);
  // What this search extracted is written before the process ends (the store's own write waits for a quiet spell).
  await closeDocumentStores();
  return 0;
}

function parseSeconds(v: string): number {
  const n = Number(v);
  if (!Number.isFinite(n) || n <= 0)
    throw new UsageError(`--deadline expects a positive number of seconds, got '${v}'`);
  return n;
}
