/**
 * Lenient repairs for patterns typed by people and models (the search tool's contract, docs/search-tool.md):
 *
 * 1. Brace rule: a `{` that cannot start a repetition `{N}`, `{N,}`, `{N,M}` is a literal `{`, a stray `}`
 *    a literal `}`. Escapes and the braced bodies of `\p{…}`, `\P{…}`, `\x{…}`, `\u{…}`, `\U{…}` and rg 15's
 *    `\b{start}`-style assertions are left alone. Unlike the reference, a `$` right before a literalised `{`
 *    becomes a literal `$` too, so `${name}` matches the text `${name}` instead of never matching.
 * 2. Paren retry: after an unclosed/unopened group error only, the unbalanced `(` or `)` is escaped (the
 *    reference escapes every paren, which silently turns real groups into literals). The retry is made only
 *    when its meaning is the literal reading of what was typed: not for a `(` that opens group syntax (`(?P<x>`
 *    escaped is `\(?P<x>`, an optional parenthesis), and not beside an alternation in the same scope
 *    (`(foo|bar` escaped is "(foo" or "bar", neither reading); those are refused with the readings spelled out.
 */

const HEX_OR_PROPERTY_ESCAPES = new Set(['p', 'P', 'x', 'u', 'U']);

const REPETITION = /^\{[0-9]+(?:,[0-9]*)?\}/;
/** With `(?x)` somewhere, Rust also accepts whitespace inside the braces (`a{ 2, 3 }`). */
const REPETITION_X = /^\{\s*[0-9]+\s*(?:,\s*(?:[0-9]+\s*)?)?\}/;

/** `{N}`, `{N,}` or `{N,M}` at `i` (the `{`); returns its length or 0. */
function repetitionLength(pattern: string, i: number, xMode: boolean): number {
  const m = (xMode ? REPETITION_X : REPETITION).exec(pattern.slice(i, i + 60));
  return m ? m[0].length : 0;
}

/** Whether the text already emitted ends with something a repetition can apply to. */
function endsWithRepeatable(out: string): boolean {
  if (out.length === 0) return false;
  const last = out[out.length - 1]!;
  if (last !== '(' && last !== '|') return true;
  // An escaped `\(` or `\|` is a literal, which is repeatable.
  let backslashes = 0;
  for (let k = out.length - 2; k >= 0 && out[k] === '\\'; k--) backslashes++;
  return backslashes % 2 === 1;
}

/** A repaired pattern and, for each of its UTF-16 indices (plus its end), the index in the input. */
export interface Repaired {
  text: string;
  map: number[];
}

class Builder {
  text = '';
  readonly map: number[] = [];
  add(s: string, from: number): void {
    for (let k = 0; k < s.length; k++) this.map.push(from + k);
    this.text += s;
  }
  /** Inserted text (an added backslash) maps to the input character it escapes. */
  insert(s: string, at: number): void {
    for (let k = 0; k < s.length; k++) this.map.push(at);
    this.text += s;
  }
  /** Drops the last emitted UTF-16 unit. */
  unadd(): void {
    this.text = this.text.slice(0, -1);
    this.map.pop();
  }
  done(end: number): Repaired {
    return { text: this.text, map: [...this.map, end] };
  }
}

