/** One or more separators: both `/` and `\` separate components on every platform. */
const SEPARATORS = /[\\/]+/;

export interface CompletionSegmentsOptions {
  /**
   * Apply Windows' name rules (default: `process.platform === 'win32'`): a component whose trailing dots or spaces
   * Win32 would strip (`"src "`, `"src."`, `".. "`), or that holds a `:` (an alternate data stream), is refused,
   * because the check and the OS would disagree about which name it is.
   */
  windows?: boolean;
}

/**
 * Decides, without touching the filesystem, which directory under `root` a typed `dir` prefix names: the
 * components below `root`, or `null` when it names nothing under it.
 *
 * `root` is the canonical, server-held project root; `dir` is what the user typed (`./`, `../src/`, `.\a\`).
 * The walk starts from the root's own components and applies the typed ones: empty and `.` are skipped, `..` pops
 * (popping past the filesystem root refuses), anything else is pushed. The answer is judged on where the run ENDS:
 * `../<project>/src/` comes back inside and is allowed; `../sibling/` is refused. Refused outright: a `dir` that
 * starts with a separator of either kind (absolute on some platform, or UNC-shaped), one with a drive prefix
 * (`C:` — even drive-relative `C:x`), and a NUL anywhere. `~` is an ordinary name: nothing is expanded.
 *
 * The root's components are compared case-sensitively: a run that re-enters through a differently cased spelling
 * is refused rather than guessed at.
 */
export function completionSegments(
  root: string,
  dir: string,
  options: CompletionSegmentsOptions = {},
): string[] | null {
  const windows = options.windows ?? process.platform === 'win32';
  if (dir.includes('\0') || root.includes('\0')) return null;
  if (dir.length > 0 && (dir[0] === '/' || dir[0] === '\\')) return null;
  if (/^[A-Za-z]:/.test(dir)) return null;
  const rootParts = root.split(SEPARATORS).filter((s) => s.length > 0);
  const walked = rootParts.slice();
  for (const part of dir.split(SEPARATORS)) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (walked.length === 0) return null;
      walked.pop();
      continue;
    }
    if (windows && (/[. ]$/.test(part) || part.includes(':'))) return null;
    walked.push(part);
  }
  if (walked.length < rootParts.length) return null;
  for (let i = 0; i < rootParts.length; i++) if (walked[i] !== rootParts[i]) return null;
  return walked.slice(rootParts.length);
}

/**
 * Splits a completion token (`./src/ap`, `../proj/`, `.\a\b`) into the directory prefix the user has typed and the
 * partial entry name after its last separator.
 */
export function splitCompletionToken(token: string): { dir: string; q: string } {
  let cut = -1;
  for (let i = token.length - 1; i >= 0; i--) {
    const c = token[i];
    if (c === '/' || c === '\\') {
      cut = i;
      break;
    }
  }
  if (cut < 0) return { dir: '', q: token };
  return { dir: token.slice(0, cut + 1), q: token.slice(cut + 1) };
}
