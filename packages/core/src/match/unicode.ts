/**
 * Unicode knowledge the translator needs, taken from V8 itself so the JS regex and our analysis agree:
 * property-name resolution with Rust's loose matching, Rust's `\w`/`\d`/`\s` sets, and simple case folding.
 */

import { FOLD_CLASSES } from './fold-table.js';
import type { Atom } from './hir.js';
import { BINARY_PROPERTIES, GENERAL_CATEGORIES, SCRIPTS } from './unicode-names.js';

/** Rust `\w` in Unicode mode (UTS#18 Annex C): Alphabetic, Mark, Decimal_Number, Connector_Punctuation, Join_Control. */
export const WORD_ATOMS: readonly Atom[] = [
  { t: 'prop', js: 'Alphabetic' },
  { t: 'prop', js: 'gc=Mark' },
  { t: 'prop', js: 'gc=Decimal_Number' },
  { t: 'prop', js: 'gc=Connector_Punctuation' },
  { t: 'prop', js: 'Join_Control' },
];
/** Rust `\d` in Unicode mode. */
export const DIGIT_ATOMS: readonly Atom[] = [{ t: 'prop', js: 'gc=Decimal_Number' }];
/** Rust `\s` in Unicode mode: the White_Space property (JS `\s` differs: it has U+FEFF and lacks U+0085). */
export const SPACE_ATOMS: readonly Atom[] = [{ t: 'prop', js: 'White_Space' }];

/** JS source of one Unicode word character, for the `\b` lookarounds. */
export const WORD_CLASS_SOURCE =
  '[\\p{Alphabetic}\\p{gc=Mark}\\p{gc=Decimal_Number}\\p{gc=Connector_Punctuation}\\p{Join_Control}]';
export const ASCII_WORD_CLASS_SOURCE = '[0-9A-Za-z_]';

const whiteSpace = /^\p{White_Space}$/u;
/** Rust's `char::is_whitespace`, which `(?x)` uses to skip pattern text. */
export function isWhiteSpace(cp: number): boolean {
  return whiteSpace.test(String.fromCodePoint(cp));
}

/** regex-syntax's `symbolic_name_normalize`: ASCII only, no ' ', '_', '-', lower case, no leading "is". */
export function normalisePropertyName(name: string): string {
  let start = 0;
  const startsWithIs = name.length >= 2 && name.slice(0, 2).toLowerCase() === 'is';
  if (startsWithIs) start = 2;
  let out = '';
  for (const ch of name.slice(start)) {
    if (ch === ' ' || ch === '_' || ch === '-') continue;
    const code = ch.codePointAt(0)!;
    if (code > 0x7f) continue;
    out += ch.toLowerCase();
  }
  // 'isc' is ISO_Comment's alias, which the prefix rule would otherwise turn into 'c' (Other).
  if (startsWithIs && out === 'c') return 'isc';
  return out;
}

const SPECIAL_CLASSES: Readonly<Record<string, string>> = {
  any: 'Any',
  ascii: 'ASCII',
  assigned: 'Assigned',
};
/** Binary properties Rust's regex knows and V8 does not (normalised names and aliases). */
const RUST_ONLY_BINARY = new Set([
  'otheralphabetic',
  'oalpha',
  'otherdefaultignorablecodepoint',
  'odi',
  'othergraphemeextend',
  'ogrext',
  'otheridcontinue',
  'oidc',
  'otheridstart',
  'oids',
  'otherlowercase',
  'olower',
  'othermath',
  'omath',
  'otheruppercase',
  'oupper',
  'prependedconcatenationmark',
  'pcm',
  'hyphen',
  'graphemelink',
  'grlink',
]);
const UNSUPPORTED_PROPERTIES = new Set([
  'age',
  'wordbreak',
  'wb',
  'graphemeclusterbreak',
  'gcb',
  'sentencebreak',
  'sb',
]);

export type PropertyResult = { ok: true; atom: Atom } | { ok: false; message: string };

function v8Accepts(body: string): boolean {
  try {
    new RegExp(`\\p{${body}}`, 'u');
    return true;
  } catch {
    return false;
  }
}

