import type { CompatCase } from './cases.js';

/** The first three lines of ripgrep's SHERLOCK haystack (fixtures.ts), and the haystacks several cases share. */
const SHERLOCK_3 =
  'For the Doctor Watsons of this world, as opposed to the Sherlock\nHolmeses, success in the province of detective work must always\nbe, to a very large extent, the result of luck. Sherlock Holmes\n';
const MC = 'aaaa foo bbbb foo cccc foo dddd\nshort foo\nxx foo yy\nzz foo end of a long line here\n';
const MU = 'aaaa foo bbbb foo\ncccc foo dddd eeee\nshort\nffff foo gggg hhhh\n';
const MV = 'a1\nb2\nc3\nd4\n';

/**
 * `-M` with `--max-columns-preview` where ripgrep prints pieces (`-o`) and multi-line matches (`-U`), the
 * columns of multi-line matches, and `-r` over them. Expected output is ripgrep 15's (the suite checks it still is).
 */
export const MAX_COLUMNS_CASES: CompatCase[] = [
  {
    from: 'max-columns-preview: -o previews each piece',
    files: { mc: MC },
    args: ['-M', '10', '--max-columns-preview', '-o', 'foo.*', 'mc'],
    stdout: 'foo bbbb f [... 0 more matches]\nfoo\nfoo yy\nfoo end of [... 0 more matches]\n',
    code: 0,
  },
  {
    from: "max-columns-preview: -o counts the line's matches that start between the cut and the piece's length",
    files: {
      mc: MC,
      t2: 'xx foo yy foo zz\n',
    },
    args: ['--sort', 'path', '-M', '3', '--max-columns-preview', '-o', 'foo..'],
    stdout:
      'mc:foo [... 0 more matches]\nmc:foo [... 0 more matches]\nmc:foo [... 0 more matches]\nmc:foo [... 1 more match]\nmc:foo [... 1 more match]\nt2:foo [... 1 more match]\nt2:foo [... 1 more match]\n',
    code: 0,
  },
  {
    from: 'max-columns-preview: -o in colour counts the piece alone',
    files: { mc: MC },
    args: ['--color', 'always', '-M', '3', '--max-columns-preview', '-o', '-n', 'foo..', 'mc'],
    stdout:
      '\u001b[0m\u001b[32m1\u001b[0m:\u001b[0m\u001b[1m\u001b[31mfoo\u001b[0m [... 0 more matches]\n\u001b[0m\u001b[32m1\u001b[0m:\u001b[0m\u001b[1m\u001b[31mfoo\u001b[0m [... 0 more matches]\n\u001b[0m\u001b[32m1\u001b[0m:\u001b[0m\u001b[1m\u001b[31mfoo\u001b[0m [... 0 more matches]\n\u001b[0m\u001b[32m3\u001b[0m:\u001b[0m\u001b[1m\u001b[31mfoo\u001b[0m [... 0 more matches]\n\u001b[0m\u001b[32m4\u001b[0m:\u001b[0m\u001b[1m\u001b[31mfoo\u001b[0m [... 0 more matches]\n',
    code: 0,
  },
  {
    from: 'max-columns-preview: -o without the preview',
    files: { mc: MC },
    args: ['-M', '10', '-o', 'foo.*', 'mc'],
    stdout: '[Omitted long matching line]\nfoo\nfoo yy\n[Omitted long matching line]\n',
    code: 0,
  },
  {
    from: 'max-columns-preview: -U previews each line of a match',
    files: { mu: MU },
    args: ['-M', '10', '--max-columns-preview', '-U', '-n', 'foo.*\\ncccc', 'mu'],
    stdout: '1:aaaa foo b [... omitted end of long line]\n2:cccc foo d [... omitted end of long line]\n',
    code: 0,
  },
  {
    from: 'max-columns-preview: -U --column',
    files: { mu: MU },
    args: ['-M', '10', '--max-columns-preview', '-U', '-n', '--column', 'bbbb.*\\nc', 'mu'],
    stdout: '1:10:aaaa foo b [... 0 more matches]\n2:10:cccc foo d [... 0 more matches]\n',
    code: 0,
  },
  {
    from: 'max-columns-preview: -U -o',
    files: { mu: MU },
    args: ['-M', '10', '--max-columns-preview', '-U', '-o', 'bbbb.*\\nc.*', 'mu'],
    stdout: 'bbbb foo\ncccc foo d [... 0 more matches]\n',
    code: 0,
  },
  {
    from: 'max-columns-preview: -U with context',
    files: { mu: MU },
    args: ['-M', '10', '--max-columns-preview', '-U', '-n', '-C1', 'short\\nffff', 'mu'],
    stdout:
      '2-cccc foo d [... omitted end of long line]\n3:short\n4:ffff foo g [... omitted end of long line]\n',
    code: 0,
  },
  {
    from: 'max-columns: -U without the preview',
    files: { mu: MU },
    args: ['-M', '10', '-U', '-n', 'foo.*\\ncccc', 'mu'],
    stdout: '1:[Omitted long matching line]\n2:[Omitted long matching line]\n',
    code: 0,
  },
  {
    from: "multiline: --column prints the match's column on every line it spans",
    files: {
      sherlock: SHERLOCK_3,
    },
    args: ['-U', '-n', '--column', 'Watson|Sherlock\\p{Any}+?Holmes', 'sherlock'],
    stdout:
      '1:16:For the Doctor Watsons of this world, as opposed to the Sherlock\n2:16:Holmeses, success in the province of detective work must always\n3:16:be, to a very large extent, the result of luck. Sherlock Holmes\n',
    code: 0,
  },
  {
    from: 'multiline: -o --column counts from the first line of the match block',
    files: {
      sherlock: SHERLOCK_3,
    },
    args: ['-U', '-o', '-n', '--column', 'Watson|Sherlock\\p{Any}+?Holmes', 'sherlock'],
    stdout: '1:16:Watson\n1:57:Sherlock\n2:57:Holmes\n3:178:Sherlock Holmes\n',
    code: 0,
  },
  {
    from: 'multiline -r: the block is replaced whole and printed as the lines that result',
    files: { mu: MU },
    args: ['-U', '-n', '-r', 'X', 'foo.*\\ncccc', 'mu'],
    stdout: '1:aaaa X foo dddd eeee\n',
    code: 0,
  },
  {
    from: 'multiline -r: replaced lines are numbered from the block start, with its column',
    files: { mv: MV },
    args: ['-U', '-n', '--column', '-r', '<$0>', '1\\nb2\\nc', 'mv'],
    stdout: '1:2:a<1\n2:2:b2\n3:2:c>3\n',
    code: 0,
  },
  {
    from: 'multiline -r: matches joined into one block',
    files: { mv: MV },
    args: ['-U', '-n', '-r', '<$0>', 'a1\\nb|c3', 'mv'],
    stdout: '1:<a1\n2:b>2\n3:<c3>\n',
    code: 0,
  },
  {
    from: 'multiline -r: an empty replacement joins the lines',
    files: { mv: MV },
    args: ['-U', '-n', '-r', '', '1\\nb2\\nc', 'mv'],
    stdout: '1:a3\n',
    code: 0,
  },
  {
    from: 'multiline -r -o: a replaced match printed once, split at its line ends',
    files: { mv: MV },
    args: ['-U', '-o', '-n', '-r', '<$0>', '1\\nb2\\nc', 'mv'],
    stdout: '1:<1\n2:b2\n3:c>\n',
    code: 0,
  },
  {
    from: 'multiline -r -o: a replacement without a line end prints once',
    files: { mu: MU },
    args: ['-U', '-o', '-r', 'XY', 'bbbb.*\\nc.*', 'mu'],
    stdout: 'XY\n',
    code: 0,
  },
  {
    from: 'multiline -r with -M',
    files: { mu: MU },
    args: ['-M', '10', '-U', '-n', '-r', 'X', 'foo.*\\ncccc', 'mu'],
    stdout: '1:[Omitted long line with 1 matches]\n',
    code: 0,
  },
  {
    from: 'multiline -r in colour',
    files: { mv: MV },
    args: ['--color', 'always', '-U', '-n', '-r', '<$0>', 'a1\\nb|c3', 'mv'],
    stdout:
      '\u001b[0m\u001b[32m1\u001b[0m:\u001b[0m\u001b[1m\u001b[31m<a1\u001b[0m\n\u001b[0m\u001b[32m2\u001b[0m:\u001b[0m\u001b[1m\u001b[31mb>\u001b[0m2\n\u001b[0m\u001b[32m3\u001b[0m:\u001b[0m\u001b[1m\u001b[31m<c3>\u001b[0m\n',
    code: 0,
  },
];