export function applyBraceRule(pattern: string): Repaired {
  const b = new Builder();
  const xMode = /\(\?[imsUuR-]*x/.test(pattern);
  let classDepth = 0;
  let i = 0;
  /** An unescaped `$` was the last thing emitted (at input index `dollarFrom`). */
  let dollarFrom = -1;
  while (i < pattern.length) {
    const ch = pattern[i]!;
    const wasDollar = dollarFrom;
    dollarFrom = -1;
    if (ch === '\\') {
      const next = pattern[i + 1];
      if (next === undefined) {
        b.add(ch, i);
        i++;
        continue;
      }
      const afterEscape = i + 2;
      if ((HEX_OR_PROPERTY_ESCAPES.has(next) || next === 'b') && pattern[afterEscape] === '{') {
        const close = pattern.indexOf('}', afterEscape);
        const body = close < 0 ? pattern.slice(afterEscape + 1) : pattern.slice(afterEscape + 1, close);
        if (next !== 'b' || /^[A-Za-z-]+$/.test(body)) {
          // Malformed bodies (no `}`) are left for the parser to report.
          const end = close < 0 ? pattern.length : close + 1;
          b.add(pattern.slice(i, end), i);
          i = end;
          continue;
        }
      }
      b.add(ch + next, i);
      i += 2;
      continue;
    }
    if (classDepth > 0) {
      if (ch === '[') classDepth++;
      else if (ch === ']') classDepth--;
      b.add(ch, i);
      i++;
      continue;
    }
    if (ch === '[') {
      classDepth = 1;
      b.add(ch, i);
      i++;
      // A `]` right after `[` or `[^` is a literal member, not the end.
      if (pattern[i] === '^') {
        b.add('^', i);
        i++;
      }
      if (pattern[i] === ']') {
        b.add(']', i);
        i++;
      }
      continue;
    }
    if (ch === '{') {
      const len = repetitionLength(pattern, i, xMode);
      if (len > 0 && endsWithRepeatable(b.text)) {
        b.add(pattern.slice(i, i + len), i);
        i += len;
        continue;
      }
      if (wasDollar >= 0) {
        b.unadd();
        b.insert('\\', wasDollar);
        b.add('$', wasDollar);
      }
      b.insert('\\', i);
      b.add('{', i);
      i++;
      continue;
    }
    if (ch === '}') {
      b.insert('\\', i);
      b.add('}', i);
      i++;
      continue;
    }
    if (ch === '$') dollarFrom = i;
    b.add(ch, i);
    i++;
  }
  return b.done(pattern.length);
}

/** The paren retry's answer: the repaired pattern, or why no repair keeps the pattern's meaning. */
export type ParenRepair = { ok: true; repaired: Repaired } | { ok: false; reason: string };

/**
 * Escapes only the parentheses that have no partner: a `)` with no open group before it, and each `(` still
 * open at the end. Real groups keep their meaning (`\.(get|post)(` → `\.(get|post)\(`). Parentheses
 * inside a character class are literal already and never pair. Refused where escaping would not be the
 * literal reading (see the module comment).
 */
export function escapeUnbalancedParens(pattern: string): ParenRepair {
  const lone = loneParens(pattern);
  for (const i of lone) {
    if (pattern[i] === '(' && pattern[i + 1] === '?') {
      return {
        ok: false,
        reason: `the group opened at "${pattern.slice(i, i + 16)}" is never closed; close it with ")", or write "\\(\\?" for the literal text`,
      };
    }
  }
  const b = new Builder();
  for (let i = 0; i < pattern.length; i++) {
    if (lone.has(i)) b.insert('\\', i);
    b.add(pattern[i]!, i);
  }
  const repaired = b.done(pattern.length);
  if (alternationBesideEscape(repaired.text, new Set([...lone].map((i) => repaired.map.indexOf(i) + 1)))) {
    const closers = [...lone].filter((i) => pattern[i] === ')').length;
    const group = `${'('.repeat(closers)}${pattern}${')'.repeat(lone.size - closers)}`;
    const literal = escapeBars(repaired.text);
    return {
      ok: false,
      reason: `an unbalanced parenthesis beside "|" has two readings, the group "${group}" or the literal text "${literal}"; write the one you mean`,
    };
  }
  return { ok: true, repaired };
}

/** Input indices of the parentheses with no partner. */
function loneParens(pattern: string): Set<number> {
  const lone = new Set<number>();
  const open: number[] = [];
  let classDepth = 0;
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i]!;
    if (ch === '\\') {
      i++;
    } else if (classDepth > 0) {
      if (ch === '[') classDepth++;
      else if (ch === ']') classDepth--;
    } else if (ch === '[') {
      classDepth = 1;
      if (pattern[i + 1] === '^') i++;
      if (pattern[i + 1] === ']') i++;
    } else if (ch === '(') {
      open.push(i);
    } else if (ch === ')') {
      if (open.length > 0) open.pop();
      else lone.add(i);
    }
  }
  for (const i of open) lone.add(i);
  return lone;
}

/**
 * Walks a balanced pattern's scopes (the root and each group) and reports whether an unescaped `|` shares a
 * scope with one of the escaped parentheses at `escapes` (indices of their `(`/`)` in `text`).
 */
function alternationBesideEscape(text: string, escapes: ReadonlySet<number>): boolean {
  const scopes: number[] = [0];
  let next = 1;
  const withEscape = new Set<number>();
  const withBar = new Set<number>();
  let classDepth = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === '\\') {
      if (escapes.has(i + 1)) withEscape.add(scopes.at(-1)!);
      i++;
    } else if (classDepth > 0) {
      if (ch === '[') classDepth++;
      else if (ch === ']') classDepth--;
    } else if (ch === '[') {
      classDepth = 1;
      if (text[i + 1] === '^') i++;
      if (text[i + 1] === ']') i++;
    } else if (ch === '(') {
      scopes.push(next++);
    } else if (ch === ')') {
      if (scopes.length > 1) scopes.pop();
    } else if (ch === '|') {
      withBar.add(scopes.at(-1)!);
    }
  }
  return [...withEscape].some((scope) => withBar.has(scope));
}

/** The pattern with its unescaped `|` outside classes escaped: the literal reading of the bars. */
function escapeBars(text: string): string {
  let out = '';
  let classDepth = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === '\\') {
      out += text.slice(i, i + 2);
      i++;
      continue;
    }
    if (classDepth > 0) {
      if (ch === '[') classDepth++;
      else if (ch === ']') classDepth--;
    } else if (ch === '[') classDepth = 1;
    else if (ch === '|') out += '\\';
    out += ch;
  }
  return out;
}

/** Composes position maps: `outer` indexes `inner.text`. */
export function composeMaps(inner: number[], outer: number[]): number[] {
  return outer.map((k) => inner[k] ?? inner[inner.length - 1] ?? 0);
}
