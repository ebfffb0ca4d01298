/**
 * A linear-time matcher (a Pike VM over the pattern's HIR) for patterns V8's backtracking engine could
 * explore exponentially: `(\w+\s?)*;$` over a 47-line file took V8 minutes while ripgrep answers at once.
 *
 * V8's own linear engine cannot stand in here: in Node 20 it refuses the `u` and `i` flags and every
 * look-around (engine-notes.md), and our translation needs all three. The VM runs the HIR directly, so it
 * matches exactly what the translated RegExp would, with Rust's leftmost-first preference, in time
 * O(pattern × text). It is slower than irregexp on ordinary input, so only patterns that can backtrack
 * exponentially use it (see backtrackProne).
 */
import type { Hir, Look } from './hir.js';
import { ASCII_WORD_CLASS_SOURCE, WORD_CLASS_SOURCE } from './unicode.js';

/** The largest program the VM runs (instructions); bigger ones keep the RegExp (counted repeats nest). */
export const MAX_LINEAR_PROGRAM = 100_000;

export type Inst =
  | { op: 'char'; k: number }
  | { op: 'split'; x: number; y: number }
  | { op: 'jmp'; x: number }
  | { op: 'look'; look: Look; ascii: boolean }
  | { op: 'match' };

/** A compiled VM program in plain data, so it crosses the worker boundary as the RegExps' sources do. */
export interface LinearProgram {
  insts: Inst[];
  /** One-code-point JS class sources (the translation's own), tested with `u` (+ `i` when `iFlag`). */
  classes: string[];
  iFlag: boolean;
  /** Multi-line mode: `\A`/`\z` are the text's ends (else line anchors, as the translation does). */
  multiline: boolean;
}

/**
 * Whether V8 could backtrack exponentially on this pattern: some repetition of more than one iteration
 * holds another repetition or an alternation (`(a+)+`, `(\w+\s?)*`, `(a|ab)*`, `(a?){20}`). Conservative:
 * `(?:ab?)+` is flagged although it is harmless; what is not flagged is at most polynomial.
 */
export function backtrackProne(h: Hir): boolean {
  const holdsChoice = (n: Hir): boolean => {
    switch (n.t) {
      case 'rep':
        return !(n.min === 1 && n.max === 1) || holdsChoice(n.sub);
      case 'alt':
        return n.items.length > 1 || n.items.some(holdsChoice);
      case 'group':
        return holdsChoice(n.sub);
      case 'cat':
        return n.items.some(holdsChoice);
      default:
        return false;
    }
  };
  switch (h.t) {
    case 'rep':
      if ((h.max === null || h.max > 1) && holdsChoice(h.sub)) return true;
      return backtrackProne(h.sub);
    case 'group':
      return backtrackProne(h.sub);
    case 'cat':
    case 'alt':
      return h.items.some(backtrackProne);
    default:
      return false;
  }
}

/**
 * Compiles a prepared HIR (after `prepare`) to a VM program; `charSource` gives the one-code-point source of
 * a literal or class node as the translation emits it. Null when the program would exceed MAX_LINEAR_PROGRAM.
 */
