import { compileGlob } from '../glob/glob.js';

/** Outcome of matching a path against ignore rules. */
export const enum Verdict {
  None = 0,
  Ignore = 1,
  Whitelist = 2,
}

interface Rule {
  regex: RegExp;
  negated: boolean;
  dirOnly: boolean;
  /** Matches the entry name alone (the pattern had no `/`), else the path relative to the rules' base. */
  basenameOnly: boolean;
  /** For a name rule: the exact name (`Makefile`) or the suffix after a leading `*` (`.o` of `*.o`). */
  literal?: { kind: 'exact' | 'suffix'; value: string };
}

/**
 * The compiled rules of one ignore file (`.gitignore`, `.ignore`, `.rgignore`, `info/exclude`) or of the
 * `-g` overrides, anchored at `base`. Git semantics: the last matching rule wins; `!` re-includes; a trailing
 * `/` restricts to directories; a pattern with a `/` before its end is anchored at `base`.
 *
 * Why it is shaped like this: most paths match no rule at all, so one union test per kind (name, path)
 * rejects them before any per-rule work (engine-notes: per-path rule matching is where a js walker loses).
 */
export class IgnoreRules {
  /** Exact names and `*suffix` rules answer from hash sets; a union regex covers the rest. */
  private readonly exactNames = new Set<string>();
  private readonly suffixes = new Set<string>();
  private readonly nameUnion: RegExp | null;
  private readonly pathUnion: RegExp | null;

  private constructor(
    readonly base: string,
    private readonly rules: Rule[],
  ) {
    for (const r of rules) {
      if (r.literal?.kind === 'exact') this.exactNames.add(r.literal.value);
      else if (r.literal?.kind === 'suffix') this.suffixes.add(r.literal.value);
    }
    this.nameUnion = union(rules.filter((r) => r.basenameOnly && !r.literal));
    this.pathUnion = union(rules.filter((r) => !r.basenameOnly));
  }

  /** Could any rule match? Cheap, and false for almost every path. */
  private mayMatch(relPath: string, name: string): boolean {
    if (this.exactNames.has(name)) return true;
    if (this.suffixes.size > 0) {
      // Suffix rules in practice start with '.' (`*.o`); test every dot-suffix, then the odd others.
      for (let i = name.indexOf('.'); i !== -1; i = name.indexOf('.', i + 1)) {
        if (this.suffixes.has(name.slice(i))) return true;
      }
      for (const suffix of this.suffixes) if (suffix[0] !== '.' && name.endsWith(suffix)) return true;
    }
    return (this.nameUnion?.test(name) ?? false) || (this.pathUnion?.test(relPath) ?? false);
  }

  get size(): number {
    return this.rules.length;
  }

  get hasWhitelist(): boolean {
    return this.rules.some((r) => r.negated);
  }

  /** `relPath` is relative to `base` with `/` separators; `name` is its last component. */
  match(relPath: string, name: string, isDir: boolean): Verdict {
    if (!this.mayMatch(relPath, name)) return Verdict.None;
    for (let i = this.rules.length - 1; i >= 0; i--) {
      const rule = this.rules[i]!;
      if (rule.dirOnly && !isDir) continue;
      if (rule.regex.test(rule.basenameOnly ? name : relPath)) {
        return rule.negated ? Verdict.Whitelist : Verdict.Ignore;
      }
    }
    return Verdict.None;
  }

  /** Parses ignore-file text; malformed lines are skipped (as git and ripgrep do). Null when no rules. */
  static parse(text: string, base: string, options: { caseInsensitive?: boolean } = {}): IgnoreRules | null {
    const rules: Rule[] = [];
    for (const rawLine of text.split('\n')) {
      const rule = parseLine(rawLine, options.caseInsensitive ?? false);
      if (rule) rules.push(rule);
    }
    return rules.length > 0 ? new IgnoreRules(base, rules) : null;
  }

  /**
   * ripgrep's `-g` overrides: gitignore syntax with inverted meaning (a plain glob includes, `!glob`
   * excludes). Returns rules whose Verdict.Ignore means "exclude" and Whitelist means "include".
   */
  static overrides(globs: string[], base: string, options: { caseInsensitive?: boolean } = {}): IgnoreRules | null {
    const rules: Rule[] = [];
    for (const glob of globs) {
      const inverted = glob.startsWith('!') ? glob.slice(1) : `!${glob}`;
      const rule = parseLine(inverted, options.caseInsensitive ?? false, { strict: true, original: glob });
      if (rule) rules.push(rule);
    }
    return rules.length > 0 ? new IgnoreRules(base, rules) : null;
  }
}

function union(rules: Rule[]): RegExp | null {
  if (rules.length === 0) return null;
  const flags = rules[0]!.regex.flags;
  return new RegExp(rules.map((r) => `(?:${r.regex.source})`).join('|'), flags);
}

/** `name` → exact; `*rest` with no other glob syntax → suffix. Case-insensitive rules stay regexes. */
function literalForm(glob: string): Rule['literal'] {
  const hasMeta = (t: string) => /[*?[\]{}\\]/.test(t);
  if (!hasMeta(glob)) return { kind: 'exact', value: glob };
  if (glob.startsWith('*') && glob.length > 1 && !hasMeta(glob.slice(1))) return { kind: 'suffix', value: glob.slice(1) };
  return undefined;
}

function parseLine(
  rawLine: string,
  caseInsensitive: boolean,
  strict?: { strict: true; original: string },
): Rule | null {
  let line = rawLine.endsWith('\r') ? rawLine.slice(0, -1) : rawLine;
  if (line.startsWith('#')) return null;
  line = trimUnescapedTrailingSpaces(line);
  if (line === '') return null;

  let negated = false;
  if (line.startsWith('!')) {
    negated = true;
    line = line.slice(1);
  } else if (line.startsWith('\\!') || line.startsWith('\\#')) {
    line = line.slice(1);
  }

  let anchored = false;
  if (line.startsWith('/')) {
    anchored = true;
    line = line.slice(1);
  }
  let dirOnly = false;
  if (line.endsWith('/')) {
    dirOnly = true;
    line = line.slice(0, -1);
    if (line.endsWith('\\')) line = line.slice(0, -1);
  }
  if (line === '') return null;

  let glob = line;
  let basenameOnly = false;
  if (!anchored && !glob.includes('/')) {
    basenameOnly = true;
  } else if (glob.startsWith('**/') && !glob.slice(3).includes('/')) {
    // `**/name` matches the name at any depth: the same as a slash-less pattern.
    basenameOnly = true;
    glob = glob.slice(3);
  }
  // `dir/**` matches what is inside `dir`, never `dir` itself.
  if (glob.endsWith('/**')) glob = `${glob}/*`;

  try {
    const regex = compileGlob(glob, { literalSeparator: true, caseInsensitive });
    const literal = basenameOnly && !caseInsensitive ? literalForm(glob) : undefined;
    return { regex, negated, dirOnly, basenameOnly, ...(literal ? { literal } : {}) };
  } catch (err) {
    if (strict) throw err;
    return null;
  }
}

function trimUnescapedTrailingSpaces(line: string): string {
  let end = line.length;
  while (end > 0 && (line[end - 1] === ' ' || line[end - 1] === '\t')) {
    if (end >= 2 && line[end - 2] === '\\') break;
    end--;
  }
  let out = line.slice(0, end);
  // An escaped trailing space keeps the space but loses the escape.
  if (out.endsWith('\\ ')) out = `${out.slice(0, -2)} `;
  return out;
}
