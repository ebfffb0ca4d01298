import { compileGlob } from '../glob/glob.js';

/** Outcome of matching a path against ignore rules. */
export enum Verdict {
  None = 0,
  Ignore = 1,
  Whitelist = 2,
}

interface Rule {
  /** Null for a literal name rule: `literal` answers it without a regex. */
  regex: RegExp | null;
  negated: boolean;
  dirOnly: boolean;
  /**
   * What the pattern is matched against: 'name' — the entry name at any depth (no `/` in the pattern);
   * 'child' — the name of a direct child of the base (`/name`); 'path' — the path relative to the base.
   */
  scope: 'name' | 'child' | 'path';
  /** For a name or child rule: the exact name (`Makefile`), a suffix (`.o` of `*.o`), a prefix (`.` of `.*`). */
  literal?: { kind: 'exact' | 'suffix' | 'prefix'; value: string };
}

/** The part of a name after its last dot ('' without one): the key suffix rules are filed under. */
function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot === -1 ? '' : name.slice(dot + 1);
}

/**
 * The compiled rules of one ignore file (`.gitignore`, `.ignore`, `.rgignore`, `info/exclude`) or of the
 * `-g` overrides, anchored at `base`. Git semantics: the last matching rule wins; `!` re-includes; a trailing
 * `/` restricts to directories; a pattern with a `/` before its end is anchored at `base`.
 *
 * Why it is shaped like this: most paths match no rule at all, so hash lookups (exact names, suffixes by
 * extension) and one union regex per kind reject them before any per-rule work; literal rules never
 * compile a regex (engine-notes: per-path rule matching is where a js walker loses to ripgrep).
 */
export class IgnoreRules {
  private readonly exactNames = new Set<string>();
  private readonly exactChildNames = new Set<string>();
  /** `*suffix` rules by the suffix's own extension: `*.mod.c` is filed under `c`. */
  private readonly suffixesByExtension = new Map<string, string[]>();
  private readonly prefixes: string[] = [];
  private readonly nameUnion: RegExp | null;
  private readonly childUnion: RegExp | null;
  private readonly pathUnion: RegExp | null;

  private constructor(
    readonly base: string,
    private readonly rules: Rule[],
  ) {
    for (const r of rules) {
      const lit = r.literal;
      if (!lit) continue;
      if (r.scope === 'child') this.exactChildNames.add(lit.value);
      else if (lit.kind === 'exact') this.exactNames.add(lit.value);
      else if (lit.kind === 'prefix') this.prefixes.push(lit.value);
      else {
        const key = lit.value.includes('.') ? extensionOf(lit.value) : '*';
        const list = this.suffixesByExtension.get(key) ?? [];
        list.push(lit.value);
        this.suffixesByExtension.set(key, list);
      }
    }
    this.nameUnion = union(rules.filter((r) => r.scope === 'name' && !r.literal));
    this.childUnion = union(rules.filter((r) => r.scope === 'child' && !r.literal));
    this.pathUnion = union(rules.filter((r) => r.scope === 'path'));
  }

  /** Could any rule match? Cheap, and false for almost every path. */
  private mayMatch(relPath: () => string, name: string, directChild: boolean): boolean {
    if (this.exactNames.has(name)) return true;
    if (this.suffixesByExtension.size > 0) {
      for (const suffix of this.suffixesByExtension.get(extensionOf(name)) ?? [])
        if (name.endsWith(suffix)) return true;
      for (const suffix of this.suffixesByExtension.get('*') ?? []) if (name.endsWith(suffix)) return true;
    }
    for (const prefix of this.prefixes) if (name.startsWith(prefix)) return true;
    if (directChild && (this.exactChildNames.has(name) || this.childUnion?.test(name))) return true;
    return (this.nameUnion?.test(name) ?? false) || (this.pathUnion?.test(relPath()) ?? false);
  }

  get size(): number {
    return this.rules.length;
  }