export function compileLinear(
  h: Hir,
  options: { iFlag: boolean; multiline: boolean },
  charSource: (node: Extract<Hir, { t: 'lit' } | { t: 'class' }>) => string,
): LinearProgram | null {
  const insts: Inst[] = [];
  const classes: string[] = [];
  const classIndex = new Map<string, number>();
  const tooBig = () => insts.length > MAX_LINEAR_PROGRAM;
  const emit = (n: Hir): boolean => {
    if (tooBig()) return false;
    switch (n.t) {
      case 'empty':
        return true;
      case 'lit':
      case 'class': {
        const src = charSource(n);
        let k = classIndex.get(src);
        if (k === undefined) {
          k = classes.length;
          classes.push(src);
          classIndex.set(src, k);
        }
        insts.push({ op: 'char', k });
        return true;
      }
      case 'look':
        insts.push({ op: 'look', look: n.look, ascii: n.ascii });
        return true;
      case 'group':
        return emit(n.sub);
      case 'cat':
        return n.items.every(emit);
      case 'alt': {
        // split L1, next; L1: a; jmp end; next: split L2, … ; last: z
        const jumps: number[] = [];
        for (let k = 0; k < n.items.length; k++) {
          if (k < n.items.length - 1) {
            const split = insts.length;
            insts.push({ op: 'split', x: split + 1, y: -1 });
            if (!emit(n.items[k]!)) return false;
            jumps.push(insts.length);
            insts.push({ op: 'jmp', x: -1 });
            (insts[split] as { y: number }).y = insts.length;
          } else if (!emit(n.items[k]!)) return false;
        }
        for (const j of jumps) (insts[j] as { x: number }).x = insts.length;
        return true;
      }
      case 'rep': {
        for (let k = 0; k < n.min; k++) if (!emit(n.sub)) return false;
        if (n.max === null) {
          // loop: split body, out; body; jmp loop
          const loop = insts.length;
          insts.push({ op: 'split', x: -1, y: -1 });
          if (!emit(n.sub)) return false;
          insts.push({ op: 'jmp', x: loop });
          setSplit(insts[loop]!, loop + 1, insts.length, n.greedy);
          return true;
        }
        // (max - min) nested optional copies: split body, end; body; split body, end; …
        const splits: number[] = [];
        for (let k = n.min; k < n.max; k++) {
          splits.push(insts.length);
          insts.push({ op: 'split', x: -1, y: -1 });
          if (!emit(n.sub)) return false;
        }
        for (const s of splits) setSplit(insts[s]!, s + 1, insts.length, n.greedy);
        return true;
      }
    }
  };
  if (!emit(h)) return null;
  insts.push({ op: 'match' });
  if (tooBig()) return null;
  return { insts, classes, iFlag: options.iFlag, multiline: options.multiline };
}

function setSplit(inst: Inst, body: number, out: number, greedy: boolean): void {
  const s = inst as { x: number; y: number };
  s.x = greedy ? body : out;
  s.y = greedy ? out : body;
}

const NEWLINE = 0x0a;
const CR = 0x0d;

/** Membership of code points in the program's classes, decided by V8 once per code point and remembered. */
class CharTests {
  private readonly tests: RegExp[];
  private readonly ascii: Int8Array[];
  private readonly other: Array<Map<number, boolean>>;
  private readonly word = new RegExp(`^${WORD_CLASS_SOURCE}$`, 'u');
  private readonly wordCache = new Map<number, boolean>();

  constructor(p: LinearProgram) {
    const flags = p.iFlag ? 'iu' : 'u';
    this.tests = p.classes.map((src) => new RegExp(`^(?:${src})$`, flags));
    this.ascii = p.classes.map(() => new Int8Array(128).fill(-1));
    this.other = p.classes.map(() => new Map());
  }

  has(k: number, cp: number): boolean {
    if (cp < 128) {
      const row = this.ascii[k]!;
      let v = row[cp]!;
      if (v === -1) {
        v = this.tests[k]!.test(String.fromCharCode(cp)) ? 1 : 0;
        row[cp] = v;
      }
      return v === 1;
    }
    const map = this.other[k]!;
    let v = map.get(cp);
    if (v === undefined) {
      v = this.tests[k]!.test(String.fromCodePoint(cp));
      map.set(cp, v);
    }
    return v;
  }

  isWord(cp: number, ascii: boolean): boolean {
    if (cp < 0) return false;
    if (cp < 128) return ASCII_WORD.test(String.fromCharCode(cp));
    if (ascii) return false;
    let v = this.wordCache.get(cp);
    if (v === undefined) {
      v = this.word.test(String.fromCodePoint(cp));
      this.wordCache.set(cp, v);
    }
    return v;
  }
}

const ASCII_WORD = new RegExp(`^${ASCII_WORD_CLASS_SOURCE}$`);

