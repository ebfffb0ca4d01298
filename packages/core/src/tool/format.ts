/**
 * The text a model reads. Shapes: a match is `*N:text`, a context line ` N:text` under a file
 * with a hashline tag, `*N|text` / ` N|text` otherwise (and always in plain mode); `...` marks skipped lines.
 * A single-file result starts with `¶path#TAG` (or `# path` when untagged); a multi-file result groups files
 * under `# dir/` + `## name#TAG` headings, a file at the top level gets `# name#TAG`, and a file whose
 * directory heading was already printed above a subdirectory's gets `# dir/name#TAG` (headings never repeat).
 */

/** The output's shape (above): `hashline` (tags for editable files, the default) or `plain` (`*N|` lines only). */
export type OutputFormat = 'hashline' | 'plain';

export interface ShownLine {
  n: number;
  text: string;
  match: boolean;
}

export interface ShownFile {
  /** The path as shown: relative to cwd, absolute outside it, `archive:member`, or a URL. */
  display: string;
  kind: 'file' | 'archive' | 'resource';
  /** Hashline tag, or null when the file is shown without one (archive members, virtual content, big files). */
  tag: string | null;
  lines: ShownLine[];
}

/** One output line and what it shows, so a byte cap can say exactly where it cut. */
export interface Row {
  text: string;
  /** Index of the file (in page order) this row belongs to or introduces. */
  file: number;
  /** Line number, for rows that show a file line. */
  line?: number;
  match?: boolean;
}

export function renderRows(
  files: readonly ShownFile[],
  options: { single: boolean; format: OutputFormat },
): Row[] {
  const rows: Row[] = [];
  if (options.single) {
    const f = files[0];
    if (!f) return rows;
    rows.push({ text: singleHeading(f, options.format), file: 0 });
    pushLines(rows, f, 0, options.format);
    return rows;
  }
  let openDir: string | null = null;
  // A directory's heading is printed once a page. Files come in path order, so a subdirectory can sort
  // between two files of its parent (`v3/b.ts`, `v3/tests/t.ts`, `v3/z.ts`); the parent's later files are
  // then shown by their full path rather than under a repeated `# v3/` (issue 11 item 11). Only the
  // presentation changes: the order, and with it paging and the byte cap's arithmetic, stays the walk's.
  const headed = new Set<string>();
  files.forEach((f, k) => {
    const { dir, name } = splitDisplay(f);
    const tag = options.format === 'hashline' && f.tag ? `#${f.tag}` : '';
    if (dir === null || (dir !== openDir && headed.has(dir))) {
      if (rows.length > 0) rows.push({ text: '', file: k });
      rows.push({ text: `# ${dir === null ? name : f.display}${tag}`, file: k });
      openDir = null;
    } else {
      if (dir !== openDir) {
        if (rows.length > 0) rows.push({ text: '', file: k });
        rows.push({ text: `# ${dir}`, file: k });
        openDir = dir;
        headed.add(dir);
      }
      rows.push({ text: `## ${name}${tag}`, file: k });
    }
    pushLines(rows, f, k, options.format);
  });
  return rows;
}

function singleHeading(f: ShownFile, format: OutputFormat): string {
  return format === 'hashline' && f.tag ? `¶${f.display}#${f.tag}` : `# ${f.display}`;
}

function pushLines(rows: Row[], f: ShownFile, k: number, format: OutputFormat): void {
  const sep = format === 'hashline' && f.tag ? ':' : '|';
  let prev = -1;
  for (const l of f.lines) {
    if (prev !== -1 && l.n !== prev + 1) rows.push({ text: '...', file: k });
    rows.push({ text: `${l.match ? '*' : ' '}${l.n}${sep}${l.text}`, file: k, line: l.n, match: l.match });
    prev = l.n;
  }
}

/**
 * Directory heading (with trailing `/`) and name; `dir` is null for files shown with their full path
 * (top-level files, URLs, members at an archive's top level).
 */
export function splitDisplay(f: Pick<ShownFile, 'display' | 'kind'>): { dir: string | null; name: string } {
  const d = f.display;
  if (f.kind === 'resource') return { dir: null, name: d };
  let from = 0;
  if (f.kind === 'archive') {
    from = d.lastIndexOf(':') + 1;
  }
  const slash = d.lastIndexOf('/');
  if (slash < from || slash === -1) return { dir: null, name: d };
  return { dir: d.slice(0, slash + 1), name: d.slice(slash + 1) };
}
