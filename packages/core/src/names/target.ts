/**
 * Candidates prepared for the name scorer: a {@link NameTarget} holds what every tier reads of one path (its
 * lowercase form, where its name starts, its dots, the character masks that rule a candidate out before any
 * scoring), and the character classes the tiers share.
 */

/** The `/` character code. */
export const SLASH = 47;

/** A candidate, prepared once (the index keeps these; the walk builds one per scored entry). */
export class NameTarget {
  /** `rel` lowercased, same length (the same string when `rel` has no capitals). */
  readonly lower: string;
  /** Offset of the basename in `rel`. */
  readonly nameStart: number;
  /** Absolute offsets of the first and last dot in the basename (a leading dot counts), or -1. */
  readonly firstDot: number;
  readonly lastDot: number;
  /** Character masks (see {@link charMask}) of the basename and of the whole path. */
  readonly nameMask: number;
  readonly pathMask: number;
  /**
   * For a directory's main file — named `index.*`, `__init__.*`, `mod.rs`, or after its directory
   * (`Button/Button.tsx`, `linter/linter.js`) — the directory it stands for: the file also scores as that
   * directory, and wins the tie (files before directories).
   */
  readonly main: NameTarget | undefined;
  private compact: string | undefined;
  private compactStems = -1;

  /**
   * @param rel path relative to the search root, `/`-separated, original case
   * @param dirMask the {@link charMask} of the directory part, when the caller has it
   * @param parent the directory's own target, when the caller has it (used for main files)
   */
  constructor(
    readonly rel: string,
    readonly isDir: boolean,
    dirMask?: number,
    parent?: NameTarget,
    dir?: DirectoryPrefix,
    /** Identifies the directory among its siblings' targets (-1: unknown), for per-directory caches. */
    readonly dirKey = -1,
  ) {
    let lower: string;
    let nameStart: number;
    if (dir) {
      // the directory part is already known in lowercase: only the name needs looking at
      nameStart = dir.length;
      lower = dir.lower === undefined && !hasUpperOrNonAscii(rel, nameStart) ? rel : lowerSameLength(rel);
    } else {
      lower = hasUpperOrNonAscii(rel) ? lowerSameLength(rel) : rel;
      nameStart = rel.lastIndexOf('/') + 1;
    }
    const firstDot = lower.indexOf('.', nameStart);
    this.lower = lower;
    this.nameStart = nameStart;
    this.firstDot = firstDot;
    this.lastDot = firstDot < 0 ? -1 : lower.lastIndexOf('.');
    this.nameMask = charMask(lower, nameStart);
    this.pathMask = this.nameMask | (dirMask ?? charMask(lower, 0, nameStart));
    this.main =
      !isDir && nameStart > 1 && isMainFileName(lower, nameStart, firstDot)
        ? (parent ?? new NameTarget(rel.slice(0, nameStart - 1), true))
        : undefined;
    this.compact = undefined;
  }

  /** The basename lowercased with separators (`. _ -` and spaces) removed. */
  get compactName(): string {
    if (this.compact === undefined) {
      this.compact = compactOf(this.lower, this.nameStart);
      const last = this.lastDot < 0 ? 0xffff : compactLength(this.lower, this.nameStart, this.lastDot);
      const first = this.firstDot < 0 ? 0xffff : compactLength(this.lower, this.nameStart, this.firstDot);
      this.compactStems = last * 0x10000 + first;
    }
    return this.compact;
  }

  /** Length in {@link compactName} of the name up to its last dot (-1 when no dot). */
  get compactLastStem(): number {
    if (this.compact === undefined) void this.compactName;
    const v = Math.floor(this.compactStems / 0x10000);
    return v === 0xffff ? -1 : v;
  }

  /** Length in {@link compactName} of the name up to its first dot (-1 when no dot). */
  get compactFirstStem(): number {
    if (this.compact === undefined) void this.compactName;
    const v = this.compactStems % 0x10000;
    return v === 0xffff ? -1 : v;
  }
}