/** A thread list with O(1) membership by instruction (a sparse set). */
class ThreadList {
  readonly pcs: Int32Array;
  readonly starts: Int32Array;
  private readonly stamp: Int32Array;
  size = 0;
  /** Instructions visited since the last clear (the work of building the list). */
  visited = 0;
  private generation = 1;
  constructor(n: number) {
    this.pcs = new Int32Array(n);
    this.starts = new Int32Array(n);
    this.stamp = new Int32Array(n);
  }
  clear(): void {
    this.size = 0;
    this.visited = 0;
    this.generation++;
  }
  /** Marks `pc` visited at this position; false when it already was. */
  visit(pc: number): boolean {
    if (this.stamp[pc] === this.generation) return false;
    this.stamp[pc] = this.generation;
    this.visited++;
    return true;
  }
  push(pc: number, start: number): void {
    this.pcs[this.size] = pc;
    this.starts[this.size] = start;
    this.size++;
  }
}

/** When a match must give up: the clock is read every MATCH_CLOCK_STEPS steps of the VM. */
export interface MatchClock {
  /** On `now`'s clock. */
  deadline: number;
  now: () => number;
}

/** VM steps (threads stepped and added) between two readings of a MatchClock: about a millisecond of work. */
const MATCH_CLOCK_STEPS = 1 << 14;

/**
 * A match stopped at its clock's deadline. The matcher holds no state past it (the next `exec` starts afresh);
 * the caller reports its answer as short.
 */
export class MatchDeadlineError extends Error {
  readonly code = 'match_deadline';
  constructor() {
    super('the match ran past its deadline');
    this.name = 'MatchDeadlineError';
  }
}

/**
 * The VM behind a RegExp's interface: `exec`, `test` (which calls `exec`), `lastIndex`, and the `g`/`y`
 * flags, which is all the searcher uses. `source` and `flags` are the translation's, for messages. With a
 * clock, `exec` throws MatchDeadlineError once the deadline passes (a RegExp cannot be stopped; this can).
 */
export class LinearRegExp extends RegExp {
  private readonly program: LinearProgram;
  private readonly chars: CharTests;
  private readonly stack: Int32Array;
  private clist: ThreadList;
  private nlist: ThreadList;
  private readonly clock: MatchClock | undefined;
  private steps = 0;

  constructor(program: LinearProgram, source: string, flags: string, clock?: MatchClock) {
    super(source, flags);
    this.program = program;
    this.clock = clock;
    this.chars = new CharTests(program);
    // Each instruction is pushed at most twice per closure (a split pushes both arms).
    this.stack = new Int32Array(program.insts.length * 2 + 2);
    this.clist = new ThreadList(program.insts.length);
    this.nlist = new ThreadList(program.insts.length);
  }

  override exec(text: string): RegExpExecArray | null {
    const from = this.global || this.sticky ? this.lastIndex : 0;
    if (from > text.length) {
      this.lastIndex = 0;
      return null;
    }
    const found = this.run(text, from, this.sticky);
    if (found === null) {
      if (this.global || this.sticky) this.lastIndex = 0;
      return null;
    }
    const [start, end] = found;
    if (this.global || this.sticky) this.lastIndex = end;
    const m = [text.slice(start, end)] as unknown as RegExpExecArray;
    m.index = start;
    m.input = text;
    return m;
  }

  /** Leftmost-first match from `from` (only at `from` when anchored): [start, end] or null. */
  private run(text: string, from: number, anchored: boolean): [number, number] | null {
    const insts = this.program.insts;
    let clist = this.clist;
    let nlist = this.nlist;
    clist.clear();
    nlist.clear();
    let matched: [number, number] | null = null;
    let pos = from;
    for (;;) {
      if (matched === null && (!anchored || pos === from)) this.add(clist, 0, pos, text, pos);
      // Nothing alive and no later start: done. (A start whose leading look-around failed here, -w inside a word,
      // adds nothing, yet a later start may match.)
      if (clist.size === 0 && (matched !== null || anchored)) break;
      const cp = pos < text.length ? text.codePointAt(pos)! : -1;
      const next = pos + (cp > 0xffff ? 2 : 1);
      // Building the list and stepping it: each at most one step per instruction visited.
      if (this.clock) this.tick(2 * clist.visited);
      for (let t = 0; t < clist.size; t++) {
        const pc = clist.pcs[t]!;
        const inst = insts[pc]!;
        if (inst.op === 'match') {
          matched = [clist.starts[t]!, pos];
          break; // lower-priority threads lose to this match
        }
        if (inst.op === 'char' && cp >= 0 && this.chars.has(inst.k, cp)) {
          this.add(nlist, pc + 1, clist.starts[t]!, text, next);
        }
      }
      if (pos >= text.length) break;
      const swap = clist;
      clist = nlist;
      nlist = swap;
      nlist.clear();
      pos = next;
    }
    return matched;
  }