function checked(body: string, shown: string): PropertyResult {
  if (v8Accepts(body)) return { ok: true, atom: { t: 'prop', js: body } };
  return { ok: false, message: `Unicode property ${shown} is not supported by JavaScript's RegExp` };
}

/**
 * Resolves `\pL`, `\p{Greek}`, `\p{sc=Greek}`, `\p{gc!=Lu}`… the way regex-syntax does: a bare name is tried as a
 * binary property (except cf, sc, lc), then a general category, then a script. Returns the positive atom; the
 * caller applies `!=` and `\P` negation.
 */
export function resolveProperty(name: string, value: string | null): PropertyResult {
  const shown = value === null ? name : `${name}=${value}`;
  if (value === null) {
    const norm = normalisePropertyName(name);
    const special = SPECIAL_CLASSES[norm];
    if (special) return checked(special, shown);
    const binary = norm !== 'cf' && norm !== 'sc' && norm !== 'lc' ? BINARY_PROPERTIES[norm] : undefined;
    if (binary) return checked(binary, shown);
    const gc = GENERAL_CATEGORIES[norm];
    if (gc) return checked(`gc=${gc}`, shown);
    const sc = SCRIPTS[norm];
    if (sc) return checked(`sc=${sc}`, shown);
    // Scripts newer than our name table: V8 may still know the exact spelling.
    if (/^[A-Za-z_]+$/.test(name) && v8Accepts(`sc=${name}`))
      return { ok: true, atom: { t: 'prop', js: `sc=${name}` } };
    if (RUST_ONLY_BINARY.has(norm)) {
      return { ok: false, message: `Unicode property ${shown} is not supported by JavaScript's RegExp` };
    }
    return { ok: false, message: `Unicode property not found: ${shown}` };
  }
  const prop = normalisePropertyName(name);
  const val = normalisePropertyName(value);
  if (prop === 'generalcategory' || prop === 'gc') {
    const special = SPECIAL_CLASSES[val];
    if (special) return checked(special, shown);
    const gc = GENERAL_CATEGORIES[val];
    return gc
      ? checked(`gc=${gc}`, shown)
      : { ok: false, message: `Unicode property value not found: ${shown}` };
  }
  if (prop === 'script' || prop === 'sc' || prop === 'scriptextensions' || prop === 'scx') {
    const key = prop === 'script' || prop === 'sc' ? 'sc' : 'scx';
    const sc = SCRIPTS[val];
    if (sc) return checked(`${key}=${sc}`, shown);
    if (/^[A-Za-z_]+$/.test(value) && v8Accepts(`${key}=${value}`))
      return { ok: true, atom: { t: 'prop', js: `${key}=${value}` } };
    return { ok: false, message: `Unicode property value not found: ${shown}` };
  }
  if (UNSUPPORTED_PROPERTIES.has(prop)) {
    return { ok: false, message: `Unicode property ${shown} is not supported by JavaScript's RegExp` };
  }
  return { ok: false, message: `Unicode property not found: ${shown}` };
}

// --- simple case folding -------------------------------------------------------------------------------------

let foldTable: Map<number, readonly number[]> | undefined;

function loadFoldTable(): Map<number, readonly number[]> {
  const table = new Map<number, readonly number[]>();
  for (const cls of FOLD_CLASSES.split(';')) {
    const members = cls.split(',').map((h) => Number.parseInt(h, 36));
    for (const cp of members) table.set(cp, members);
  }
  return table;
}

/** The simple case folding class of `cp` (itself alone when it has no case partners), sorted. */
export function foldClassOf(cp: number): readonly number[] {
  foldTable ??= loadFoldTable();
  return foldTable.get(cp) ?? [cp];
}

/** Every non-trivial folding class, for closing a whole set under folding. */
export function allFoldClasses(): Iterable<readonly number[]> {
  foldTable ??= loadFoldTable();
  return new Set(foldTable.values());
}

/** Highest code point with a case mapping (planes 0 and 1 hold every cased script). */
const CASED_LIMIT = 0x1ffff;