/** A directory's path prefix as its children see it: `length` of `dir/`, `lower` set when it has capitals. */
export interface DirectoryPrefix {
  readonly length: number;
  readonly lower: string | undefined;
}

export function hasUpperOrNonAscii(s: string, from = 0): boolean {
  for (let i = from; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if ((c >= 65 && c <= 90) || c >= 128) return true;
  }
  return false;
}

/** Lowercases without changing length (a character whose lowercase form is longer is kept as is). */
export function lowerSameLength(s: string): string {
  const l = s.toLowerCase();
  if (l.length === s.length) return l;
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    const lc = c.toLowerCase();
    out += lc.length === 1 ? lc : c;
  }
  return out;
}

/**
 * Which characters a string holds: a-z one bit each, digits in pairs (bits 26-30), anything non-ASCII bit 31.
 * Separators and punctuation are not counted: the separator-blind tiers may skip them.
 */
export function charMask(s: string, from = 0, to = s.length): number {
  let m = 0;
  for (let i = from; i < to; i++) {
    const c = s.charCodeAt(i);
    if (c >= 97 && c <= 122) m |= 1 << (c - 97);
    else if (c >= 48 && c <= 57) m |= 1 << (26 + ((c - 48) >> 1));
    else if (c >= 65 && c <= 90) m |= 1 << (c - 65);
    else if (c >= 128) m |= 1 << 31;
  }
  return m;
}

export function isSeparator(c: number): boolean {
  return c === 46 || c === 95 || c === 45 || c === 32; // . _ - space
}

/** The first character of `s` from `from` that is not a separator (the first of its compact form), or -1. */
export function firstCompactChar(s: string, from: number): number {
  for (let i = from; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (!isSeparator(c)) return c;
  }
  return -1;
}

export function compactOf(s: string, from = 0, to = s.length): string {
  let out = '';
  let start = from;
  for (let i = from; i < to; i++) {
    if (isSeparator(s.charCodeAt(i))) {
      if (i > start) out += s.slice(start, i);
      start = i + 1;
    }
  }
  if (to > start) out += s.slice(start, to);
  return out;
}

function compactLength(s: string, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) if (!isSeparator(s.charCodeAt(i))) n++;
  return n;
}

/** Prepares a candidate (see {@link NameTarget}). */
export function nameTarget(rel: string, isDir: boolean, dirMask?: number, parent?: NameTarget): NameTarget {
  return new NameTarget(rel, isDir, dirMask, parent);
}

/** The prefix record of directory `rel` (`''` = the root) for {@link NameTarget}'s fast path. */
export function directoryPrefix(rel: string): DirectoryPrefix {
  if (rel === '') return { length: 0, lower: undefined };
  return { length: rel.length + 1, lower: hasUpperOrNonAscii(rel) ? lowerSameLength(rel) : undefined };
}

/** Is `lower`'s basename `index.*`, `__init__.*`, `mod.*`, or its directory's name plus an extension? */
export function isMainFileName(lower: string, nameStart: number, firstDot: number): boolean {
  if (firstDot <= nameStart) return false;
  const stemLen = firstDot - nameStart;
  if (stemLen === 5 && lower.startsWith('index', nameStart)) return true;
  if (stemLen === 8 && lower.startsWith('__init__', nameStart)) return true;
  if (stemLen === 3 && lower.startsWith('mod', nameStart)) return true;
  const parentStart = lower.lastIndexOf('/', nameStart - 2) + 1;
  if (nameStart - 1 - parentStart !== stemLen) return false;
  for (let i = 0; i < stemLen; i++) {
    if (lower.charCodeAt(parentStart + i) !== lower.charCodeAt(nameStart + i)) return false;
  }
  return true;
}

export function isLowerAscii(c: number): boolean {
  return c >= 97 && c <= 122;
}
export function isUpperAscii(c: number): boolean {
  return c >= 65 && c <= 90;
}
export function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}