  /** Counts `work` steps; past the clock's deadline, throws (read once per MATCH_CLOCK_STEPS). */
  private tick(work: number): void {
    this.steps += work;
    if (this.steps < MATCH_CLOCK_STEPS) return;
    this.steps = 0;
    const clock = this.clock!;
    if (clock.now() >= clock.deadline) throw new MatchDeadlineError();
  }

  /** Adds the thread at `pc` and everything reachable from it without consuming text, in priority order. */
  private add(list: ThreadList, pc0: number, start: number, text: string, pos: number): void {
    const insts = this.program.insts;
    const stack = this.stack;
    let sp = 0;
    stack[sp++] = pc0;
    while (sp > 0) {
      const pc = stack[--sp]!;
      if (!list.visit(pc)) continue;
      const inst = insts[pc]!;
      switch (inst.op) {
        case 'jmp':
          stack[sp++] = inst.x;
          break;
        case 'split':
          stack[sp++] = inst.y;
          stack[sp++] = inst.x;
          break;
        case 'look':
          if (this.holds(inst.look, inst.ascii, text, pos)) stack[sp++] = pc + 1;
          break;
        default:
          list.push(pc, start);
      }
    }
  }

  private holds(look: Look, ascii: boolean, text: string, pos: number): boolean {
    const len = text.length;
    const prev = pos > 0 ? text.charCodeAt(pos - 1) : -1;
    const next = pos < len ? text.charCodeAt(pos) : -1;
    switch (look) {
      case 'lineStart':
        return pos === 0 || prev === NEWLINE;
      case 'lineEnd':
        return pos === len || next === NEWLINE;
      case 'textStart':
        return this.program.multiline ? pos === 0 : pos === 0 || prev === NEWLINE;
      case 'textEnd':
        return this.program.multiline ? pos === len : pos === len || next === NEWLINE;
      case 'lineStartNulData':
        return pos === 0 || prev === 0 || (!this.program.multiline && prev === NEWLINE);
      case 'lineEndNulData':
        return pos === len || next === 0 || (!this.program.multiline && next === NEWLINE);
      case 'lineStartCrlf':
        return pos === 0 || prev === NEWLINE || (prev === CR && next !== NEWLINE);
      case 'lineEndCrlf':
        return pos === len || next === CR || (prev !== CR && next === NEWLINE);
      default: {
        const before = this.chars.isWord(pos > 0 ? codePointBefore(text, pos) : -1, ascii);
        const after = this.chars.isWord(pos < len ? text.codePointAt(pos)! : -1, ascii);
        switch (look) {
          case 'word':
            return before !== after;
          case 'notWord':
            return before === after;
          case 'wordStart':
            return !before && after;
          case 'wordEnd':
            return before && !after;
          case 'wordStartHalf':
            return !before;
          case 'wordEndHalf':
            return !after;
        }
      }
    }
    return false;
  }
}

function codePointBefore(text: string, pos: number): number {
  const low = text.charCodeAt(pos - 1);
  if (low >= 0xdc00 && low <= 0xdfff && pos >= 2) {
    const high = text.charCodeAt(pos - 2);
    if (high >= 0xd800 && high <= 0xdbff) return text.codePointAt(pos - 2)!;
  }
  return low;
}

/** A compiled program as a RegExp for the searcher (`flags` decide global / sticky), stopped by `clock` if given. */
export function linearRegExp(
  program: LinearProgram,
  like: RegExp,
  flags = like.flags,
  clock?: MatchClock,
): LinearRegExp {
  return new LinearRegExp(program, like.source, flags, clock);
}
