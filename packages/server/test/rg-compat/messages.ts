import type { CompatCase } from './cases.js';

/**
 * ripgrep's messages on stderr (compared, with the exit code): paths that are not there, broken links and
 * loops, nothing searched, and bad flag values — worded as ripgrep 15 words them, `rg:` included.
 */
export const MESSAGE_CASES: CompatCase[] = [
  {
    from: 'messages: a path that does not exist',
    files: { 'd/f': 'needle\n' },
    args: ['needle', 'nosuch'],
    stdout: '',
    code: 2,
    stderr: 'rg: nosuch: IO error for operation on nosuch: No such file or directory (os error 2)\n',
  },
  {
    from: 'messages: a path that does not exist, with others found',
    files: { 'd/f': 'needle\n' },
    args: ['needle', 'd', 'nosuch'],
    stdout: 'd/f:needle\n',
    code: 2,
    stderr: 'rg: nosuch: No such file or directory (os error 2)\n',
  },
  {
    from: 'messages: --files with a path that does not exist',
    files: { 'd/f': 'needle\n' },
    args: ['--files', 'nosuch'],
    stdout: '',
    code: 2,
    stderr: 'rg: nosuch: IO error for operation on nosuch: No such file or directory (os error 2)\n',
  },
  {
    from: 'messages: a broken link named',
    files: { 'd/f': 'needle\n' },
    links: { 'd/broken': 'nowhere' },
    args: ['needle', 'd/broken'],
    stdout: '',
    code: 2,
    stderr: 'rg: d/broken: IO error for operation on d/broken: No such file or directory (os error 2)\n',
  },
  {
    from: 'messages: -L: a broken link and a loop met while walking',
    files: { 'd/f': 'needle\n', 'd/sub/g': 'x\n' },
    links: { 'd/broken': 'nowhere', 'd/sub/up': '..' },
    args: ['-L', '--sort', 'path', 'needle', 'd'],
    stdout: 'd/f:needle\n',
    code: 2,
    stderr:
      'rg: d/broken: IO error for operation on d/broken: No such file or directory (os error 2)\nrg: File system loop found: d/sub/up points to an ancestor d\n',
  },
  {
    from: 'messages: no files were searched',
    files: { '.ignore': 'ignored-dir/**', 'ignored-dir/foo': 'needle' },
    args: ['needle'],
    stdout: '',
    code: 2,
    stderr:
      "rg: No files were searched, which means ripgrep probably applied a filter you didn't expect.\nRunning with --debug will show why files are being skipped.\n",
  },
  {
    from: 'messages: --no-messages keeps them quiet, the exit code still says',
    files: { 'd/f': 'needle\n' },
    args: ['--no-messages', 'needle', 'd', 'nosuch'],
    stdout: 'd/f:needle\n',
    code: 2,
  },
  {
    from: 'messages: -m with a bad number',
    files: { 'd/f': 'needle\n' },
    args: ['-m', 'x', 'needle'],
    stdout: '',
    code: 2,
    stderr: 'rg: error parsing flag -m: value is not a valid number: invalid digit found in string\n',
  },
  {
    from: 'messages: --max-count= with nothing',
    files: { 'd/f': 'needle\n' },
    args: ['--max-count=', 'needle'],
    stdout: '',
    code: 2,
    stderr:
      'rg: error parsing flag --max-count: value is not a valid number: cannot parse integer from empty string\n',
  },
  {
    from: 'messages: -C with a negative number',
    files: { 'd/f': 'needle\n' },
    args: ['-C', '-1', 'needle'],
    stdout: '',
    code: 2,
    stderr: 'rg: error parsing flag -C: value is not a valid number: invalid digit found in string\n',
  },
  {
    from: 'messages: a number too large',
    files: { 'd/f': 'needle\n' },
    args: ['-A', '99999999999999999999999', 'needle'],
    stdout: '',
    code: 2,
    stderr:
      'rg: error parsing flag -A: value is not a valid number: number too large to fit in target type\n',
  },
  {
    from: 'messages: --max-depth, as spelled',
    files: { 'd/f': 'needle\n' },
    args: ['--max-depth=two', 'needle'],
    stdout: '',
    code: 2,
    stderr:
      'rg: error parsing flag --max-depth: value is not a valid number: invalid digit found in string\n',
  },
  {
    from: 'messages: -E with an unknown encoding',
    files: { 'd/f': 'needle\n' },
    args: ['-E', 'bogus', 'needle'],
    stdout: '',
    code: 2,
    stderr: 'rg: error parsing flag -E: grep config error: unknown encoding: bogus\n',
  },
  {
    from: 'messages: --sort with an unknown key',
    files: { 'd/f': 'needle\n' },
    args: ['--sort', 'size', 'needle'],
    stdout: '',
    code: 2,
    stderr: "rg: error parsing flag --sort: choice 'size' is unrecognized\n",
  },
  {
    from: 'messages: --max-filesize with a bad size',
    files: { 'd/f': 'needle\n' },
    args: ['--max-filesize', '1k', 'needle'],
    stdout: '',
    code: 2,
    stderr:
      "rg: error parsing flag --max-filesize: invalid size: invalid format for size '1k', which should be a non-empty sequence of digits followed by an optional 'K', 'M' or 'G' suffix\n",
  },
  {
    from: 'messages: --type-add without a glob',
    files: { 'd/f': 'needle\n' },
    args: ['--type-add', 'foo', 'needle'],
    stdout: '',
    code: 2,
    stderr: 'rg: invalid definition (format is type:glob, e.g., html:*.html)\n',
  },
  {
    from: 'messages: an unknown file type',
    files: { 'd/f': 'needle\n' },
    args: ['-t', 'nosuchtype', 'needle'],
    stdout: '',
    code: 2,
    stderr: 'rg: unrecognized file type: nosuchtype\n',
  },
  {
    from: 'messages: --path-separator of two bytes (the Windows advice line is not printed)',
    files: { 'd/f': 'needle\n' },
    args: ['--path-separator', 'ab', 'needle'],
    stdout: '',
    code: 2,
    stderr:
      "rg: error parsing flag --path-separator: A path separator must be exactly one byte, but the given separator is 2 bytes: ab\nIn some shells on Windows '/' is automatically expanded. Use '//' instead.\n",
  },
];
