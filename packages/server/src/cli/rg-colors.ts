import { UsageError } from './io.js';

/**
 * ripgrep's `--colors` and the escape sequences its terminal library writes, byte for byte. A coloured
 * piece is `ESC[0m` (reset), then the spec's codes — bold `1`, italic `3`, underline `4`, the foreground
 * (`3N`; intense `38;5;N+8`; `38;5;N` for a 256-colour number; `38;2;R;G;B`), the background (the same
 * with 4/48) — then the text and `ESC[0m`. Paths, line numbers and columns are always written so, even
 * with an empty spec; a match or the highlight with an empty spec is written plain.
 */
export type ColorKind = 'path' | 'line' | 'column' | 'match' | 'highlight';

type Color = { named: number } | { ansi256: number } | { rgb: [number, number, number] };

interface Spec {
  fg?: Color;
  bg?: Color;
  bold?: boolean;
  intense?: boolean;
  underline?: boolean;
  italic?: boolean;
}

/** What a printer needs: the codes that set each kind (after the reset), null where ripgrep writes plain. */
export interface RgColors {
  path: string;
  line: string;
  column: string;
  match: string | null;
  highlight: string | null;
}

export const RESET = '\x1b[0m';

/** A path, line number or column in its colour (written even when the spec is empty, as ripgrep does). */
export function paint(colors: RgColors | undefined, kind: 'path' | 'line' | 'column', text: string): string {
  return colors ? `${RESET}${colors[kind]}${text}${RESET}` : text;
}

const KINDS: readonly ColorKind[] = ['path', 'line', 'column', 'match', 'highlight'];
const NAMES = ['black', 'red', 'green', 'yellow', 'blue', 'magenta', 'cyan', 'white'];
const STYLES = ['nobold', 'bold', 'nointense', 'intense', 'nounderline', 'underline', 'noitalic', 'italic'];

/** ripgrep 15's defaults on a Unix terminal. */
function defaults(): Record<ColorKind, Spec> {
  return {
    path: { fg: { named: 5 } },
    line: { fg: { named: 2 } },
    column: {},
    match: { fg: { named: 1 }, bold: true },
    highlight: {},
  };
}

/** The defaults with each `--colors` spec applied in order; a bad spec is ripgrep's error. */
export function parseColors(specs: readonly string[]): RgColors {
  const table = defaults();
  for (const spec of specs) applySpec(table, spec);
  const isNone = (s: Spec) =>
    s.fg === undefined && s.bg === undefined && !s.bold && !s.intense && !s.underline && !s.italic;
  return {
    path: codes(table.path),
    line: codes(table.line),
    column: codes(table.column),
    match: isNone(table.match) ? null : codes(table.match),
    highlight: isNone(table.highlight) ? null : codes(table.highlight),
  };
}

function colorsError(message: string): UsageError {
  return new UsageError(`error parsing flag --colors: ${message}`, 'usage', 'rg');
}

function applySpec(table: Record<ColorKind, Spec>, spec: string): void {
  const parts = spec.split(':');
  const kind = parts[0]!.toLowerCase() as ColorKind;
  if (parts.length === 2 && parts[1]!.toLowerCase() === 'none' && KINDS.includes(kind)) {
    table[kind] = {};
    return;
  }
  if (parts.length !== 3) {
    throw colorsError(
      `invalid color spec format: '${spec}'. Valid format is '(path|line|column|match|highlight):(fg|bg|style):(value)'.`,
    );
  }
  const [, attribute, value] = parts as [string, string, string];
  if (!KINDS.includes(kind))
    throw colorsError(
      `unrecognized output type '${parts[0]}'. Choose from: path, line, column, match, highlight.`,
    );
  const s = table[kind];
  switch (attribute.toLowerCase()) {
    case 'fg':
      s.fg = parseColor(value);
      return;
    case 'bg':
      s.bg = parseColor(value);
      return;
    case 'style': {
      const style = value.toLowerCase();
      if (!STYLES.includes(style))
        throw colorsError(`unrecognized style attribute '${value}'. Choose from: ${STYLES.join(', ')}.`);
      const on = !style.startsWith('no');
      const what = on ? style : style.slice(2);
      s[what as 'bold' | 'intense' | 'underline' | 'italic'] = on;
      return;
    }
    default:
      throw colorsError(`unrecognized spec type '${attribute}'. Choose from: fg, bg, style, none.`);
  }
}

/** A colour name, a 256-colour number or an R,G,B triple (decimal or 0x hex), as ripgrep reads them. */
function parseColor(value: string): Color {
  const named = NAMES.indexOf(value.toLowerCase());
  if (named !== -1) return { named };
  const num = (t: string): number | null => {
    const n = /^0x[0-9a-f]+$/i.test(t) ? Number.parseInt(t.slice(2), 16) : /^\d+$/.test(t) ? Number(t) : NaN;
    return Number.isInteger(n) && n >= 0 && n <= 255 ? n : null;
  };
  if (value.includes(',')) {
    const parts = value.split(',').map(num);
    if (parts.length === 3 && parts.every((n) => n !== null))
      return { rgb: parts as [number, number, number] };
    throw colorsError(
      `unrecognized RGB color triple, should be '[0-255],[0-255],[0-255]' (or a hex triple), but is '${value}'`,
    );
  }
  if (/^(\d+|0x[0-9a-f]+)$/i.test(value)) {
    const n = num(value);
    if (n !== null) return { ansi256: n };
    throw colorsError(
      `unrecognized ansi256 color number, should be '[0-255]' (or a hex number), but is '${value}'`,
    );
  }
  throw colorsError(
    `unrecognized color name '${value}'. Choose from: black, blue, green, red, cyan, magenta, yellow, white`,
  );
}

function codes(s: Spec): string {
  let out = '';
  if (s.bold) out += '\x1b[1m';
  if (s.italic) out += '\x1b[3m';
  if (s.underline) out += '\x1b[4m';
  if (s.fg) out += colorCode(s.fg, 3, s.intense === true);
  if (s.bg) out += colorCode(s.bg, 4, s.intense === true);
  return out;
}

function colorCode(c: Color, layer: 3 | 4, intense: boolean): string {
  if ('named' in c) return intense ? `\x1b[${layer}8;5;${c.named + 8}m` : `\x1b[${layer}${c.named}m`;
  if ('ansi256' in c) return `\x1b[${layer}8;5;${c.ansi256}m`;
  return `\x1b[${layer}8;2;${c.rgb.join(';')}m`;
}

/** `--color auto`: colours only on a terminal, and not when TERM is unset or `dumb`, or NO_COLOR is set. */
export function colorWanted(
  when: 'never' | 'auto' | 'always' | 'ansi',
  stdoutIsTTY: boolean,
  env: NodeJS.ProcessEnv,
): boolean {
  if (when === 'always' || when === 'ansi') return true;
  if (when === 'never') return false;
  return stdoutIsTTY && env.TERM !== undefined && env.TERM !== 'dumb' && env.NO_COLOR === undefined;
}
