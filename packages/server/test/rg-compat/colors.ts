import type { CompatCase } from './cases.js';

/** The first four lines of ripgrep's SHERLOCK haystack (fixtures.ts). */
const SHERLOCK_4 =
  'For the Doctor Watsons of this world, as opposed to the Sherlock\nHolmeses, success in the province of detective work must always\nbe, to a very large extent, the result of luck. Sherlock Holmes\ncan extract a clew from a wisp of straw or a flake of cigar ash;\n';

/**
 * `--color` and `--colors`: ripgrep 15's escape sequences, byte for byte, on every kind of output, and its
 * messages for bad values. Expected output is ripgrep 15's (the suite checks it still is).
 */
export const COLOR_CASES: CompatCase[] = [
  {
    from: 'color: lines with -n',
    files: {
      sherlock: SHERLOCK_4,
    },
    args: ['--color', 'always', '-n', 'Sherlock', 'sherlock'],
    stdout:
      '\u001b[0m\u001b[32m1\u001b[0m:For the Doctor Watsons of this world, as opposed to the \u001b[0m\u001b[1m\u001b[31mSherlock\u001b[0m\n\u001b[0m\u001b[32m3\u001b[0m:be, to a very large extent, the result of luck. \u001b[0m\u001b[1m\u001b[31mSherlock\u001b[0m Holmes\n',
    code: 0,
  },
  {
    from: 'color: headings with --column',
    files: {
      sherlock: SHERLOCK_4,
    },
    args: ['--color', 'always', '--heading', '-H', '--column', 'Sherlock', 'sherlock'],
    stdout:
      '\u001b[0m\u001b[35msherlock\u001b[0m\n\u001b[0m\u001b[32m1\u001b[0m:\u001b[0m57\u001b[0m:For the Doctor Watsons of this world, as opposed to the \u001b[0m\u001b[1m\u001b[31mSherlock\u001b[0m\n\u001b[0m\u001b[32m3\u001b[0m:\u001b[0m49\u001b[0m:be, to a very large extent, the result of luck. \u001b[0m\u001b[1m\u001b[31mSherlock\u001b[0m Holmes\n',
    code: 0,
  },
  {
    from: 'color: paths on every line',
    files: {
      sherlock: SHERLOCK_4,
      'other.txt': 'Sherlock again\n',
    },
    args: ['--color', 'always', '--sort', 'path', '-n', 'Sherlock'],
    stdout:
      '\u001b[0m\u001b[35mother.txt\u001b[0m:\u001b[0m\u001b[32m1\u001b[0m:\u001b[0m\u001b[1m\u001b[31mSherlock\u001b[0m again\n\u001b[0m\u001b[35msherlock\u001b[0m:\u001b[0m\u001b[32m1\u001b[0m:For the Doctor Watsons of this world, as opposed to the \u001b[0m\u001b[1m\u001b[31mSherlock\u001b[0m\n\u001b[0m\u001b[35msherlock\u001b[0m:\u001b[0m\u001b[32m3\u001b[0m:be, to a very large extent, the result of luck. \u001b[0m\u001b[1m\u001b[31mSherlock\u001b[0m Holmes\n',
    code: 0,
  },
  {
    from: 'color: -o',
    files: {
      sherlock: SHERLOCK_4,
    },
    args: ['--color', 'always', '-o', '-n', 'Sher\\w+', 'sherlock'],
    stdout:
      '\u001b[0m\u001b[32m1\u001b[0m:\u001b[0m\u001b[1m\u001b[31mSherlock\u001b[0m\n\u001b[0m\u001b[32m3\u001b[0m:\u001b[0m\u001b[1m\u001b[31mSherlock\u001b[0m\n',
    code: 0,
  },
  {
    from: 'color: -b and --column share the column colour',
    files: {
      sherlock: SHERLOCK_4,
    },
    args: ['--color', 'always', '--colors', 'column:fg:blue', '-b', '-n', '--column', 'Sherlock', 'sherlock'],
    stdout:
      '\u001b[0m\u001b[32m1\u001b[0m:\u001b[0m\u001b[34m57\u001b[0m:\u001b[0m\u001b[34m0\u001b[0m:For the Doctor Watsons of this world, as opposed to the \u001b[0m\u001b[1m\u001b[31mSherlock\u001b[0m\n\u001b[0m\u001b[32m3\u001b[0m:\u001b[0m\u001b[34m49\u001b[0m:\u001b[0m\u001b[34m129\u001b[0m:be, to a very large extent, the result of luck. \u001b[0m\u001b[1m\u001b[31mSherlock\u001b[0m Holmes\n',
    code: 0,
  },
  {
    from: 'color: context lines',
    files: {
      sherlock: SHERLOCK_4,
    },
    args: ['--color', 'always', '-n', '-C1', 'Holmeses', 'sherlock'],
    stdout:
      '\u001b[0m\u001b[32m1\u001b[0m-For the Doctor Watsons of this world, as opposed to the Sherlock\n\u001b[0m\u001b[32m2\u001b[0m:\u001b[0m\u001b[1m\u001b[31mHolmeses\u001b[0m, success in the province of detective work must always\n\u001b[0m\u001b[32m3\u001b[0m-be, to a very large extent, the result of luck. Sherlock Holmes\n',
    code: 0,
  },
  {
    from: 'color: -v colours the matches of context lines',
    files: {
      sherlock: SHERLOCK_4,
    },
    args: ['--color', 'always', '-v', '-n', '-C1', 'Holmeses', 'sherlock'],
    stdout:
      '\u001b[0m\u001b[32m1\u001b[0m:For the Doctor Watsons of this world, as opposed to the Sherlock\n\u001b[0m\u001b[32m2\u001b[0m-\u001b[0m\u001b[1m\u001b[31mHolmeses\u001b[0m, success in the province of detective work must always\n\u001b[0m\u001b[32m3\u001b[0m:be, to a very large extent, the result of luck. Sherlock Holmes\n\u001b[0m\u001b[32m4\u001b[0m:can extract a clew from a wisp of straw or a flake of cigar ash;\n',
    code: 0,
  },
  {
    from: 'color: -l',
    files: {
      sherlock: SHERLOCK_4,
      'other.txt': 'Sherlock again\n',
    },
    args: ['--color', 'always', '--sort', 'path', '-l', 'Sherlock'],
    stdout: '\u001b[0m\u001b[35mother.txt\u001b[0m\n\u001b[0m\u001b[35msherlock\u001b[0m\n',
    code: 0,
  },
  {
    from: 'color: -c and --count-matches',
    files: {
      sherlock: SHERLOCK_4,
      'other.txt': 'Sherlock again\n',
    },
    args: ['--color', 'always', '--sort', 'path', '--count-matches', 'o'],
    stdout: '\u001b[0m\u001b[35mother.txt\u001b[0m:1\n\u001b[0m\u001b[35msherlock\u001b[0m:22\n',
    code: 0,
  },
  {
    from: 'color: --files-without-match',
    files: {
      sherlock: SHERLOCK_4,
      'other.txt': 'nothing\n',
    },
    args: ['--color', 'always', '--files-without-match', 'Sherlock'],
    stdout: '\u001b[0m\u001b[35mother.txt\u001b[0m\n',
    code: 0,
  },
  {
    from: 'color: --vimgrep',
    files: {
      sherlock: SHERLOCK_4,
    },
    args: ['--color', 'always', '--vimgrep', 'Sherlock|luck'],
    stdout:
      '\u001b[0m\u001b[35msherlock\u001b[0m:\u001b[0m\u001b[32m1\u001b[0m:\u001b[0m57\u001b[0m:For the Doctor Watsons of this world, as opposed to the \u001b[0m\u001b[1m\u001b[31mSherlock\u001b[0m\n\u001b[0m\u001b[35msherlock\u001b[0m:\u001b[0m\u001b[32m3\u001b[0m:\u001b[0m43\u001b[0m:be, to a very large extent, the result of \u001b[0m\u001b[1m\u001b[31mluck\u001b[0m. Sherlock Holmes\n\u001b[0m\u001b[35msherlock\u001b[0m:\u001b[0m\u001b[32m3\u001b[0m:\u001b[0m49\u001b[0m:be, to a very large extent, the result of luck. \u001b[0m\u001b[1m\u001b[31mSherlock\u001b[0m Holmes\n',
    code: 0,
  },
  {
    from: 'color: --vimgrep is plain unless colours are asked for',
    files: {
      sherlock: SHERLOCK_4,
    },
    args: ['--color', 'auto', '--vimgrep', 'Sherlock'],
    stdout:
      'sherlock:1:57:For the Doctor Watsons of this world, as opposed to the Sherlock\nsherlock:3:49:be, to a very large extent, the result of luck. Sherlock Holmes\n',
    code: 0,
  },
  {
    from: 'color: -0',
    files: {
      sherlock: SHERLOCK_4,
    },
    args: ['--color', 'always', '-0', '-n', '-H', 'Sherlock', 'sherlock'],
    stdout:
      '\u001b[0m\u001b[35msherlock\u001b[0m\u0000\u001b[0m\u001b[32m1\u001b[0m:For the Doctor Watsons of this world, as opposed to the \u001b[0m\u001b[1m\u001b[31mSherlock\u001b[0m\n\u001b[0m\u001b[35msherlock\u001b[0m\u0000\u001b[0m\u001b[32m3\u001b[0m:be, to a very large extent, the result of luck. \u001b[0m\u001b[1m\u001b[31mSherlock\u001b[0m Holmes\n',
    code: 0,
  },
  {
    from: 'color: --files',
    files: {
      sherlock: SHERLOCK_4,
      'b.txt': 'x\n',
    },
    args: ['--color', 'always', '--files', '--sort', 'path'],
    stdout: '\u001b[0m\u001b[35mb.txt\u001b[0m\n\u001b[0m\u001b[35msherlock\u001b[0m\n',
    code: 0,
  },
  {
    from: 'color: never',
    files: {
      sherlock: SHERLOCK_4,
    },
    args: ['--color', 'never', '-n', 'Sherlock', 'sherlock'],
    stdout:
      '1:For the Doctor Watsons of this world, as opposed to the Sherlock\n3:be, to a very large extent, the result of luck. Sherlock Holmes\n',
    code: 0,
  },
  {
    from: 'color: ansi is always',
    files: {
      sherlock: SHERLOCK_4,
    },
    args: ['--color', 'ansi', '-n', 'Sherlock', 'sherlock'],
    stdout:
      '\u001b[0m\u001b[32m1\u001b[0m:For the Doctor Watsons of this world, as opposed to the \u001b[0m\u001b[1m\u001b[31mSherlock\u001b[0m\n\u001b[0m\u001b[32m3\u001b[0m:be, to a very large extent, the result of luck. \u001b[0m\u001b[1m\u001b[31mSherlock\u001b[0m Holmes\n',
    code: 0,
  },
  {
    from: 'color: --json is never coloured',
    files: {
      sherlock: SHERLOCK_4,
    },
    args: ['--color', 'always', '--json', 'Doctor', 'sherlock'],
    stdout:
      '{"type":"begin","data":{"path":{"text":"sherlock"}}}\n{"type":"match","data":{"path":{"text":"sherlock"},"lines":{"text":"For the Doctor Watsons of this world, as opposed to the Sherlock\\n"},"line_number":1,"absolute_offset":0,"submatches":[{"match":{"text":"Doctor"},"start":8,"end":14}]}}\n{"type":"end","data":{"path":{"text":"sherlock"},"binary_offset":null,"stats":{"elapsed":{"secs":0,"nanos":84630,"human":"0.000085s"},"searches":1,"searches_with_match":1,"bytes_searched":258,"bytes_printed":290,"matched_lines":1,"matches":1}}}\n{"data":{"elapsed_total":{"human":"0.007595s","nanos":7594733,"secs":0},"stats":{"bytes_printed":290,"bytes_searched":258,"elapsed":{"human":"0.000085s","nanos":84630,"secs":0},"matched_lines":1,"matches":1,"searches":1,"searches_with_match":1}},"type":"summary"}\n',
    code: 0,
  },
  {
    from: 'color: adjacent matches are coloured as one, -o keeps them apart',
    files: {
      sherlock: SHERLOCK_4,
    },
    args: ['--color', 'always', '-e', 'Sher', '-e', 'lock', 'sherlock'],
    stdout:
      'For the Doctor Watsons of this world, as opposed to the \u001b[0m\u001b[1m\u001b[31mSherlock\u001b[0m\nbe, to a very large extent, the result of luck. \u001b[0m\u001b[1m\u001b[31mSherlock\u001b[0m Holmes\n',
    code: 0,
  },
  {
    from: 'color: -o with adjacent matches',
    files: {
      sherlock: SHERLOCK_4,
    },
    args: ['--color', 'always', '-o', '-e', 'Sher', '-e', 'lock', 'sherlock'],
    stdout:
      '\u001b[0m\u001b[1m\u001b[31mSher\u001b[0m\n\u001b[0m\u001b[1m\u001b[31mlock\u001b[0m\n\u001b[0m\u001b[1m\u001b[31mSher\u001b[0m\n\u001b[0m\u001b[1m\u001b[31mlock\u001b[0m\n',
    code: 0,
  },
  {
    from: 'color: -r colours the replacement',
    files: {
      sherlock: SHERLOCK_4,
    },
    args: ['--color', 'always', '-n', '-r', '[$0]', 'Sher\\w+', 'sherlock'],
    stdout:
      '\u001b[0m\u001b[32m1\u001b[0m:For the Doctor Watsons of this world, as opposed to the \u001b[0m\u001b[1m\u001b[31m[Sherlock]\u001b[0m\n\u001b[0m\u001b[32m3\u001b[0m:be, to a very large extent, the result of luck. \u001b[0m\u001b[1m\u001b[31m[Sherlock]\u001b[0m Holmes\n',
    code: 0,
  },
  {
    from: 'color: -U colours each line of a match',
    files: {
      sherlock: SHERLOCK_4,
    },
    args: ['--color', 'always', '-U', '-n', 'Sherlock\\nHolmeses', 'sherlock'],
    stdout:
      '\u001b[0m\u001b[32m1\u001b[0m:For the Doctor Watsons of this world, as opposed to the \u001b[0m\u001b[1m\u001b[31mSherlock\u001b[0m\n\u001b[0m\u001b[32m2\u001b[0m:\u001b[0m\u001b[1m\u001b[31mHolmeses\u001b[0m, success in the province of detective work must always\n',
    code: 0,
  },
  {
    from: 'color: -M says how many matches (printing match by match)',
    files: {
      sherlock: SHERLOCK_4,
    },
    args: ['--color', 'always', '-M', '20', '-n', 'Sherlock', 'sherlock'],
    stdout:
      '\u001b[0m\u001b[32m1\u001b[0m:[Omitted long line with 1 matches]\n\u001b[0m\u001b[32m3\u001b[0m:[Omitted long line with 1 matches]\n',
    code: 0,
  },
  {
    from: 'color: --max-columns-preview cuts a match',
    files: {
      sherlock: SHERLOCK_4,
    },
    args: ['--color', 'always', '-M', '20', '--max-columns-preview', '-n', 'Sherlock', 'sherlock'],
    stdout:
      '\u001b[0m\u001b[32m1\u001b[0m:For the Doctor Watso [... 1 more match]\n\u001b[0m\u001b[32m3\u001b[0m:be, to a very large  [... 1 more match]\n',
    code: 0,
  },
  {
    from: 'color: match:none, line:none, path:style:bold',
    files: {
      sherlock: SHERLOCK_4,
    },
    args: [
      '--color',
      'always',
      '--colors',
      'match:none',
      '--colors',
      'line:none',
      '--colors',
      'path:style:bold',
      '-n',
      '-H',
      'Sherlock',
      'sherlock',
    ],
    stdout:
      '\u001b[0m\u001b[1m\u001b[35msherlock\u001b[0m:\u001b[0m1\u001b[0m:For the Doctor Watsons of this world, as opposed to the Sherlock\n\u001b[0m\u001b[1m\u001b[35msherlock\u001b[0m:\u001b[0m3\u001b[0m:be, to a very large extent, the result of luck. Sherlock Holmes\n',
    code: 0,
  },
  {
    from: 'color: 24-bit and 256-colour values, underline, intense has no effect on them',
    files: {
      sherlock: SHERLOCK_4,
    },
    args: [
      '--color',
      'always',
      '--colors',
      'match:fg:0,128,255',
      '--colors',
      'match:bg:22',
      '--colors',
      'match:style:intense',
      '--colors',
      'match:style:underline',
      'Sherl',
      'sherlock',
    ],
    stdout:
      'For the Doctor Watsons of this world, as opposed to the \u001b[0m\u001b[1m\u001b[4m\u001b[38;2;0;128;255m\u001b[48;5;22mSherl\u001b[0mock\nbe, to a very large extent, the result of luck. \u001b[0m\u001b[1m\u001b[4m\u001b[38;2;0;128;255m\u001b[48;5;22mSherl\u001b[0mock Holmes\n',
    code: 0,
  },
  {
    from: 'color: intense named colours, italic, nobold; hex numbers; case-insensitive specs',
    files: {
      sherlock: SHERLOCK_4,
    },
    args: [
      '--color',
      'always',
      '--colors',
      'MATCH:FG:Blue',
      '--colors',
      'match:style:intense',
      '--colors',
      'match:style:italic',
      '--colors',
      'match:style:nobold',
      '--colors',
      'line:bg:0x10',
      '-n',
      'Sherl',
      'sherlock',
    ],
    stdout:
      '\u001b[0m\u001b[32m\u001b[48;5;16m1\u001b[0m:For the Doctor Watsons of this world, as opposed to the \u001b[0m\u001b[3m\u001b[38;5;12mSherl\u001b[0mock\n\u001b[0m\u001b[32m\u001b[48;5;16m3\u001b[0m:be, to a very large extent, the result of luck. \u001b[0m\u001b[3m\u001b[38;5;12mSherl\u001b[0mock Holmes\n',
    code: 0,
  },
  {
    from: 'color: highlight sets the matching lines',
    files: {
      sherlock: SHERLOCK_4,
    },
    args: [
      '--color',
      'always',
      '--colors',
      'highlight:bg:yellow',
      '--colors',
      'highlight:style:bold',
      '-n',
      '-C1',
      '-e',
      'For',
      '-e',
      'Sherlock',
      'sherlock',
    ],
    stdout:
      '\u001b[0m\u001b[32m1\u001b[0m:\u001b[0m\u001b[1m\u001b[43m\u001b[0m\u001b[1m\u001b[31mFor\u001b[0m\u001b[1m\u001b[43m the Doctor Watsons of this world, as opposed to the \u001b[0m\u001b[1m\u001b[31mSherlock\u001b[0m\u001b[1m\u001b[43m\u001b[0m\n\u001b[0m\u001b[32m2\u001b[0m-Holmeses, success in the province of detective work must always\n\u001b[0m\u001b[32m3\u001b[0m:\u001b[0m\u001b[1m\u001b[43mbe, to a very large extent, the result of luck. \u001b[0m\u001b[1m\u001b[31mSherlock\u001b[0m\u001b[1m\u001b[43m Holmes\u001b[0m\n\u001b[0m\u001b[32m4\u001b[0m-can extract a clew from a wisp of straw or a flake of cigar ash;\n',
    code: 0,
  },
  {
    from: 'color: highlight with -o',
    files: {
      sherlock: SHERLOCK_4,
    },
    args: ['--color', 'always', '--colors', 'highlight:bg:yellow', '-o', 'Sherl', 'sherlock'],
    stdout:
      '\u001b[0m\u001b[43m\u001b[0m\u001b[1m\u001b[31mSherl\u001b[0m\u001b[43m\u001b[0m\n\u001b[0m\u001b[43m\u001b[0m\u001b[1m\u001b[31mSherl\u001b[0m\u001b[43m\u001b[0m\n',
    code: 0,
  },
  {
    from: 'color: a named binary file',
    files: { bin: 'foo\u0000bar' },
    args: ['--color', 'always', '-H', 'foo', 'bin'],
    stdout: '\u001b[0m\u001b[35mbin\u001b[0m: binary file matches (found "\\0" byte around offset 3)\n',
    code: 0,
  },
  {
    from: 'color: --null-data',
    files: { a: 'foo bar\nbaz\u0000qux foo\u0000' },
    args: ['--color', 'always', '--null-data', '-n', 'foo', 'a'],
    stdout:
      '\u001b[0m\u001b[32m1\u001b[0m:\u001b[0m\u001b[1m\u001b[31mfoo\u001b[0m bar\nbaz\u0000\u001b[0m\u001b[32m2\u001b[0m:qux \u001b[0m\u001b[1m\u001b[31mfoo\u001b[0m\u0000',
    code: 0,
  },
  {
    from: 'color: --color with a bad value is refused',
    files: {
      sherlock: SHERLOCK_4,
    },
    args: ['--color', 'bogus', 'x', 'sherlock'],
    stdout: '',
    code: 2,
    stderr: "rg: error parsing flag --color: choice 'bogus' is unrecognized\n",
  },
  {
    from: 'color: an unknown output type is refused',
    files: {
      sherlock: SHERLOCK_4,
    },
    args: ['--colors', 'foo:fg:red', 'x', 'sherlock'],
    stdout: '',
    code: 2,
    stderr:
      "rg: error parsing flag --colors: unrecognized output type 'foo'. Choose from: path, line, column, match, highlight.\n",
  },
  {
    from: 'color: an unknown attribute is refused',
    files: {
      sherlock: SHERLOCK_4,
    },
    args: ['--colors', 'match:xx:red', 'x', 'sherlock'],
    stdout: '',
    code: 2,
    stderr:
      "rg: error parsing flag --colors: unrecognized spec type 'xx'. Choose from: fg, bg, style, none.\n",
  },
  {
    from: 'color: a spec without a value is refused',
    files: {
      sherlock: SHERLOCK_4,
    },
    args: ['--colors', 'match:fg', 'x', 'sherlock'],
    stdout: '',
    code: 2,
    stderr:
      "rg: error parsing flag --colors: invalid color spec format: 'match:fg'. Valid format is '(path|line|column|match|highlight):(fg|bg|style):(value)'.\n",
  },
  {
    from: 'color: 256 is not a colour',
    files: {
      sherlock: SHERLOCK_4,
    },
    args: ['--colors', 'match:fg:256', 'x', 'sherlock'],
    stdout: '',
    code: 2,
    stderr:
      "rg: error parsing flag --colors: unrecognized ansi256 color number, should be '[0-255]' (or a hex number), but is '256'\n",
  },
  {
    from: 'color: an RGB triple needs three values',
    files: {
      sherlock: SHERLOCK_4,
    },
    args: ['--colors', 'match:fg:1,2', 'x', 'sherlock'],
    stdout: '',
    code: 2,
    stderr:
      "rg: error parsing flag --colors: unrecognized RGB color triple, should be '[0-255],[0-255],[0-255]' (or a hex triple), but is '1,2'\n",
  },
  {
    from: 'color: an unknown colour name is refused',
    files: {
      sherlock: SHERLOCK_4,
    },
    args: ['--colors', 'match:fg:purple', 'x', 'sherlock'],
    stdout: '',
    code: 2,
    stderr:
      "rg: error parsing flag --colors: unrecognized color name 'purple'. Choose from: black, blue, green, red, cyan, magenta, yellow, white\n",
  },
  {
    from: 'color: an unknown style is refused',
    files: {
      sherlock: SHERLOCK_4,
    },
    args: ['--colors', 'match:style:dimmed', 'x', 'sherlock'],
    stdout: '',
    code: 2,
    stderr:
      "rg: error parsing flag --colors: unrecognized style attribute 'dimmed'. Choose from: nobold, bold, nointense, intense, nounderline, underline, noitalic, italic.\n",
  },
];
