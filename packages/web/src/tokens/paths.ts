/**
 * Path arithmetic the composer needs without a file system: joining a typed rel onto a project root, making a
 * result row's path relative to the searched root, and short, distinct labels for chips.
 */

const DRIVE_RE = /^[A-Za-z]:[\\/]/;
const TRAILING_SEPS_RE = /[\\/]+$/;

/** A project spelled the Windows way (drive letter, UNC, or only backslashes) joins and labels with `\`. */
export function isWindowsShaped(path: string): boolean {
  return DRIVE_RE.test(path) || path.startsWith('\\\\') || (path.includes('\\') && !path.includes('/'));
}

function isAbsolute(path: string): boolean {
  return path.startsWith('/') || path.startsWith('\\') || DRIVE_RE.test(path);
}

/**
 * Lexical normalisation in one separator: `.` segments dropped, `..` folded into its parent (never above the root
 * of an absolute path), repeated separators collapsed. A leading `\\` (UNC) is kept.
 */
function normalise(path: string, sep: '/' | '\\'): string {
  const unc = path.startsWith('\\\\') || path.startsWith('//');
  const drive = DRIVE_RE.exec(path)?.[0].slice(0, 2) ?? '';
  const rest = path.slice(unc ? 2 : drive.length);
  const absolute = unc || drive !== '' || rest.startsWith('/') || rest.startsWith('\\');
  const parts: string[] = [];
  for (const seg of rest.split(/[\\/]+/)) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') {
      if (parts.length > 0 && parts[parts.length - 1] !== '..') parts.pop();
      else if (!absolute) parts.push('..');
      continue;
    }
    parts.push(seg);
  }
  const head = unc ? sep + sep : drive + (absolute ? sep : '');
  return head + parts.join(sep);
}

/**
 * The absolute path a folder token names: `rel` joined onto `project` and normalised (no `/./`, `..` folded, one
 * separator style — the project's; the study kept `/repo/./src` and `C:\repo\src/pages`). An absolute rel
 * (the picker's fallback for a row outside the root) stands alone; with no project the rel is returned trimmed.
 * `~` is an ordinary name here: home is never a root the composer expands.
 */
export function dirFullPath(rel: string, project: string): string {
  const trimmed = rel.replace(TRAILING_SEPS_RE, '');
  if (trimmed === '') return rel;
  const base = project.replace(TRAILING_SEPS_RE, '');
  const sep = isWindowsShaped(isAbsolute(trimmed) ? trimmed : project) ? '\\' : '/';
  if (isAbsolute(trimmed)) return normalise(trimmed, sep);
  if (base === '' && project === '') return trimmed;
  return normalise(`${base === '' ? project : base}${sep}${trimmed}`, sep);
}

/**
 * `path` relative to `root` when it lies under it (exact, case-sensitive prefix), else `path` unchanged (the picker
 * then inserts an absolute token). An empty root leaves every path unchanged.
 */
export function makeRelative(path: string, root: string): string {
  if (root === '') return path;
  const sep = root.includes('\\') && !root.includes('/') ? '\\' : '/';
  const prefix = root.endsWith('/') || root.endsWith('\\') ? root : root + sep;
  return path.startsWith(prefix) ? path.slice(prefix.length) : path;
}

/**
 * Basename-first labels that widen by parent segments while another path shares the label: `/a/pages` and
 * `/b/pages` → `a/pages`, `b/pages`. Separators are normalised to `/` and trailing ones ignored, so Windows paths
 * label by segment. Identical strings do not force each other to widen.
 */
export function buildFileLabels(paths: readonly string[]): string[] {
  const segs = paths.map((p) => {
    const s = p.replace(/\\/g, '/').replace(/\/+$/, '').split('/');
    return s.length === 0 ? [p] : s;
  });
  const labelAt = (i: number, depth: number): string => segs[i]!.slice(-depth).join('/');
  return paths.map((p, i) => {
    const max = Math.max(1, segs[i]!.length);
    let depth = 1;
    while (
      depth < max &&
      paths.some((q, j) => j !== i && q !== p && labelAt(j, depth) === labelAt(i, depth))
    ) {
      depth += 1;
    }
    const label = labelAt(i, depth);
    return label === '' ? p : label;
  });
}