  get hasWhitelist(): boolean {
    return this.rules.some((r) => r.negated);
  }

  /**
   * `relPath` is relative to `base` with `/` separators (a string, or a function building it only if a
   * path rule needs it); `name` is its last component; `directChild`: the entry sits directly in `base`
   * (derived from `relPath` when not given).
   */
  match(relPath: string | (() => string), name: string, isDir: boolean, directChild?: boolean): Verdict {
    const rel = typeof relPath === 'string' ? () => relPath : relPath;
    const child = directChild ?? !rel().includes('/');
    if (!this.mayMatch(rel, name, child)) return Verdict.None;
    for (let i = this.rules.length - 1; i >= 0; i--) {
      const rule = this.rules[i]!;
      if (rule.dirOnly && !isDir) continue;
      if (ruleMatches(rule, name, rel, child)) return rule.negated ? Verdict.Whitelist : Verdict.Ignore;
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
  static overrides(
    globs: string[],
    base: string,
    options: { caseInsensitive?: boolean } = {},
  ): IgnoreRules | null {
    const rules: Rule[] = [];
    for (const glob of globs) {
      const inverted = glob.startsWith('!') ? glob.slice(1) : `!${glob}`;
      const rule = parseLine(inverted, options.caseInsensitive ?? false, { strict: true, original: glob });
      if (rule) rules.push(rule);
    }
    return rules.length > 0 ? new IgnoreRules(base, rules) : null;
  }
}

function ruleMatches(rule: Rule, name: string, relPath: () => string, directChild: boolean): boolean {
  if (rule.scope === 'child' && !directChild) return false;
  const lit = rule.literal;
  if (lit) {
    if (lit.kind === 'exact') return name === lit.value;
    return lit.kind === 'suffix' ? name.endsWith(lit.value) : name.startsWith(lit.value);
  }
  return rule.regex!.test(rule.scope === 'path' ? relPath() : name);
}

function union(rules: Rule[]): RegExp | null {
  if (rules.length === 0) return null;
  const flags = rules[0]!.regex!.flags;
  return new RegExp(rules.map((r) => `(?:${r.regex!.source})`).join('|'), flags);
}

/** `name` → exact; `*rest` → suffix; `rest*` → prefix (no other glob syntax). Case-insensitive rules stay regexes. */
function literalForm(glob: string): Rule['literal'] {
  const hasMeta = (t: string) => /[*?[\]{}\\]/.test(t);
  if (!hasMeta(glob)) return { kind: 'exact', value: glob };
  if (glob.length > 1 && glob.startsWith('*') && !hasMeta(glob.slice(1)))
    return { kind: 'suffix', value: glob.slice(1) };
  if (glob.length > 1 && glob.endsWith('*') && !hasMeta(glob.slice(0, -1)))
    return { kind: 'prefix', value: glob.slice(0, -1) };
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
  let scope: Rule['scope'] = 'path';
  if (anchored && glob === '**') {
    // `/**` is everything below the base at any depth (globset's reading), not the base's children only.
    scope = 'path';
  } else if (!glob.includes('/')) {
    scope = anchored ? 'child' : 'name';
  } else if (!anchored && glob.startsWith('**/') && !glob.slice(3).includes('/')) {
    // `**/name` matches the name at any depth: the same as a slash-less pattern.
    scope = 'name';
    glob = glob.slice(3);
  }
  // `dir/**` matches what is inside `dir`, never `dir` itself.
  if (glob.endsWith('/**')) glob = `${glob}/*`;

  // Literal rules skip the regex: any name rule, and exact-name child rules (the only child form filed).
  const literal = scope !== 'path' && !caseInsensitive ? literalForm(glob) : undefined;
  if (literal && (scope === 'name' || literal.kind === 'exact'))
    return { regex: null, negated, dirOnly, scope, literal };
  try {
    const regex = compileGlob(glob, { literalSeparator: true, caseInsensitive });
    return { regex, negated, dirOnly, scope };
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