/**
 * Recomputes the folding classes from V8 (about 50 ms), in FOLD_CLASSES' format. `fold-table.ts` is its
 * output, checked by a test, so a Node upgrade with newer Unicode data shows up as a test failure.
 */
export function computeFoldClassesFromV8(): string {
  const units: number[] = [];
  for (let cp = 0; cp <= CASED_LIMIT; cp++) {
    if (cp >= 0xd800 && cp <= 0xdfff) continue;
    if (cp < 0x10000) units.push(cp);
    else units.push(0xd800 + ((cp - 0x10000) >> 10), 0xdc00 + ((cp - 0x10000) & 0x3ff));
  }
  let all = '';
  for (let k = 0; k < units.length; k += 8192) all += String.fromCharCode(...units.slice(k, k + 8192));
  // Every member of a non-trivial simple case folding class changes under some case mapping; lower/upper
  // edges connect each class (and over-connect a few, like ı–I–i, which the check below splits).
  const parent = new Map<number, number>();
  const find = (x: number): number => {
    let r = x;
    for (let p = parent.get(r); p !== undefined && p !== r; p = parent.get(r)) r = p;
    parent.set(x, r);
    return r;
  };
  const union = (a: number, b: number): void => {
    if (!parent.has(a)) parent.set(a, a);
    if (!parent.has(b)) parent.set(b, b);
    const ra = find(a);
    const rb = find(b);
    if (ra !== rb) parent.set(ra, rb);
  };
  for (const m of all.matchAll(/\p{Changes_When_Casemapped}/gu)) {
    const ch = m[0];
    const cp = ch.codePointAt(0)!;
    union(cp, cp);
    for (const mapped of [ch.toLowerCase(), ch.toUpperCase()]) {
      const mcp = mapped.codePointAt(0)!;
      if (mapped === String.fromCodePoint(mcp)) union(cp, mcp);
    }
  }
  const groups = new Map<number, number[]>();
  for (const cp of parent.keys()) {
    const r = find(cp);
    const g = groups.get(r);
    if (g) g.push(cp);
    else groups.set(r, [cp]);
  }
  // A case-insensitive backreference compares with V8's Canonicalize, i.e. simple case folding under `u`.
  const same = /^(.)\1$/isu;
  const out: number[][] = [];
  for (const members of groups.values()) {
    const classes: number[][] = [];
    for (const cp of members.sort((a, b) => a - b)) {
      const home = classes.find((c) => same.test(String.fromCodePoint(c[0]!, cp)));
      if (home) home.push(cp);
      else classes.push([cp]);
    }
    for (const c of classes) if (c.length > 1) out.push(c);
  }
  out.sort((a, b) => a[0]! - b[0]!);
  return out.map((c) => c.map((cp) => cp.toString(36)).join(',')).join(';');
}

export function asciiFoldPartner(cp: number): number | null {
  if (cp >= 0x41 && cp <= 0x5a) return cp + 0x20;
  if (cp >= 0x61 && cp <= 0x7a) return cp - 0x20;
  return null;
}

// --- escaping ------------------------------------------------------------------------------------------------

const printable = /^[\p{L}\p{N}]$/u;

/** A code point as JS regex source usable inside a `u`-mode class. */
export function escapeForClass(cp: number): string {
  if (cp < 0x80) {
    const ch = String.fromCharCode(cp);
    if (/[0-9A-Za-z_]/.test(ch)) return ch;
    return `\\x${cp.toString(16).padStart(2, '0')}`;
  }
  const ch = String.fromCodePoint(cp);
  if (printable.test(ch)) return ch;
  return `\\u{${cp.toString(16)}}`;
}

/** A code point as JS regex source outside a class (`u` mode). */
export function escapeLiteral(cp: number): string {
  if (cp < 0x80) {
    const ch = String.fromCharCode(cp);
    if (/[0-9A-Za-z _,'"<>=!@%&~`:;#-]/.test(ch)) return ch;
    if (/[$()*+./?[\\\]^{|}]/.test(ch)) return `\\${ch}`;
    return `\\x${cp.toString(16).padStart(2, '0')}`;
  }
  return escapeForClass(cp);
}
